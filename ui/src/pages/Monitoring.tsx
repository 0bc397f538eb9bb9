import { Fragment } from 'preact';
import { t } from '../i18n';
import { api, call } from '../lib/api';
import { Link } from '../lib/router';
import { session } from '../lib/session';
import { ListTable, Section, Status, fmtTime, useAsync, useRowActions } from '../components/ui';
import { InstanceSearch } from './InstanceSearch';

// The repairs of a stuck instance: POST …/process-instances/{id}/<action>, for admins.
const repairs = [
  ['re-drive', t.admin.reDrive],
  ['force-resume', t.admin.forceResume],
] as const;

export function Monitoring() {
  const admin = session.get()!.can.admin;
  const stats = useAsync(() => call(api.GET('/api/v1/workflow/tasks/statistics')), []);
  const stuck = useAsync(
    () => call(api.GET('/api/v1/workflow/process-instances/stuck', { params: { query: { pageSize: 50 } } })),
    [],
  );
  const overdue = useAsync(
    () => call(api.GET('/api/v1/workflow/tasks/overdue', { params: { query: { pageSize: 50 } } })),
    [],
  );
  const backlog = useAsync(
    () => call(api.GET('/api/v1/workflow/tasks/backlog', { params: { query: { pageSize: 50 } } })),
    [],
  );
  const rowActions = useRowActions(() => stuck.reload(true));

  const s = stats.data as any;
  return (
    <>
      <h1>{t.admin.monitoring}</h1>
      <Section title={t.admin.statistics} id="stats" error={stats.error}>
        {s && (
          <dl class="facts">
            {['todo', 'claimable', 'overdue', 'ccUnread', 'applicationsRunning', 'doneToday'].map((k) => (
              <Fragment key={k}>
                <dt>{t.admin.stats[k] ?? k}</dt>
                <dd>{s[k]}</dd>
              </Fragment>
            ))}
          </dl>
        )}
        {Array.isArray(s?.byProcess) && s.byProcess.length > 0 && (
          <ListTable wrap={false} columns={[t.inbox.process, t.admin.open, t.admin.overdue]}>
            {s.byProcess.map((p: any) => (
              <tr key={p.processKey}>
                <td>{p.processName}</td>
                <td>{p.open}</td>
                <td>{p.overdue}</td>
              </tr>
            ))}
          </ListTable>
        )}
      </Section>
      <InstanceSearch />
      <Section title={t.admin.stuck} id="stuck" error={stuck.error}>
        {stuck.data && !stuck.data.items.length && <p class="muted">{t.common.empty}</p>}
        <ListTable>
          {stuck.data?.items.map((i) => (
            <tr key={i.id}>
              <td>
                <Link href={`/instances/${encodeURIComponent(i.id)}`}>{i.processName}</Link>
                <div class="small muted">{i.businessKey ?? ''}</div>
              </td>
              <td>
                <Status value={i.status} />
              </td>
              <td>{String((i.detail as any).reason)}</td>
              <td class="buttons">
                {rowActions(
                  i.id,
                  repairs.map(([action, label]) => ({
                    label,
                    when: admin,
                    run: () =>
                      call(
                        api.POST(`/api/v1/workflow/process-instances/{id}/${action}`, {
                          params: { path: { id: i.id } },
                          body: {},
                        }),
                      ),
                  })),
                )}
              </td>
            </tr>
          ))}
        </ListTable>
      </Section>
      <Section title={t.admin.overdue} id="overdue" error={overdue.error}>
        {overdue.data && !overdue.data.items.length && <p class="muted">{t.common.empty}</p>}
        <ul class="plain">
          {overdue.data?.items.map((x: any) => (
            <li key={x.id}>
              <Link href={`/instances/${encodeURIComponent(x.instanceId)}`}>{x.name}</Link> —{' '}
              {x.assignee ?? t.inbox.pool} · {t.inbox.due} {fmtTime(x.dueDate)}
            </li>
          ))}
        </ul>
      </Section>
      <Section title={t.admin.backlog} id="backlog" error={backlog.error}>
        <ListTable
          wrap={false}
          columns={[t.inbox.process, t.admin.open, t.admin.unclaimed, t.admin.overdue, t.admin.oldest]}
        >
          {backlog.data?.items.map((b: any) => (
            <tr key={b.processKey}>
              <td>{b.processName}</td>
              <td>{b.open}</td>
              <td>{b.unclaimed}</td>
              <td>{b.overdue}</td>
              <td>{(b.oldestAgeSeconds / 3600).toFixed(1)}</td>
            </tr>
          ))}
        </ListTable>
      </Section>
    </>
  );
}
