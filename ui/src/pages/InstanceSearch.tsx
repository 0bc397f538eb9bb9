// The tenant's instances, searched and filtered (monitoring): business key text, process, initiator,
// status and start dates, all in the URL so a view can be shared and survives a reload.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n';
import { api, call } from '../lib/api';
import { Link } from '../lib/router';
import { dayBound, useUrlFilters } from '../lib/url-state';
import { NoMatch } from '../components/ListFilters';
import { ErrorText, Loading, Pager, Section, Status, fmtTime, useAsync } from '../components/ui';

const FILTERS = ['q', 'process', 'initiator', 'status', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];
const STATUSES = ['active', 'suspended', 'failed', 'completed', 'rejected', 'withdrawn', 'terminated'];
const PAGE = 20;

export function InstanceSearch() {
  const { values: f, page, set, active } = useUrlFilters(FILTERS);
  const key = FILTERS.map((k) => f[k]).join('\u0000');
  const list = useAsync(() => {
    const from = dayBound(f.from);
    const to = dayBound(f.to, true);
    const query = {
      page,
      pageSize: PAGE,
      ...(f.q ? { q: f.q } : {}),
      ...(f.process ? { processKey: f.process } : {}),
      ...(f.initiator ? { initiator: f.initiator } : {}),
      ...(STATUSES.includes(f.status) ? { status: f.status } : {}),
      ...(from ? { startedAfter: from } : {}),
      ...(to ? { startedBefore: to } : {}),
    };
    return call(api.GET('/api/v1/workflow/process-instances', { params: { query } }));
  }, [page, key]);
  const cats = useAsync(() => call(api.GET('/api/v1/workflow/process-definitions/categories')), []);
  const processes = cats.data?.flatMap((c) => c.definitions) ?? [];
  const [text, setText] = useState({ q: f.q, initiator: f.initiator });
  useEffect(() => setText({ q: f.q, initiator: f.initiator }), [f.q, f.initiator]);

  const labels: Record<Filter, string> = {
    q: t.lists.businessKeyHas,
    process: t.common.filterProcess,
    initiator: t.lists.initiator,
    status: t.lists.status,
    from: t.lists.startedFrom,
    to: t.lists.startedTo,
  };
  const shown = (k: Filter) =>
    k === 'process'
      ? (processes.find((d) => d.key === f.process)?.name ?? f.process)
      : k === 'status'
        ? (t.status[f.status] ?? f.status)
        : f[k];

  return (
    <Section title={t.lists.instances} id="instances">
      <form
        class="filters"
        role="search"
        data-testid="instance-filters"
        onSubmit={(e) => {
          e.preventDefault();
          set(text);
        }}
      >
        <label>
          {t.lists.businessKeyHas}
          <input
            type="search"
            name="q"
            value={text.q}
            maxLength={200}
            onInput={(e) => setText({ ...text, q: e.currentTarget.value })}
          />
        </label>
        <label>
          {t.common.filterProcess}
          <select name="process" value={f.process} onChange={(e) => set({ process: e.currentTarget.value })}>
            <option value="">{t.common.anyProcess}</option>
            {f.process && !processes.some((d) => d.key === f.process) && <option value={f.process}>{f.process}</option>}
            {processes.map((d) => (
              <option key={d.key} value={d.key}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.lists.initiator}
          <input
            type="search"
            name="initiator"
            value={text.initiator}
            placeholder={t.lists.initiatorHint}
            maxLength={200}
            onInput={(e) => setText({ ...text, initiator: e.currentTarget.value })}
          />
        </label>
        <label>
          {t.lists.status}
          <select name="status" value={f.status} onChange={(e) => set({ status: e.currentTarget.value })}>
            <option value="">{t.lists.anyStatus}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.status[s] ?? s}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.lists.startedFrom}
          <input type="date" name="from" value={f.from} onChange={(e) => set({ from: e.currentTarget.value })} />
        </label>
        <label>
          {t.lists.startedTo}
          <input type="date" name="to" value={f.to} onChange={(e) => set({ to: e.currentTarget.value })} />
        </label>
        <button type="submit">{t.common.search}</button>
      </form>
      {list.loading && !list.data && <Loading />}
      <ErrorText error={list.error} />
      {list.data && !list.data.items.length && (
        <NoMatch
          filters={active.map((k) => ({ key: k, label: labels[k], value: shown(k) }))}
          onClear={(k) => set(k ? { [k]: '' } : Object.fromEntries(FILTERS.map((x) => [x, ''])))}
        />
      )}
      {!!list.data?.items.length && (
        <div class="table-wrap stack-on-phone">
          <table class="list" data-testid="instance-list">
            <thead>
              <tr>
                {[t.inbox.process, t.inbox.businessKey, t.inbox.initiator, t.inbox.status, t.inbox.started].map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((i) => (
                <tr key={i.id} data-instance-id={i.id}>
                  <td data-label={t.inbox.process}>
                    <Link href={`/instances/${encodeURIComponent(i.id)}`}>{i.processName}</Link>
                  </td>
                  <td data-label={t.inbox.businessKey}>{i.businessKey ?? '—'}</td>
                  <td data-label={t.inbox.initiator}>{i.initiatorId}</td>
                  <td data-label={t.inbox.status}>
                    <Status value={i.status} />
                  </td>
                  <td data-label={t.inbox.started}>{fmtTime(i.startTime)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && <Pager page={page} pageSize={PAGE} total={list.data.total} onPage={(p) => set({ page: p })} />}
    </Section>
  );
}
