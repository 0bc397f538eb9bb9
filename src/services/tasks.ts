// Task reads and the dispatch of task actions to the instance workflow.
import type { UpdateDefinition } from '@temporalio/common';
import { AppError } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import type { ActionResult } from '../../workflows/engine/types.js';
import type { TaskRef } from '../../workflows/messages.js';
import type { TaskQuery } from '../shapes.js';
import { actorOf, runUpdate } from './engine-client.js';
import { holds, Permissions } from './permissions.js';
import { ALL_TASKS, Where, findInstanceRow, findTaskRow, isParticipant, paged, taskView } from './read-model.js';

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

/** Monitors see every task of the tenant; others the tasks of instances they take part in. */
async function visibility(deps: AppDeps, principal: Principal, where: Where) {
  if (holds(principal.permissions, Permissions.MONITOR, Permissions.INSTANCE_MANAGE, Permissions.ADMIN)) return;
  const actor = actorOf(principal);
  where.add(
    `(x.assignee = ? or x.owner = ? or x.initiator_id = ? or jsonb_exists(x.candidates->'userIds', ?)
      or jsonb_exists_any(x.candidates->'roleIds', array(select jsonb_array_elements_text(?::jsonb))) or jsonb_exists(x.candidates->'deptIds', coalesce(?, '')))`,
    actor.userId,
    actor.userId,
    actor.userId,
    actor.userId,
    JSON.stringify(actor.roles),
    actor.deptId,
  );
}

export async function listTasks(deps: AppDeps, principal: Principal, q: TaskQuery, from: 'all' | 'archive' = 'all') {
  const where = filters(new Where().add('x.tenant_id = ?', principal.tenantId).add('not x.deleted'), q);
  await visibility(deps, principal, where);
  const table = from === 'archive' ? `(select *, true as archived from tasks_archive)` : ALL_TASKS;
  return paged(deps.orm.em.fork(), table, where, 'x.create_time desc, x.id', q, taskView);
}

/** A task the caller may see (404 otherwise, also for other tenants). */
export async function getTask(deps: AppDeps, principal: Principal, id: string, opts: { archivedOnly?: boolean } = {}) {
  const em = deps.orm.em.fork();
  const row = await findTaskRow(em, principal.tenantId, id);
  if (opts.archivedOnly && !row.archived) throw new AppError('NOT_FOUND', `No historical task ${id}`);
  if (!holds(principal.permissions, Permissions.MONITOR, Permissions.INSTANCE_MANAGE, Permissions.ADMIN)) {
    const actor = actorOf(principal);
    if (!(await isParticipant(em, principal.tenantId, row.instance_id, actor)))
      throw new AppError('NOT_FOUND', `No task ${id}`);
  }
  return row;
}

/** Sends one task action to the instance's workflow; answers the task and instance after it. */
export async function taskAction<A extends TaskRef>(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  def: UpdateDefinition<ActionResult, [A]>,
  body: Omit<A, 'actor' | 'taskId'>,
  idempotencyKey?: string,
) {
  const em = deps.orm.em.fork();
  const row = await getTask(deps, principal, taskId);
  if (row.archived) throw new AppError('INVALID_STATE', 'The instance of this task has ended');
  const actor = actorOf(principal);
  const result = await runUpdate(
    deps.temporal,
    principal.tenantId,
    row.instance_id,
    def,
    { ...body, actor, taskId } as A,
    idempotencyKey,
  );
  const after = await findTaskRow(em, principal.tenantId, taskId).catch(() => row);
  const instance = await findInstanceRow(em, principal.tenantId, row.instance_id);
  return {
    task: taskView(after),
    instance: { id: instance.id as string, status: instance.status as string },
    ...(result.removed ? { removed: result.removed, kept: result.kept } : {}),
  };
}
