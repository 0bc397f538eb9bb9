// Task reads and the dispatch of task actions to the instance workflow.
import type { UpdateDefinition } from '@temporalio/common';
import { AppError } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import type { ActionResult, ProjectionSnapshot } from '../../workflows/engine/types.js';
import * as m from '../../workflows/messages.js';
import type { TaskRef } from '../../workflows/messages.js';
import type { ProcessKeyQuery, TaskQuery } from '../read-model/shapes.js';
import { actorOf, runUpdate, updateIdOf } from '../temporal/engine-client.js';
import { bound } from '../db/bound.js';
import { RECORD_INTENT_SELECT } from '../read-model/projection-intents.js';
import { approversAheadFrom } from '../directory/approvers-ahead.js';
import { reasonsOf } from '../read-model/assignment-reason.js';
import { checkInstanceWrite } from '../definitions/form-values.js';
import { holds, Permissions } from '../permissions.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  ALL_INSTANCES,
  ALL_TASKS,
  Where,
  findInstanceRow,
  findTaskRow,
  isParticipant,
  pagedBy,
  poolMatch,
  TASK_VIEW_COLUMNS,
  taskView,
  paged,
  todoWhere,
} from '../read-model/read-model.js';
import { attachToTask, attachWrittenFiles, detach } from '../attachments/attachments.js';
import { WorkflowUpdateFailedError } from '@temporalio/client';

function filters(where: Where, q: TaskQuery) {
  if (q.instanceId) where.add('x.instance_id = ?', q.instanceId);
  if (q.assignee) where.add('x.assignee = ?', q.assignee);
  if (q.status)
    where.add(
      'x.status = any(array(select jsonb_array_elements_text(?::jsonb)))',
      JSON.stringify(
        q.status
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    );
  if (q.processKey) where.add('x.process_key = ?', q.processKey);
  if (q.dueBefore) where.add('x.due_date <= ?', q.dueBefore);
  if (q.dueAfter) where.add('x.due_date >= ?', q.dueAfter);
  return where;
}

const seesAll = (principal: Principal) =>
  holds(principal.permissions, Permissions.MONITOR, Permissions.INSTANCE_MANAGE, Permissions.ADMIN);

/**
 * Who sees a task without a monitor's permissions: its assignee, owner, the instance's initiator
 * and the pool's members. One condition per branch, so each can use its own index
 * (`*_assignee_time`, `*_owner_time`, `*_initiator_time`, `*_candidates_path`).
 */
function visibilityBranches(principal: Principal): Array<{ sql: string; params: unknown[] }> {
  const actor = actorOf(principal);
  const pool = poolMatch('x.candidates', actor);
  return [
    { sql: 'x.assignee = ?', params: [actor.userId] },
    { sql: 'x.owner = ?', params: [actor.userId] },
    { sql: 'x.initiator_id = ?', params: [actor.userId] },
    pool,
  ];
}

const ORDER = 'x.create_time desc, x.id';

/**
 * Tasks newest first. Monitors: the tenant's tasks (the unfiltered archive count comes from
 * tasks_archive_counts). Others: the union of the visibility branches, each ordered and cut at
 * page × pageSize before the merge, so no branch reads more than the page needs; the total
 * counts the union of the branches' ids (each an index scan).
 */
export async function listTasks(deps: AppDeps, principal: Principal, q: TaskQuery, from: 'all' | 'archive' = 'all') {
  const em = deps.orm.em.fork();
  const where = filters(new Where().add('x.tenant_id = ?', principal.tenantId).add('not x.deleted'), q);
  const table = from === 'archive' ? `(select *, true as archived from tasks_archive)` : ALL_TASKS;
  const limit = [q.pageSize, (q.page - 1) * q.pageSize];
  if (seesAll(principal)) {
    const unfiltered = where.parts.length === 2;
    const count = unfiltered
      ? async () => {
          const [row] = await em.execute<Array<{ n: string }>>(
            `select coalesce((select n from tasks_archive_counts where tenant_id = ?), 0)${from === 'all' ? ' + (select count(*) from tasks x where x.tenant_id = ? and not x.deleted)' : ''} as n`,
            from === 'all' ? [principal.tenantId, principal.tenantId] : [principal.tenantId],
          );
          return Number(row?.n ?? 0);
        }
      : { sql: `select count(*) from ${table} x ${where}`, params: where.params };
    return pagedBy(
      em,
      count,
      {
        sql: `select * from ${table} x ${where} order by ${ORDER} limit ? offset ?`,
        params: [...where.params, ...limit],
      },
      q,
      taskView,
    );
  }
  const branches = visibilityBranches(principal);
  const cut = q.page * q.pageSize;
  const ids = (withLimit: boolean) =>
    branches
      .map(
        (b) =>
          `(select x.id, x.create_time from ${table} x ${where} and ${b.sql}${withLimit ? ` order by ${ORDER} limit ${cut}` : ''})`,
      )
      .join(' union ');
  const idParams = branches.flatMap((b) => [...where.params, ...b.params]);
  return pagedBy(
    em,
    { sql: `select count(*) from (${ids(false)}) v`, params: idParams },
    {
      sql: `select x.* from ${table} x where x.tenant_id = ? and x.id in (select v.id from (${ids(true)}) v order by v.create_time desc, v.id limit ? offset ?) order by ${ORDER}`,
      params: [principal.tenantId, ...idParams, ...limit],
    },
    q,
    taskView,
  );
}

/** A task the caller may see (404 otherwise, also for other tenants). */
export async function getTask(deps: AppDeps, principal: Principal, id: string, opts: { archivedOnly?: boolean } = {}) {
  const em = deps.orm.em.fork();
  const row = await findTaskRow(em, principal.tenantId, id);
  if (opts.archivedOnly && !row.archived) throw new AppError('NOT_FOUND', `No historical task ${id}`);
  if (!seesAll(principal)) {
    const actor = actorOf(principal);
    if (!(await isParticipant(em, principal.tenantId, row.instance_id, actor)))
      throw new AppError('NOT_FOUND', `No task ${id}`);
  }
  return row;
}

const RESULT_OF: Record<string, string> = { approve: 'approved', reject: 'rejected', complete: 'completed' };

/**
 * A keyed decision repeated after its instance ended (the first answer was lost: a server or
 * PostgreSQL died after the workflow recorded it): the workflow that remembered the answer is
 * closed, so the task's row answers — when it shows exactly this decision by this caller, the
 * repeat answers as the first did; anything else stays refused.
 */
async function repeatedDecision(deps: AppDeps, principal: Principal, taskId: string, action: string) {
  const result = RESULT_OF[action];
  if (!result) return null;
  const found = await getTask(deps, principal, taskId);
  return found.archived && found.result === result && found.assignee === principal.userId
    ? { ...found, repeated: true }
    : null;
}

/** The Updates that decide a task: they may open the next step, so they carry its approvers (approvers-ahead.ts). */
const DECISIONS = new Set<string>([m.approve.name, m.reject.name, m.complete.name]);

/**
 * Sends one task action to the instance's workflow; answers the task and instance after it. One
 * PostgreSQL round trip before the Update (the task, with the Update's write-ahead intent in the
 * same statement) and none after it but the write of the answered state: the answer's state has
 * the task as the action left it (docs/performance.md).
 */
export async function taskAction<A extends TaskRef>(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  def: UpdateDefinition<ActionResult, [A]>,
  body: Omit<A, 'actor' | 'taskId'>,
  idempotencyKey?: string,
) {
  const em = deps.orm.em.fork();
  const actor = actorOf(principal);
  // approversAhead is the server's to set (below), never the caller's.
  const arg = { ...body, actor, taskId, approversAhead: undefined } as A;
  const updateId = updateIdOf(def as never, arg, idempotencyKey);
  const decision = DECISIONS.has(def.name);
  const row = await actionableTask(deps, em, principal, taskId, updateId, decision).catch(async (err) => {
    const repeat = idempotencyKey && err instanceof AppError && err.type === 'INVALID_STATE';
    const done = repeat ? await repeatedDecision(deps, principal, taskId, def.name) : null;
    if (!done) throw err;
    return done;
  });
  if (row.repeated) {
    const instance = await findInstanceRow(em, principal.tenantId, row.instance_id);
    return { task: taskView(row), instance: { id: row.instance_id as string, status: instance.status as string } };
  }
  const intentRecorded = row.intent_recorded === true;
  if (decision) {
    const ahead = await approversAheadFrom(row.approvers_ahead, row.approvers_directory ?? null);
    if (ahead) arg.approversAhead = ahead;
  }
  let written: ProjectionSnapshot | null = null;
  let result: ActionResult;
  // Files named by the body are attached before the Update and given back if it is refused.
  let attached: string[] = [];
  const fileIds = (body as { attachments?: string[] }).attachments;
  delete arg.attachments;
  try {
    if (fileIds?.length) {
      const files = await attachToTask(em, deps.config, principal, fileIds, {
        source: 'action',
        instanceId: row.instance_id,
        taskId,
      });
      arg.attachments = files.refs;
      attached = files.bound;
    }
    const variables = (body as { variables?: unknown }).variables;
    if (variables && typeof variables === 'object' && !Array.isArray(variables) && Object.keys(variables).length) {
      const instance = await findInstanceRow(em, principal.tenantId, row.instance_id);
      await checkInstanceWrite(em, principal.tenantId, instance, variables as Record<string, unknown>);
      attached.push(...(await attachWrittenFiles(em, principal, instance, variables as Record<string, unknown>)));
    }
    result = await runUpdate(deps, principal.tenantId, row.instance_id, def, arg, idempotencyKey, {
      updateId,
      intentRecorded,
      seen: (state) => (written = state),
    });
  } catch (err) {
    // Refused (before the Update was sent, or its instance has ended): the intent has nothing to wait for.
    if (err instanceof AppError && intentRecorded) await deps.intents.drop(updateId).catch(() => {});
    // A refusal changed nothing: the files are the uploader's again. (An outcome not known — a
    // timeout — keeps them attached: the action may have happened, and its trail names them.)
    if (err instanceof AppError || err instanceof WorkflowUpdateFailedError)
      await detach(em, principal.tenantId, attached).catch(() => {});
    throw err;
  }
  const answer = taskAfter(row, written, taskId) ?? (await readTaskAfter(em, principal.tenantId, taskId, row));
  return {
    task: taskView(answer.task),
    instance: { id: row.instance_id as string, status: written ? result.instanceStatus : answer.instanceStatus },
    ...(result.removed ? { removed: result.removed, kept: result.kept } : {}),
  };
}

/**
 * The task row as the answered state left it: the row read before, with the fields the state
 * carries, and an assignment reason from the state's trail when it has a newer one. Null when
 * there is no state (an older run, or a repeated answer).
 */
function taskAfter(row: any, state: ProjectionSnapshot | null, taskId: string) {
  if (!state) return null;
  const t = state.tasks.find((x) => x.id === taskId);
  if (!t) return { task: row, instanceStatus: state.instance.status };
  // The projection's own rule: the newest reason in the state's trail, unless the row has a newer one.
  const newer = reasonsOf(state).get(taskId);
  const reason =
    newer && newer.seq > Number(row.assignment_reason?.seq ?? -1) ? JSON.parse(newer.reason) : row.assignment_reason;
  return {
    task: {
      ...row,
      activity_id: t.activityId,
      name: t.name,
      kind: t.kind,
      assignee: t.assignee,
      candidates: t.candidates,
      status: t.status,
      result: t.result,
      parent_task_id: t.parentTaskId,
      owner: t.owner,
      due_date: t.dueDate,
      create_time: t.createTime,
      end_time: t.endTime,
      comment: t.comment,
      assignment_reason: reason,
    },
    instanceStatus: state.instance.status,
  };
}

/** The task and its instance after the action, in one read (either may have moved to the archive). */
async function readTaskAfter(em: EntityManager, tenantId: string, taskId: string, row: any) {
  const [after] = await em.execute(
    `select t.*, i.status as instance_status from ${ALL_TASKS} t join ${ALL_INSTANCES} i on i.id = t.instance_id where t.tenant_id = ? and t.id = ? and not t.deleted`,
    [tenantId, taskId],
  );
  return {
    task: after ?? row,
    instanceStatus: after
      ? (after.instance_status as string)
      : ((await findInstanceRow(em, tenantId, row.instance_id)).status as string),
  };
}

/**
 * The open task an action is for: read from the runtime table only, and without the
 * participant query when the row itself names the caller (assignee, owner, initiator, pool
 * member). A task not there is looked up as getTask does, so the answers stay the same:
 * 404 for what the caller may not see, 409 for a task whose instance has ended.
 */
async function actionableTask(
  deps: AppDeps,
  em: EntityManager,
  principal: Principal,
  taskId: string,
  updateId: string,
  decision: boolean,
) {
  // The Update's write-ahead intent rides on the look-up (nothing is inserted for no task). A named
  // statement: its plan (a key look-up) is kept, and its columns are listed so that a migration
  // adding one cannot change its result under a running server (src/db/prepared.ts). A decision
  // also reads the instance's approver inputs ahead and the directory rows they ask for
  // (src/directory/approvers-ahead.ts).
  const [row] = await bound<any>(
    em,
    `with t as (select ${TASK_VIEW_COLUMNS}, x.tenant_id, false as archived from tasks x
                where x.tenant_id = ? and x.id = ? and not x.deleted),
       wi as (${RECORD_INTENT_SELECT} from t on conflict (update_id) do nothing),
       ah as (select i.approvers_ahead as inputs from instances i where ?::boolean and i.id = (select instance_id from t))
     select t.*, true as intent_recorded, (select inputs from ah) as approvers_ahead,
       (select approver_directory(t.tenant_id, inputs) from ah) as approvers_directory
     from t`,
    [principal.tenantId, taskId, updateId, decision],
    { prepare: true },
  );
  if (!row) {
    const found = await getTask(deps, principal, taskId);
    if (found.archived) throw new AppError('INVALID_STATE', 'The instance of this task has ended');
    return found;
  }
  if (seesAll(principal)) return row;
  const actor = actorOf(principal);
  const c = row.candidates ?? {};
  const named =
    row.assignee === actor.userId ||
    row.owner === actor.userId ||
    row.initiator_id === actor.userId ||
    (c.userIds ?? []).includes(actor.userId) ||
    (c.roleIds ?? []).some((r: string) => actor.roles.includes(r)) ||
    (c.deptIds ?? []).includes(actor.deptId ?? '');
  if (!named && !(await isParticipant(em, principal.tenantId, row.instance_id, actor))) {
    await deps.intents.drop(updateId).catch(() => {});
    throw new AppError('NOT_FOUND', `No task ${taskId}`);
  }
  return row;
}

// ---------- the caller's lists (GET /process-instances/todo, /done) ----------

/** The to-do and done lists' filters beyond the process (GET …/todo?q=&initiator=&dueBefore=&dueAfter=). */
export interface MyTaskFilters {
  q?: string;
  initiator?: string;
  dueBefore?: string;
  dueAfter?: string;
}

function myTaskFilters(where: Where, q: ProcessKeyQuery & MyTaskFilters) {
  if (q.processKey) where.add('x.process_key = ?', q.processKey);
  if (q.q?.trim()) where.add(`x.business_key ilike ?`, `%${q.q.trim().replace(/[\\%_]/g, '\\$&')}%`);
  if (q.initiator) where.add('x.initiator_id = ?', q.initiator);
  if (q.dueBefore) where.add('x.due_date <= ?', q.dueBefore);
  if (q.dueAfter) where.add('x.due_date >= ?', q.dueAfter);
  return where;
}

export async function todo(deps: AppDeps, principal: Principal, q: ProcessKeyQuery & MyTaskFilters) {
  const em = deps.orm.em.fork();
  const where = myTaskFilters(todoWhere(principal.tenantId, actorOf(principal)), q);
  return paged(em, 'tasks', where, 'x.create_time desc, x.id', q, taskView, { columns: TASK_VIEW_COLUMNS });
}

export async function done(deps: AppDeps, principal: Principal, q: ProcessKeyQuery & MyTaskFilters) {
  const em = deps.orm.em.fork();
  const where = new Where()
    .add('x.tenant_id = ?', principal.tenantId)
    .add('not x.deleted')
    .add(`x.status = 'completed'`)
    .add(`x.result in ('approved', 'rejected', 'returned', 'completed')`)
    .add('x.assignee = ?', principal.userId);
  myTaskFilters(where, q);
  return paged(em, ALL_TASKS, where, 'x.end_time desc nulls last, x.id', q, taskView);
}
