// The delivery log (GET /api/v1/notification-deliveries): every message a channel sent, is sending
// or retrying, skipped or gave up on, newest first; filtered by status, channel, message and recipient.
import { useEffect, useState } from 'preact/hooks';
import { useUrlFilters } from '../../lib/url-state';
import { fmtTime } from '../../i18n';
import { t } from './i18n';
import { ListTable, Loading, Pager, Section, useAsync } from '../../components/ui';
import {
  DELIVERY_STATUSES,
  MESSAGE_KINDS,
  listChannels,
  listDeliveries,
  type Delivery,
  type DeliveryFilter,
} from './api';
import { kindName } from './labels';
import css from './notification-admin.module.css';

const PAGE_SIZE = 25;
const FILTER_KEYS = ['status', 'channelId', 'kind', 'userId'] as const satisfies ReadonlyArray<keyof DeliveryFilter>;

/** When it was sent, or when it is tried next, or until when quiet hours hold it. */
function whenNote(d: Delivery): string | null {
  if (d.status === 'sent' && d.sentAt) return t.notifyAdmin.sentAt(fmtTime(d.sentAt));
  if (d.status === 'pending' && d.heldUntil && d.nextAttemptAt && d.heldUntil >= d.nextAttemptAt)
    return t.notifyAdmin.heldUntil(fmtTime(d.heldUntil));
  if (d.status === 'pending' && d.nextAttemptAt) return t.notifyAdmin.nextAttempt(fmtTime(d.nextAttemptAt));
  return null;
}

export function Deliveries() {
  // The filter and page live in the URL (a view survives a reload and can be shared); the form is a draft of it.
  const url = useUrlFilters(FILTER_KEYS);
  const filter: DeliveryFilter = url.values;
  const page = url.page;
  const [draft, setDraft] = useState<DeliveryFilter>(filter);
  const key = FILTER_KEYS.map((k) => filter[k]).join('\u0000');
  useEffect(() => setDraft(filter), [key]);
  const channels = useAsync(listChannels, []);
  const list = useAsync(() => listDeliveries(filter, page, PAGE_SIZE), [key, page]);
  const names = new Map((channels.data?.items ?? []).map((c) => [c.id, c.name]));
  // Rows wait for the channels' names: drawn before them, every row said "a deleted channel".
  const ready = list.data !== undefined && (channels.data !== undefined || channels.error !== undefined);
  /** A channel's name; its id when the names could not be read (not "deleted": that is unknown). */
  const channelName = (id: string) => names.get(id) ?? (channels.data ? t.notifyAdmin.unknownChannel : id);
  const rows = ready ? (list.data?.items ?? []) : [];
  const set = (fields: Partial<DeliveryFilter>) => setDraft({ ...draft, ...fields });
  return (
    <Section title={t.notifyAdmin.tab.deliveries} id="deliveries" error={list.error}>
      <p class={css.help}>{t.notifyAdmin.deliveriesHelp}</p>
      <form
        class="filters"
        data-testid="delivery-filters"
        onSubmit={(e) => {
          e.preventDefault();
          url.set({ ...draft });
        }}
      >
        <label>
          {t.notifyAdmin.status}
          <select name="status" value={draft.status} onChange={(e) => set({ status: e.currentTarget.value })}>
            <option value="">{t.notifyAdmin.anyStatus}</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.notifyAdmin.statuses[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.notifyAdmin.channel}
          <select name="channelId" value={draft.channelId} onChange={(e) => set({ channelId: e.currentTarget.value })}>
            <option value="">{t.notifyAdmin.anyChannel}</option>
            {channels.data?.items.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.notifyAdmin.message}
          <select name="kind" value={draft.kind} onChange={(e) => set({ kind: e.currentTarget.value })}>
            <option value="">{t.notifyAdmin.anyMessage}</option>
            {[...MESSAGE_KINDS, 'digest'].map((k) => (
              <option key={k} value={k}>
                {kindName(k)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.notifyAdmin.recipientFilter}
          <input name="userId" value={draft.userId} onInput={(e) => set({ userId: e.currentTarget.value })} />
        </label>
        <div class="buttons">
          <button type="submit" class="primary">
            {t.notifyAdmin.filter}
          </button>
          <button type="button" data-action="refresh" onClick={() => void list.reload()}>
            {t.notifyAdmin.refresh}
          </button>
        </div>
      </form>
      {!ready && !list.error && <Loading />}
      {ready && !rows.length && <p class="muted">{t.notifyAdmin.noDeliveries}</p>}
      {rows.length > 0 && (
        <div class={`stack-on-phone ${css.stack}`}>
          <ListTable
            testid="delivery-list"
            columns={[
              t.notifyAdmin.time,
              t.notifyAdmin.status,
              t.notifyAdmin.channel,
              t.notifyAdmin.message,
              t.notifyAdmin.recipient,
              t.notifyAdmin.attempts,
              t.notifyAdmin.lastError,
            ]}
          >
            {rows.map((d) => {
              const when = whenNote(d);
              return (
                <tr key={d.id} data-delivery-id={d.id} data-status={d.status} data-kind={d.kind}>
                  <td class={css.nowrap}>
                    {fmtTime(d.createdAt)}
                    {when && <div class="muted small">{when}</div>}
                  </td>
                  <td data-label={t.notifyAdmin.status}>
                    <span class={`${css.pill} ${css[`pill-${d.status}`] ?? ''}`}>
                      {t.notifyAdmin.statuses[d.status]}
                    </span>
                  </td>
                  <td data-label={t.notifyAdmin.channel}>{channelName(d.channelId)}</td>
                  <td data-label={t.notifyAdmin.message}>
                    {kindName(d.kind)}
                    {d.digestDate && <div class="muted small">{t.notifyAdmin.digestOf(d.digestDate)}</div>}
                  </td>
                  <td data-label={t.notifyAdmin.recipient}>
                    {d.userId}
                    {d.address && <div class={`muted small ${css.wrap}`}>{d.address}</div>}
                  </td>
                  <td data-label={t.notifyAdmin.attempts}>{d.attempts}</td>
                  <td data-label={t.notifyAdmin.lastError} class={css.wrap}>
                    {d.lastError ? <span class="error small">{d.lastError}</span> : '—'}
                    {d.response && <div class="muted small">{d.response}</div>}
                  </td>
                </tr>
              );
            })}
          </ListTable>
        </div>
      )}
      {list.data && (
        <Pager page={page} pageSize={PAGE_SIZE} total={list.data.total} onPage={(p) => url.set({ page: p })} />
      )}
    </Section>
  );
}
