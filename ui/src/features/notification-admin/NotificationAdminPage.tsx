// "Notifications" for tenant admins (workflow:admin; docs/channels.md#the-console): the channels that
// carry messages, the message templates per kind and language, and the delivery log — one tab each.
import { t } from './i18n';
import { Link } from '../../lib/router';
import { Channels } from './Channels';
import { Deliveries } from './Deliveries';
import { Templates } from './Templates';

const TABS = ['channels', 'templates', 'deliveries'] as const;
type Tab = (typeof TABS)[number];

export function NotificationAdminPage({ tab }: { tab: string }) {
  const current: Tab = (TABS as readonly string[]).includes(tab) ? (tab as Tab) : 'channels';
  return (
    <>
      <h1>{t.notifyAdmin.title}</h1>
      <nav class="tabs" aria-label={t.notifyAdmin.tabs}>
        {TABS.map((name) => (
          <Link
            key={name}
            href={`/admin/notifications/${name}`}
            aria-current={name === current ? 'page' : undefined}
            class={name === current ? 'current' : undefined}
            data-tab={name}
          >
            {t.notifyAdmin.tab[name]}
          </Link>
        ))}
      </nav>
      {current === 'channels' && <Channels />}
      {current === 'templates' && <Templates />}
      {current === 'deliveries' && <Deliveries />}
    </>
  );
}
