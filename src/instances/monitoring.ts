// Monitoring views over the read model (docs/contract.md#lists): stuck instances, the caller's
// statistics, overdue tasks and the backlog by process. See docs/monitoring.md.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps, Principal } from '../context.js';
import type { Page } from '../paging.js';
import type { OverdueQuery, ProcessKeyQuery } from '../read-model/shapes.js';
import { actorOf } from '../temporal/engine-client.js';
import { holds, Permissions } from '../permissions.js';
import { ALL_TASKS, Where, instanceView, paged, pagedBy, taskView, todoWhere } from '../read-model/read-model.js';

/** Work somebody can take up now: claimable pools and assigned tasks (not waiting turns, delays or suspended ones). */
const WORK = `x.status in ('pending', 'active') and x.kind <> 'delay' and not x.deleted`;

/** A pool nobody is in: no candidates, or a parked one (it lists the empty roles/departments, no user). */
const emptyPool = (t: string) =>
  `(${t}.status = 'pending' and ${t}.assignee is null and jsonb_array_length(coalesce(${t}.candidates->'userIds', '[]')) = 0
    and ((jsonb_array_length(coalesce(${t}.candidates->'roleIds', '[]')) = 0 and jsonb_array_length(coalesce(${t}.candidates->'deptIds', '[]')) = 0)
      or coalesce(${t}.variables->>'fallback_policy', '') = 'park'))`;

/** Open tasks that keep an instance moving: not pools nobody is in, not multi-approver parents (waiting, no assignee). */
const MOVING_TASK = `t.status in ('pending', 'active', 'waiting', 'suspended') and not t.deleted and not ${emptyPool('t')}
  and not (t.status = 'waiting' and t.assignee is null and t.kind <> 'delay')`;

/** Node types whose wait ends by itself (a timer, an http answer, a child process, a rule chain's run). */
const SELF_ENDING = `('httpCall', 'subProcess', 'join', 'automation')`;

/**
 * Instances nobody and nothing will move on: every `failed` one, and `active` ones with no open
 * task that keeps them moving (pools without candidates do not count) and no current node that
 * waits on an http call, a child process or a join timer.
 */
export async function listStuck(deps: AppDeps, principal: Principal, q: ProcessKeyQuery) {
  const em = deps.orm.em.fork();
  const from = `(select i.*, (select coalesce(jsonb_agg(distinct t.activity_id), '[]') from tasks t where t.instance_id = i.id and not t.deleted and ${emptyPool('t')}) as empty_pools
    from instances i)`;
  const where = new Where().add('x.tenant_id = ?', principal.tenantId).add(
    `(x.status = 'failed' or (x.status = 'active'
        and not exists (select 1 from tasks t where t.instance_id = x.id and ${MOVING_TASK})
        and not exists (select 1 from process_definitions d, jsonb_array_elements(d.dsl->'metadata'->'nodes') n
          where d.id = x.definition_id and n->>'type' in ${SELF_ENDING} and jsonb_exists(x.current_nodes, n->>'id'))))`,
  );
  if (q.processKey) where.add('x.process_key = ?', q.processKey);
  return paged(em, from, where, 'x.updated_at desc, x.id', q, (r) => ({ ...instanceView(r), detail: stuckDetail(r) }));
}

function stuckDetail(r: any): Record<string, unknown> & { reason: string } {
  if (r.status === 'failed')
    return { ...(r.detail ?? {}), reason: String(r.detail?.reason ?? 'failed (no reason recorded)') };
  const pools = (r.empty_pools ?? []) as string[];
  if (pools.length)
    return { reason: `No candidates: the pool at ${pools.join(', ')} has nobody who could claim it`, nodes: pools };
  return {
    reason: 'No open task and nothing scheduled: nobody can move the instance on',
    nodes: r.current_nodes ?? [],
  };
}

const count = async (em: EntityManager, sql: string, params: unknown[]) => {
  const [row] = await em.execute<Array<{ n: string }>>(sql, params);
  return Number(row?.n ?? 0);
};

/** The caller's badges; with workflow:monitor also the open work of the tenant by process. */
export async function statistics(deps: AppDeps, principal: Principal) {
  const em = deps.orm.em.fork();
  const todo = todoWhere(principal.tenantId, actorOf(principal));
  const { tenantId, userId } = principal;
  // Side by side: each is one index (or index-only) scan.
  const [todoN, claimable, overdue, ccUnread, applicationsRunning, doneToday, byProcessRows] = await Promise.all([
    count(em, `select count(*) as n from tasks x ${todo}`, todo.params),
    count(em, `select count(*) as n from tasks x ${todo} and x.status = 'pending'`, todo.params),
    count(em, `select count(*) as n from tasks x ${todo} and x.due_date < now()`, todo.params),
    count(em, `select count(*) as n from cc_records where tenant_id = ? and user_id = ? and not read`, [
      tenantId,
      userId,
    ]),
    count(em, `select count(*) as n from instances where tenant_id = ? and initiator_id = ? and status <> 'draft'`, [
      tenantId,
      userId,
    ]),
    count(
      em,
      `select count(*) as n from ${ALL_TASKS} x where x.tenant_id = ? and not x.deleted and x.assignee = ? and x.status = 'completed'
         and x.result in ('approved', 'rejected', 'returned', 'completed') and x.end_time >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`,
      [tenantId, userId],
    ),
    holds(principal.permissions, Permissions.MONITOR) ? backlogRows(deps, principal, {}) : Promise.resolve(null),
  ]);
  const stats = { todo: todoN, claimable, overdue, ccUnread, applicationsRunning, doneToday };
  if (!byProcessRows) return stats;
  const byProcess = byProcessRows.map(({ processKey, processName, open, overdue }) => ({
    processKey,
    processName,
    open,
    overdue,
  }));
  return { ...stats, byProcess };
}

/** Open tasks past their due date, oldest due first; suspended instances' tasks are left out. */
export async function overdueTasks(deps: AppDeps, principal: Principal, q: OverdueQuery) {
  const where = new Where()
    .add('x.tenant_id = ?', principal.tenantId)
    .add(WORK)
    .add('x.due_date < now()')
    .add(`not exists (select 1 from instances i where i.id = x.instance_id and i.status = 'suspended')`);
  if (q.processKey) where.add('x.process_key = ?', q.processKey);
  if (q.assignee) where.add('x.assignee = ?', q.assignee);
  const now = Date.now();
  const em = deps.orm.em.fork();
  const view = (r: any) => {
    const task = taskView(r);
    return { ...task, overdueSeconds: Math.max(0, Math.floor((now - Date.parse(task.dueDate!)) / 1000)) };
  };
  // By assignee: a count over that person's tasks. Otherwise the backlog's overdue (counters),
  // less the few overdue tasks of suspended instances, instead of counting every overdue task.
  if (q.assignee) return paged(em, 'tasks', where, 'x.due_date, x.id', q, view);
  const total = async () => {
    const { sql, params } = backlogSql(principal, q);
    const suspended = new Where()
      .add('x.tenant_id = ?', principal.tenantId)
      .add(WORK)
      .add('x.due_date < now()')
      .add(`i.status = 'suspended'`)
      .add('i.tenant_id = ?', principal.tenantId);
    if (q.processKey) suspended.add('x.process_key = ?', q.processKey);
    const [row] = await em.execute<Array<{ n: string }>>(
      `select (select coalesce(sum(b.overdue), 0) from (${sql}) b)
         - (select count(*) from instances i join tasks x on x.instance_id = i.id ${suspended}) as n`,
      [...params, ...suspended.params],
    );
    return Number(row?.n ?? 0);
  };
  return pagedBy(
    em,
    total,
    {
      sql: `select * from tasks x ${where} order by x.due_date, x.id limit ? offset ?`,
      params: [...where.params, q.pageSize, (q.page - 1) * q.pageSize],
    },
    q,
    view,
  );
}

export interface BacklogRow {
  processKey: string;
  processName: string;
  open: number;
  unclaimed: number;
  overdue: number;
  oldestAgeSeconds: number;
}

/** Start of today (UTC): open tasks due before it are counted by day in open_task_counts. */
const TODAY = `(date_trunc('day', now() at time zone 'UTC') at time zone 'UTC')`;

/**
 * Per process: open work from the maintained counters (open_task_counts, Migration20261124000800),
 * overdue = whole past due days from the counters + today's part from the `tasks_open_due` index,
 * the oldest task's age and the newest one's name by one step each of `tasks_open_by_process`.
 * A few rows per process instead of every open task of the tenant.
 */
function backlogSql(principal: Principal, q: { processKey?: string }) {
  const params: unknown[] = [principal.tenantId];
  const byKey = q.processKey ? 'and process_key = ?' : '';
  if (q.processKey) params.push(q.processKey);
  params.push(principal.tenantId);
  if (q.processKey) params.push(q.processKey);
  const open = (t: string) => `${t}.tenant_id = c.tenant_id and ${t}.process_key = c.process_key
        and ${t}.status in ('pending', 'active') and ${t}.kind <> 'delay' and not ${t}.deleted`;
  const sql = `select c.process_key, c.open, c.unclaimed, c.overdue_days + coalesce(d.n, 0) as overdue,
      floor(extract(epoch from now() - (select min(p.create_time) from tasks p where ${open('p')}))) as oldest,
      (select p.process_name from tasks p where ${open('p')} order by p.create_time desc limit 1) as process_name
    from (select tenant_id, process_key, sum(n) as open, coalesce(sum(n) filter (where status = 'pending'), 0) as unclaimed,
        coalesce(sum(n) filter (where due_day < (now() at time zone 'UTC')::date), 0) as overdue_days
      from open_task_counts where tenant_id = ? ${byKey} group by tenant_id, process_key having sum(n) > 0) c
    left join (select x.process_key, count(*) as n from tasks x where x.tenant_id = ? ${byKey.replace('process_key', 'x.process_key')}
        and ${WORK} and x.due_date >= ${TODAY} and x.due_date < now() group by x.process_key) d on d.process_key = c.process_key`;
  return { sql, params };
}

const backlogView = (r: any): BacklogRow => ({
  processKey: r.process_key,
  processName: r.process_name,
  open: Number(r.open),
  unclaimed: Number(r.unclaimed),
  overdue: Number(r.overdue),
  oldestAgeSeconds: Math.max(0, Number(r.oldest)),
});

async function backlogRows(deps: AppDeps, principal: Principal, q: { processKey?: string }) {
  const { sql, params } = backlogSql(principal, q);
  const rows = await deps.orm.em.fork().execute(`${sql} order by c.open desc, c.process_key`, params);
  return rows.map(backlogView);
}

/** Open work per process: how much, how much unclaimed and overdue, and how old the oldest is. */
export async function backlog(deps: AppDeps, principal: Principal, q: ProcessKeyQuery): Promise<Page<BacklogRow>> {
  const em = deps.orm.em.fork();
  const { sql, params } = backlogSql(principal, q);
  // One scan: the page carries the number of groups; past the last page, count apart.
  const rows = await em.execute(
    `select b.*, count(*) over () as groups from (${sql}) b order by b.open desc, b.process_key limit ? offset ?`,
    [...params, q.pageSize, (q.page - 1) * q.pageSize],
  );
  const total = rows.length
    ? Number(rows[0].groups)
    : Number((await em.execute<Array<{ n: string }>>(`select count(*) as n from (${sql}) b`, params))[0].n);
  return { items: rows.map(backlogView), total, page: q.page, pageSize: q.pageSize };
}
