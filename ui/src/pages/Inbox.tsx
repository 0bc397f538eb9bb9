import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n';
import { ApiError, api, call, errorText, type Page, type Task, type Instance } from '../lib/api';
import { refreshBadge } from '../lib/badge';
import { onNotification } from '../lib/live';
import { session } from '../lib/session';
import { contentShown } from '../lib/store';
import { Link } from '../lib/router';
import { dayBound, useUrlFilters } from '../lib/url-state';
import { NoMatch } from '../components/ListFilters';
import { ErrorText, Loading, Pager, Status, fmtTime, useAsync } from '../components/ui';

const tabs = ['todo', 'done', 'cc', 'applications'] as const;
type Tab = (typeof tabs)[number];
const PAGE = 20;
/** The batch endpoint takes at most this many tasks per request. */
const BATCH_MAX = 100;

/** A fresh Idempotency-Key (getRandomValues: randomUUID needs a secure context, and the console may be served over plain http). */
const randomKey = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

type RowResult = { ok: boolean; text: string; status?: string; claimed?: boolean };

/**
 * The cells after the first that every kind of row has: `of`'s business key, initiator (not in one's
 * own applications) and status (unless `status` is given), then `time` with `children` under it. Each
 * cell names its column (`data-label`): a phone shows a row as a card of labelled lines.
 */
function SharedCells(p: {
  of: { businessKey?: string | null; initiatorId: string; status?: string | null };
  status?: string | null;
  time: string | null | undefined;
  timeLabel: string;
  initiator?: boolean;
  children?: ComponentChildren;
}) {
  return (
    <>
      <td data-label={t.inbox.businessKey}>{p.of.businessKey ?? '—'}</td>
      {p.initiator !== false && <td data-label={t.inbox.initiator}>{p.of.initiatorId}</td>}
      <td data-label={t.inbox.status}>
        <Status value={p.status ?? p.of.status} />
      </td>
      <td data-label={p.timeLabel}>
        {fmtTime(p.time)}
        {p.children}
      </td>
    </>
  );
}

type Row = { kind: 'task'; task: Task } | { kind: 'cc'; cc: any } | { kind: 'instance'; instance: Instance };

/** The filters in the URL, by the tabs that offer them (the server filters each list). */
const FILTERS = ['process', 'bk', 'initiator', 'due', 'status', 'from', 'to'] as const;
type Filter = (typeof FILTERS)[number];
type Filters = Record<Filter, string>;
const offered: Record<Tab, readonly Filter[]> = {
  todo: ['process', 'bk', 'initiator', 'due'],
  done: ['process', 'bk', 'initiator'],
  cc: ['process', 'bk'],
  applications: ['process', 'bk', 'status', 'from', 'to'],
};
const DUE = ['overdue', 'day', 'week'] as const;
const APPLICATION_STATUSES = ['active', 'suspended', 'completed', 'rejected', 'withdrawn', 'terminated', 'failed'];
const HOUR = 3_600_000;

/** The due filter's latest due date: now (overdue), a day or a week ahead. */
function dueBefore(due: string): string | undefined {
  const ahead = { overdue: 0, day: 24 * HOUR, week: 7 * 24 * HOUR }[due as (typeof DUE)[number]];
  return ahead === undefined ? undefined : new Date(Date.now() + ahead).toISOString();
}

async function load(tab: Tab, page: number, f: Filters, me: string): Promise<Page<Row>> {
  const on = (k: Filter) => (offered[tab].includes(k) && f[k] ? f[k] : undefined);
  const base = {
    page,
    pageSize: PAGE,
    ...(on('process') ? { processKey: f.process } : {}),
    ...(on('bk') ? { q: f.bk } : {}),
  };
  if (tab === 'todo' || tab === 'done') {
    const path = tab === 'todo' ? '/api/v1/workflow/process-instances/todo' : '/api/v1/workflow/process-instances/done';
    const before = on('due') ? dueBefore(f.due) : undefined;
    const query = {
      ...base,
      ...(on('initiator') ? { initiator: f.initiator } : {}),
      ...(before ? { dueBefore: before } : {}),
    };
    const p = await call(api.GET(path, { params: { query } }));
    return { ...p, items: p.items.map((task) => ({ kind: 'task' as const, task })) };
  }
  if (tab === 'cc') {
    const p = await call(api.GET('/api/v1/workflow/process-instances/cc', { params: { query: base } }));
    return { ...p, items: p.items.map((cc) => ({ kind: 'cc' as const, cc })) };
  }
  const from = on('from') ? dayBound(f.from) : undefined;
  const to = on('to') ? dayBound(f.to, true) : undefined;
  const status = on('status') && APPLICATION_STATUSES.includes(f.status) ? f.status : undefined;
  const p = await call(
    api.GET('/api/v1/workflow/process-instances', {
      params: {
        query: {
          ...base,
          initiator: me,
          ...(status ? { status } : {}),
          ...(from ? { startedAfter: from } : {}),
          ...(to ? { startedBefore: to } : {}),
        },
      },
    }),
  );
  return { ...p, items: p.items.map((instance) => ({ kind: 'instance' as const, instance })) };
}

export function Inbox({ tab: raw }: { tab: string }) {
  const tab = (tabs as readonly string[]).includes(raw) ? (raw as Tab) : 'todo';
  const { values: filters, page, set } = useUrlFilters(FILTERS);
  const processKey = filters.process;
  const businessKey = filters.bk;
  const me = session.get()!.userId;
  const key = FILTERS.map((k) => filters[k]).join('\u0000');
  const list = useAsync(() => load(tab, page, filters, me), [tab, page, key]);
  const has = (k: Filter) => offered[tab].includes(k);
  const active = FILTERS.filter((k) => has(k) && filters[k]);
  const dueWords: Record<string, string> = { overdue: t.lists.overdue, day: t.lists.dueDay, week: t.lists.dueWeek };
  const filterLabels: Filters = {
    process: t.common.filterProcess,
    bk: t.lists.businessKeyHas,
    initiator: t.lists.initiator,
    due: t.lists.due,
    status: t.lists.status,
    from: t.lists.startedFrom,
    to: t.lists.startedTo,
  };
  /** A filter's value as the bar shows it: a process's name, a status's and a due choice's words. */
  const shownValue = (k: Filter) =>
    k === 'process'
      ? (processes.find((d) => d.key === filters.process)?.name ?? filters.process)
      : k === 'status'
        ? (t.status[filters.status] ?? filters.status)
        : k === 'due'
          ? (dueWords[filters.due] ?? filters.due)
          : filters[k];
  /** Another tab, with the filters it also offers. */
  const tabHref = (name: Tab) => {
    const q = new URLSearchParams();
    for (const k of offered[name]) if (filters[k]) q.set(k, filters[k]);
    return `/inbox/${name}${q.size ? `?${q}` : ''}`;
  };
  // The process filter's choices load after the list, which is what the first load waits for.
  const listed = !!list.data || !!list.error;
  const cats = useAsync(
    () => (listed ? call(api.GET('/api/v1/workflow/process-definitions/categories')) : Promise.resolve(null)),
    [listed],
  );
  const processes = cats.data?.flatMap((c) => c.definitions) ?? [];
  useEffect(() => {
    if (!listed) return;
    // The first load's end, read by the budget checks (bench/ui.ts, the browser tests).
    if (!performance.getEntriesByName('inbox-rendered').length) performance.mark('inbox-rendered');
    contentShown();
  }, [listed]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [results, setResults] = useState<Record<string, RowResult>>({});
  const [batchComment, setBatchComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [bkInput, setBkInput] = useState(businessKey);
  const [initiatorInput, setInitiatorInput] = useState(filters.initiator);
  // A phone folds the filters behind a button (pages.css); a desktop always shows them.
  const [filtersOpen, setFiltersOpen] = useState(false);
  useEffect(() => setBkInput(businessKey), [businessKey]);
  useEffect(() => setInitiatorInput(filters.initiator), [filters.initiator]);

  // Live: any notification (assigned, claimable, unavailable when someone else claimed a pool
  // task, ...) reloads the to-do list; so does coming back to the tab, for the few changes that
  // notify nobody (another approver's decision closing an or-sign task).
  useEffect(() => {
    if (tab !== 'todo') return;
    const off = onNotification(() => void list.reload(true));
    const back = () => document.visibilityState === 'visible' && void list.reload(true);
    document.addEventListener('visibilitychange', back);
    return () => {
      off();
      document.removeEventListener('visibilitychange', back);
    };
  }, [tab, list.reload]);
  useEffect(() => setSelected(new Set()), [tab, page, key]);

  // Rows decided here stay on the page with their result, even once the list has moved on.
  const [decided, setDecided] = useState<Record<string, Task>>({});
  useEffect(() => setDecided({}), [tab, page, key]);
  const listed_ = list.data?.items ?? [];
  const present = new Set(listed_.map((r) => (r.kind === 'task' ? r.task.id : '')));
  const rows: Row[] = [
    ...Object.values(decided)
      .filter((task) => !present.has(task.id))
      .map((task) => ({ kind: 'task' as const, task })),
    ...listed_,
  ];
  const decidedHere = (id: string) => !!results[id]?.ok && !results[id]?.claimed;
  const timeLabel =
    tab === 'done'
      ? t.inbox.ended
      : tab === 'cc'
        ? t.inbox.copied
        : tab === 'applications'
          ? t.inbox.started
          : t.inbox.created;
  const selectable = rows.filter(
    (r): r is { kind: 'task'; task: Task } =>
      r.kind === 'task' && r.task.status === 'active' && r.task.kind === 'approval' && !decidedHere(r.task.id),
  );

  const allSelected = selectable.length > 0 && selectable.every((r) => selected.has(r.task.id));
  const selectAll = (on: boolean) => setSelected(on ? new Set(selectable.map((r) => r.task.id)) : new Set());

  const claim = async (task: Task) => {
    setBusy(true);
    try {
      await call(api.POST('/api/v1/workflow/tasks/{id}/claim', { params: { path: { id: task.id } }, body: {} }));
      setResults((r) => ({ ...r, [task.id]: { ok: true, text: t.inbox.claimed, claimed: true } }));
      await list.reload(true);
    } catch (err) {
      setResults((r) => ({ ...r, [task.id]: { ok: false, text: errorText(err) } }));
    }
    setBusy(false);
    void refreshBadge();
  };

  const decide = async (decision: 'approve' | 'reject') => {
    // One request per 100 tasks (POST /tasks/batch/{decision}); the answer has a result per task,
    // shown on its row. The Idempotency-Key makes a resent request decide nothing twice.
    setBusy(true);
    const ids = [...selected];
    const out: typeof results = {};
    const keep: Record<string, Task> = {};
    for (const r of rows) if (r.kind === 'task' && selected.has(r.task.id)) keep[r.task.id] = r.task;
    setDecided((d) => ({ ...d, ...keep }));
    const done = decision === 'approve' ? t.status.approved! : t.status.rejected!;
    for (let i = 0; i < ids.length; i += BATCH_MAX) {
      const chunk = ids.slice(i, i + BATCH_MAX);
      const params = { header: { 'idempotency-key': `batch-${randomKey()}` } };
      const body = { taskIds: chunk, ...(batchComment ? { comment: batchComment } : {}) };
      try {
        const answer = await call(
          decision === 'approve'
            ? api.POST('/api/v1/workflow/tasks/batch/approve', { params, body })
            : api.POST('/api/v1/workflow/tasks/batch/reject', { params, body }),
        );
        for (const r of answer.results)
          out[r.taskId] = r.ok
            ? { ok: true, text: done, status: decision === 'approve' ? 'approved' : 'rejected' }
            : { ok: false, text: new ApiError(409, r.code, r.message, null).message };
      } catch (err) {
        for (const id of chunk) out[id] = { ok: false, text: errorText(err) };
      }
      setResults((r) => ({ ...r, ...out }));
    }
    setSelected(
      new Set(
        Object.entries(out)
          .filter(([, r]) => !r.ok)
          .map(([id]) => id),
      ),
    );
    setBusy(false);
    void refreshBadge();
  };

  return (
    <>
      <h1>{t.inbox.title}</h1>
      <nav class="tabs" aria-label={t.inbox.title}>
        {tabs.map((name) => (
          <Link
            key={name}
            href={tabHref(name)}
            aria-current={name === tab ? 'page' : undefined}
            class={name === tab ? 'current' : undefined}
          >
            {t.inbox[name]}
          </Link>
        ))}
      </nav>
      <button
        type="button"
        class="filters-toggle"
        aria-expanded={filtersOpen}
        aria-controls="inbox-filters"
        data-testid="inbox-filters-toggle"
        onClick={() => setFiltersOpen(!filtersOpen)}
      >
        {t.lists.filters(active.length)}
      </button>
      <form
        id="inbox-filters"
        class={filtersOpen ? 'filters' : 'filters folded'}
        role="search"
        data-testid="inbox-filters"
        onSubmit={(e) => {
          e.preventDefault();
          set({ bk: bkInput, ...(has('initiator') ? { initiator: initiatorInput } : {}) });
        }}
      >
        <label>
          {t.common.filterProcess}
          <select name="process" value={processKey} onChange={(e) => set({ process: e.currentTarget.value })}>
            <option value="">{t.common.anyProcess}</option>
            {processKey && !processes.some((d) => d.key === processKey) && (
              <option value={processKey}>{processKey}</option>
            )}
            {processes.map((d) => (
              <option key={d.key} value={d.key}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.lists.businessKeyHas}
          <input
            type="search"
            name="bk"
            value={bkInput}
            maxLength={200}
            onInput={(e) => setBkInput(e.currentTarget.value)}
          />
        </label>
        {has('initiator') && (
          <label>
            {t.lists.initiator}
            <input
              type="search"
              name="initiator"
              value={initiatorInput}
              placeholder={t.lists.initiatorHint}
              maxLength={200}
              onInput={(e) => setInitiatorInput(e.currentTarget.value)}
            />
          </label>
        )}
        {has('due') && (
          <label>
            {t.lists.due}
            <select name="due" value={filters.due} onChange={(e) => set({ due: e.currentTarget.value })}>
              <option value="">{t.lists.anyDue}</option>
              {DUE.map((d) => (
                <option key={d} value={d}>
                  {dueWords[d]}
                </option>
              ))}
            </select>
          </label>
        )}
        {has('status') && (
          <label>
            {t.lists.status}
            <select name="status" value={filters.status} onChange={(e) => set({ status: e.currentTarget.value })}>
              <option value="">{t.lists.anyStatus}</option>
              {APPLICATION_STATUSES.map((st) => (
                <option key={st} value={st}>
                  {t.status[st] ?? st}
                </option>
              ))}
            </select>
          </label>
        )}
        {has('from') && (
          <label>
            {t.lists.startedFrom}
            <input
              type="date"
              name="from"
              value={filters.from}
              onChange={(e) => set({ from: e.currentTarget.value })}
            />
          </label>
        )}
        {has('to') && (
          <label>
            {t.lists.startedTo}
            <input type="date" name="to" value={filters.to} onChange={(e) => set({ to: e.currentTarget.value })} />
          </label>
        )}
        <button type="submit">{t.common.search}</button>
      </form>
      {tab === 'todo' && selectable.length > 0 && (
        <div class="batch card" aria-label={t.inbox.batch}>
          {/* A phone shows the list as cards without its header row: select-all is here instead. */}
          <label class="check select-all">
            <input type="checkbox" checked={allSelected} onChange={(e) => selectAll(e.currentTarget.checked)} />{' '}
            {t.inbox.selectAll}
          </label>
          <label>
            {t.inbox.batchComment}
            <input name="batchComment" value={batchComment} onInput={(e) => setBatchComment(e.currentTarget.value)} />
          </label>
          <div class="buttons">
            {(['approve', 'reject'] as const).map((what) => (
              <button
                key={what}
                type="button"
                class={what === 'approve' ? 'primary' : 'danger'}
                disabled={busy || !selected.size}
                onClick={() => void decide(what)}
              >
                {what === 'approve' ? t.inbox.approveSelected(selected.size) : t.inbox.rejectSelected(selected.size)}
              </button>
            ))}
          </div>
        </div>
      )}
      {list.loading && !list.data && <Loading />}
      <ErrorText error={list.error} />
      {list.data && !rows.length && (
        <NoMatch
          filters={active.map((k) => ({ key: k, label: filterLabels[k], value: shownValue(k) }))}
          onClear={(k) => set(k ? { [k]: '' } : Object.fromEntries(FILTERS.map((f) => [f, ''])))}
        />
      )}
      {rows.length > 0 && (
        <div class="table-wrap stack-on-phone inbox-list">
          <table class="list" data-testid={`list-${tab}`}>
            <thead>
              <tr>
                {tab === 'todo' && (
                  <th scope="col">
                    {selectable.length > 0 && (
                      <input
                        type="checkbox"
                        aria-label={t.inbox.selectAll}
                        checked={allSelected}
                        onChange={(e) => selectAll(e.currentTarget.checked)}
                      />
                    )}
                  </th>
                )}
                <th scope="col">{tab === 'applications' || tab === 'cc' ? t.inbox.process : t.inbox.task}</th>
                <th scope="col">{t.inbox.businessKey}</th>
                {tab !== 'applications' && <th scope="col">{t.inbox.initiator}</th>}
                <th scope="col">{t.inbox.status}</th>
                <th scope="col">{timeLabel}</th>
              </tr>
            </thead>
            <tbody>
              {/* Keyed by id: a live reload (newest first) must move rows, not hand one row's link to another. */}
              {rows.map((r) => {
                if (r.kind === 'task') {
                  const task = r.task;
                  const res = results[task.id];
                  const canPick = task.status === 'active' && task.kind === 'approval' && !decidedHere(task.id);
                  return (
                    <tr
                      key={`task:${task.id}`}
                      data-task-id={task.id}
                      data-business-key={task.businessKey ?? ''}
                      class={task.status === 'pending' ? 'pool' : undefined}
                    >
                      {tab === 'todo' && (
                        <td>
                          <input
                            type="checkbox"
                            aria-label={t.inbox.select(`${task.name} ${task.businessKey ?? ''}`)}
                            disabled={!canPick}
                            checked={selected.has(task.id)}
                            onChange={(e) => {
                              const next = new Set(selected);
                              if (e.currentTarget.checked) next.add(task.id);
                              else next.delete(task.id);
                              setSelected(next);
                            }}
                          />
                        </td>
                      )}
                      <td>
                        <Link href={`/instances/${encodeURIComponent(task.instanceId)}`}>{task.name}</Link>
                        <div class="muted small">{task.processName}</div>
                        {task.status === 'pending' && (
                          <span class="tag pool-tag" title={t.inbox.poolHint}>
                            {t.inbox.pool}
                          </span>
                        )}
                        {tab === 'todo' && task.status === 'pending' && !decided[task.id] && (
                          <button
                            type="button"
                            class="small-button"
                            data-action="claim-row"
                            disabled={busy}
                            aria-label={t.inbox.claimRow(`${task.name} ${task.businessKey ?? ''}`)}
                            onClick={() => void claim(task)}
                          >
                            {t.inbox.claim}
                          </button>
                        )}
                        {res && (
                          <div class={res.ok ? 'ok small' : 'error small'} role="status" data-testid="row-result">
                            {res.text}
                          </div>
                        )}
                      </td>
                      <SharedCells
                        of={task}
                        status={
                          res?.ok && res.status
                            ? res.status
                            : tab === 'done'
                              ? (task.result ?? task.status)
                              : task.status
                        }
                        time={tab === 'done' ? task.endTime : task.createTime}
                        timeLabel={timeLabel}
                      >
                        {tab === 'todo' && task.dueDate && (
                          <div class="muted small">
                            {t.inbox.due} {fmtTime(task.dueDate)}
                          </div>
                        )}
                      </SharedCells>
                    </tr>
                  );
                }
                if (r.kind === 'cc') {
                  const c = r.cc;
                  // A copy is one per instance, step and user (cc_records' primary key).
                  return (
                    <tr key={`cc:${c.instanceId}:${c.activityId}`} class={c.read ? undefined : 'unread'}>
                      <td>
                        <Link href={`/instances/${encodeURIComponent(c.instanceId)}`}>{c.processName}</Link>
                        {!c.read && <span class="tag">{t.inbox.unread}</span>}
                      </td>
                      <SharedCells of={c} time={c.ccTime} timeLabel={timeLabel} />
                    </tr>
                  );
                }
                const i = r.instance;
                return (
                  <tr key={`instance:${i.id}`} data-instance-id={i.id}>
                    <td>
                      <Link href={`/instances/${encodeURIComponent(i.id)}`}>{i.processName}</Link>
                    </td>
                    <SharedCells of={i} time={i.startTime} timeLabel={timeLabel} initiator={false} />
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {list.data && (
        <Pager page={list.data.page} pageSize={PAGE} total={list.data.total} onPage={(p) => set({ page: p })} />
      )}
    </>
  );
}
