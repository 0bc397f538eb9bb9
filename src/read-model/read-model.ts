// Queries over the read model. Every list merges the runtime and archive tables.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type PageOpts } from '../paging.js';
import type { Instance, Task, TrailEntry } from './shapes.js';
import type { InstanceStatus, TaskKind, TaskStatus } from '../../workflows/engine/types.js';
import { assignmentReasonOf } from './assignment-reason.js';
import { bound } from '../db/bound.js';

export const ALL_INSTANCES = `(select * from instances union all select * from instances_archive)`;
export const ALL_TASKS = `(select *, false as archived from tasks union all select *, true as archived from tasks_archive)`;

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

export function instanceView(r: any): Instance {
  return {
    id: r.id as string,
    processKey: r.process_key as string,
    processVersion: r.process_version as number | null,
    definitionId: r.definition_id as string,
    processName: r.process_name as string,
    businessKey: r.business_key as string | null,
    status: r.status as InstanceStatus,
    initiatorId: r.initiator_id as string,
    variables: (r.variables ?? {}) as Record<string, unknown>,
    currentNodes: (r.current_nodes ?? []) as string[],
    startTime: iso(r.start_time)!,
    endTime: iso(r.end_time),
    endReason: r.end_reason as string | null,
    endCode: (r.end_code ?? null) as string | null,
    endParams: (r.end_params ?? null) as Record<string, unknown> | null,
    failure: failureOf(r.status, r.detail),
  };
}

/** A failed instance's detail, as the Instance answers it (the /stuck row carries the same). */
export function failureOf(status: unknown, detail: any): Instance['failure'] {
  if (status !== 'failed') return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    reason: text(detail?.reason) ?? 'failed (no reason recorded)',
    failedNode: text(detail?.failedNode),
    nodeType: text(detail?.nodeType),
    at: timeOf(detail?.at),
  };
}

function timeOf(v: unknown): string | null {
  if (typeof v !== 'string' && typeof v !== 'number') return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** The process an instance runs, as a task or cc row carries it (joined from the instance). */
export function processFields(r: any) {
  return {
    processKey: r.process_key as string,
    processName: r.process_name as string,
    businessKey: r.business_key as string | null,
    initiatorId: r.initiator_id as string,
  };
}

/** The columns taskView reads (not a task's variables or permissions). */
export const TASK_VIEW_COLUMNS = [
  'id',
  'instance_id',
  'process_key',
  'process_name',
  'business_key',
  'initiator_id',
  'activity_id',
  'name',
  'kind',
  'assignee',
  'candidates',
  'status',
  'result',
  'parent_task_id',
  'owner',
  'due_date',
  'create_time',
  'end_time',
  'comment',
  'assignment_reason',
]
  .map((c) => `x.${c}`)
  .join(', ');

export function taskView(r: any): Task {
  return {
    id: r.id as string,
    instanceId: r.instance_id as string,
    ...processFields(r),
    activityId: r.activity_id as string,
    name: r.name as string,
    kind: r.kind as TaskKind,
    assignee: r.assignee as string | null,
    candidates: r.candidates as Task['candidates'],
    status: r.status as TaskStatus,
    result: r.result as string | null,
    parentTaskId: r.parent_task_id as string | null,
    owner: r.owner as string | null,
    dueDate: iso(r.due_date),
    createTime: iso(r.create_time)!,
    endTime: iso(r.end_time),
    comment: r.comment as string | null,
    assignmentReason: assignmentReasonOf(r.assignment_reason, r.owner as string | null),
  };
}

export function trailView(r: any): TrailEntry {
  return {
    id: r.id as string,
    type: r.type as string,
    activityId: r.activity_id as string | null,
    taskId: r.task_id as string | null,
    userId: r.user_id as string | null,
    comment: r.comment as string | null,
    time: iso(r.time)!,
    detail: (r.detail ?? null) as Record<string, unknown> | null,
    code: (r.code ?? null) as string | null,
    params: (r.params ?? null) as Record<string, unknown> | null,
  };
}

/** Builds `where` clauses and their parameters side by side. */
export class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];
  add(sql: string, ...params: unknown[]) {
    this.parts.push(sql);
    this.params.push(...params);
    return this;
  }
  toString() {
    return this.parts.length ? `where ${this.parts.join(' and ')}` : '';
  }
}

/** The limits a first page is read with (src/paging.ts caps the page size at the last). */
const FIRST_PAGE_LIMITS = [DEFAULT_PAGE_SIZE, 50, 100, MAX_PAGE_SIZE];

/**
 * `hot`: for the to-do list, read before every decision. Its page selects only the columns the task
 * view reads (not each task's form variables), with its values bound rather than inlined, and its
 * first page is read before the count, which is sent only when that page is full (see pagedBy).
 * That first page — the to-do list as the console and clients read it — is a prepared statement
 * with its limit written into the text: with the limit and offset as parameters PostgreSQL
 * estimated its generic plan above the custom ones and planned it on every call (0.35 ms, three
 * times its execution). The written limit is one of a few (the page size rounded up, the extra rows
 * dropped) and later pages stay unnamed, so a client varying sizes and offsets cannot make each
 * connection keep a plan for each.
 */
export async function paged<T>(
  em: EntityManager,
  from: string,
  where: Where,
  order: string,
  opts: PageOpts,
  view: (r: any) => T,
  hot?: { columns: string },
): Promise<Page<T>> {
  return pagedBy(
    em,
    { sql: `select count(*) from ${from} x ${where}`, params: where.params },
    hot && opts.page === 1
      ? {
          sql: `select ${hot.columns} from ${from} x ${where} order by ${order} limit ${FIRST_PAGE_LIMITS.find((n) => n >= opts.pageSize) ?? MAX_PAGE_SIZE}`,
          params: where.params,
          bind: 'prepared' as const,
          take: opts.pageSize,
        }
      : {
          sql: `select ${hot?.columns ?? '*'} from ${from} x ${where} order by ${order} limit ? offset ?`,
          params: [...where.params, opts.pageSize, (opts.page - 1) * opts.pageSize],
          bind: hot !== undefined,
        },
    opts,
    view,
    { countOnlyWhenFull: hot !== undefined },
  );
}

/**
 * A page from its own count and page statements (each answering `count` / the rows), run side by
 * side. With `countOnlyWhenFull` the first page is read alone: when it is not full it holds
 * everything, so its length is the total and the count is never sent. That saves a statement when
 * the list fits a page and costs a round trip when it does not, so only the to-do list asks for it
 * (the others, typically full, keep the two side by side).
 */
export async function pagedBy<T>(
  em: EntityManager,
  countQuery: { sql: string; params: unknown[] } | (() => Promise<number>),
  pageQuery: { sql: string; params: unknown[]; bind?: boolean | 'prepared'; take?: number },
  opts: PageOpts,
  view: (r: any) => T,
  { countOnlyWhenFull = false } = {},
): Promise<Page<T>> {
  const rowsOf = () =>
    pageQuery.bind
      ? bound(em, pageQuery.sql, pageQuery.params, { prepare: pageQuery.bind === 'prepared' }).then((rows) =>
          rows.slice(0, pageQuery.take),
        )
      : em.execute(pageQuery.sql, pageQuery.params);
  const total = () =>
    typeof countQuery === 'function'
      ? countQuery()
      : em.execute<Array<{ count: string }>>(countQuery.sql, countQuery.params).then((r) => Number(r[0]?.count ?? 0));
  const page = (rows: any[], count: number) => ({
    items: rows.map(view),
    total: count,
    page: opts.page,
    pageSize: opts.pageSize,
  });
  if (countOnlyWhenFull && opts.page === 1) {
    const rows = await rowsOf();
    return page(rows, rows.length < opts.pageSize ? rows.length : await total());
  }
  const [count, rows] = await Promise.all([total(), rowsOf()]);
  return page(rows, count);
}

/**
 * Pool membership of `col` (a task's candidates) as containment tests, one per user id, role and
 * department, OR'ed — the same answer as jsonb_exists on each array, but able to use the
 * `*_candidates_path` GIN indexes. A null department matches `""` as before.
 */
export function poolMatch(
  col: string,
  user: { userId: string; roles: string[]; deptId: string | null },
): { sql: string; params: string[] } {
  const tests = [
    JSON.stringify({ userIds: [user.userId] }),
    ...user.roles.map((r) => JSON.stringify({ roleIds: [r] })),
    JSON.stringify({ deptIds: [user.deptId ?? ''] }),
  ];
  return { sql: `(${tests.map(() => `${col} @> ?::jsonb`).join(' or ')})`, params: tests };
}

export async function findInstanceRow(em: EntityManager, tenantId: string, id: string): Promise<any> {
  const rows = await em.execute(
    `select *, false as archived from instances where tenant_id = ? and id = ? union all select *, true from instances_archive where tenant_id = ? and id = ?`,
    [tenantId, id, tenantId, id],
  );
  if (!rows[0]) throw new AppError('NOT_FOUND', `No instance ${id}`);
  return rows[0];
}

/**
 * Definitions by id, kept in this process. A published definition's DSL and form never change
 * (only drafts are edited, and a definition with instances cannot be deleted), and instances
 * only run published ones, so entries need no invalidation; drafts are not kept. Bounded: the
 * oldest entry leaves when full.
 */
const definitions = new Map<string, { dsl: any; form: any }>();
const DEFINITION_CACHE_SIZE = 256;

/** The DSL snapshot and form an instance runs (null when its definition was deleted). */
export async function definitionOf(
  em: EntityManager,
  row: { definition_id: string },
): Promise<{ dsl: any; form: any } | null> {
  const cached = definitions.get(row.definition_id);
  if (cached) return cached;
  const rows = await em.execute<Array<{ dsl: any; form: any; status: string }>>(
    `select dsl, form, status from process_definitions where id = ?`,
    [row.definition_id],
  );
  if (!rows[0]) return null;
  const def = { dsl: rows[0].dsl, form: rows[0].form };
  if (rows[0].status !== 'draft') {
    if (definitions.size >= DEFINITION_CACHE_SIZE) definitions.delete(definitions.keys().next().value!);
    definitions.set(row.definition_id, def);
  }
  return def;
}

export async function findTaskRow(em: EntityManager, tenantId: string, id: string): Promise<any> {
  const rows = await em.execute(`select * from ${ALL_TASKS} t where tenant_id = ? and id = ? and not deleted`, [
    tenantId,
    id,
  ]);
  if (!rows[0]) throw new AppError('NOT_FOUND', `No task ${id}`);
  return rows[0];
}

/**
 * "Is the user a participant of the instance `instanceId`" (an SQL expression, or a literal id
 * placeholder): initiator, holders (past or present) of a task or pool place, people copied,
 * anyone in the trail.
 */
export function participantSql(
  tenantId: string,
  instanceId: string | { column: string },
  user: { userId: string; roles: string[]; deptId: string | null },
): { sql: string; params: unknown[] } {
  const id = typeof instanceId === 'string' ? '?' : instanceId.column;
  // Each branch: its table's tenant and instance, then its own tests, with the parameters beside them.
  const scope = typeof instanceId === 'string' ? [tenantId, instanceId] : [tenantId];
  const branches: Array<[sql: string, params: unknown[]]> = [
    [`select 1 from ${ALL_INSTANCES} i where i.tenant_id = ? and i.id = ${id} and i.initiator_id = ?`, [user.userId]],
    [
      `select 1 from ${ALL_TASKS} t where t.tenant_id = ? and t.instance_id = ${id} and (
       t.assignee = ? or t.owner = ? or jsonb_exists(t.candidates->'userIds', ?)
       or jsonb_exists_any(t.candidates->'roleIds', array(select jsonb_array_elements_text(?::jsonb))) or jsonb_exists(t.candidates->'deptIds', coalesce(?, '')))`,
      [user.userId, user.userId, user.userId, JSON.stringify(user.roles), user.deptId],
    ],
    [`select 1 from cc_records c where c.tenant_id = ? and c.instance_id = ${id} and c.user_id = ?`, [user.userId]],
    [`select 1 from trail e where e.tenant_id = ? and e.instance_id = ${id} and e.user_id = ?`, [user.userId]],
  ];
  return {
    sql: branches.map(([sql]) => sql).join('\n     union all '),
    params: branches.flatMap(([, params]) => [...scope, ...params]),
  };
}

/** Initiator, holders (past or present) of a task or pool place, people copied. */
export async function isParticipant(
  em: EntityManager,
  tenantId: string,
  instanceId: string,
  user: { userId: string; roles: string[]; deptId: string | null },
): Promise<boolean> {
  const { sql, params } = participantSql(tenantId, instanceId, user);
  const rows = await em.execute(`${sql} limit 1`, params);
  return rows.length > 0;
}

/** Open tasks the user works on now, or may claim. */
export function todoWhere(tenantId: string, user: { userId: string; roles: string[]; deptId: string | null }) {
  const pool = poolMatch('x.candidates', user);
  return new Where()
    .add('x.tenant_id = ?', tenantId)
    .add('not x.deleted')
    .add(
      `((x.status = 'active' and x.assignee = ?) or (x.status = 'pending' and ${pool.sql}))`,
      user.userId,
      ...pool.params,
    );
}
