// The header's notification menu: the unread count (from the WebSocket's `ready` and every new
// notification), and on opening the newest ten in words — each kind worded by the catalogue
// (t.notifications.kinds), e.g. how the user's request ended — with "mark all read".
import { useEffect, useState } from 'preact/hooks';
import { fmtTime, t } from '../../i18n';
import { onNotification, unread } from '../../lib/live';
import { Link } from '../../lib/router';
import { useStore } from '../../lib/store';
import { loadNotifications, markAllRead } from './api';
import css from './notifications.module.css';

type Item = Awaited<ReturnType<typeof loadNotifications>>['items'][number];

/** A notification in words: its kind's sentence, else a generic one. */
export function describe(n: Pick<Item, 'kind' | 'payload'>): string {
  const kinds = t.notifications.kinds as Record<string, (p: Record<string, unknown>) => string>;
  const p = n.payload ?? {};
  return (kinds[n.kind] ?? t.notifications.other)(p);
}

export function NotificationMenu() {
  const count = useStore(unread);
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Item[] | null>(null);
  const reload = () =>
    void loadNotifications().then(
      (p) => setItems(p.items),
      () => setItems([]),
    );
  useEffect(() => (open ? (reload(), onNotification(reload)) : undefined), [open]);
  const readAll = async () => {
    await markAllRead();
    unread.set(0);
    reload();
  };
  return (
    <span class={css.menu}>
      <button type="button" aria-expanded={open} data-testid="notifications" onClick={() => setOpen(!open)}>
        {t.notifications.title}
        {count > 0 && (
          <span class={css.count} aria-label={t.notifications.unread(count)}>
            {count}
          </span>
        )}
      </button>
      {open && (
        <div class={css.panel} role="dialog" aria-label={t.notifications.title}>
          <div class={css.head}>
            <strong>{t.notifications.title}</strong>
            <button type="button" onClick={() => void readAll()} disabled={!items?.some((n) => !n.readAt)}>
              {t.notifications.markAllRead}
            </button>
          </div>
          {items === null ? (
            <p class={css.empty}>{t.common.loading}</p>
          ) : items.length === 0 ? (
            <p class={css.empty}>{t.notifications.empty}</p>
          ) : (
            <ul class={css.list}>
              {items.map((n) => (
                <li key={n.id} class={n.readAt ? css.item : `${css.item} ${css.unread}`} data-kind={n.kind}>
                  {n.instanceId ? (
                    <span onClick={() => setOpen(false)}>
                      <Link href={`/instances/${n.instanceId}`}>{describe(n)}</Link>
                    </span>
                  ) : (
                    describe(n)
                  )}
                  <span class={css.when}>{fmtTime(n.createdAt)}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </span>
  );
}
