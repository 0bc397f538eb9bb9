// The approver's toolbox on the server side: the checks that need the directory or the read
// model before an Update is sent, and the parts that live in PostgreSQL only (comments,
// candidate and variable listings, deleting closed tasks).
import { createHash, randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { UpdateDefinition } from '@temporalio/common';
import { AppError, referenceError, type ReferenceProblem } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import type { Page, PageOpts } from '../paging.js';
import type { ActionResult } from '../../workflows/engine/types.js';
import * as m from '../../workflows/messages.js';
import { actorOf, runUpdate } from '../temporal/engine-client.js';
import { holds, Permissions } from '../permissions.js';
import { findInstanceRow, findTaskRow, isParticipant } from '../read-model/read-model.js';
import { getTask, taskAction } from './tasks.js';
import { attachToTask, commentFiles, type AttachmentRef } from '../attachments/attachments.js';

/** What a client sends with a task action (the actor and task id are the server's). */
export type BodyOf<A extends m.TaskRef> = Omit<A, 'actor' | 'taskId'>;
export type TaskUpdate<A extends m.TaskRef> = UpdateDefinition<ActionResult, [A]>;

const OPEN = ['pending', 'active', 'waiting', 'suspended'];
const iso = (v: unknown) => new Date(v as string).toISOString();
const privileged = (p: Principal) =>
  holds(p.permissions, Permissions.ADMIN, Permissions.INSTANCE_MANAGE, Permissions.MONITOR);

/** The users of `ids` (the body field `field`) the tenant does not have, and those deactivated. */
async function userProblems(em: EntityManager, tenantId: string, field: string, ids: string[]) {
  const missing: ReferenceProblem[] = [];
  const inactive: ReferenceProblem[] = [];
  if (!ids.length) return { missing, inactive };
  const rows = await em.execute<Array<{ id: string; active: boolean }>>(
    `select id, active from users where tenant_id = ? and id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
    [tenantId, JSON.stringify(ids)],
  );
  ids.forEach((id, i) => {
    const row = rows.find((r) => r.id === id);
    const path = ids.length === 1 && !field.endsWith('s') ? field : `${field}.${i}`;
    if (!row) missing.push({ path, message: `no user ${id}` });
    else if (!row.active) inactive.push({ path, message: `user ${id} is deactivated` });
  });
  return { missing, inactive };
}

/** 404 when a named user does not exist, 409 when one is deactivated (docs/http.md). */
async function requireUsers(em: EntityManager, tenantId: string, field: string, ids: string[]) {
  const { missing, inactive } = await userProblems(em, tenantId, field, ids);
  const err = referenceError(missing, inactive);
  if (err) throw err;
}

/** Every user, role and department named must exist in the tenant (404), the users active (409). */
async function requireDirectoryRefs(
  em: EntityManager,
  tenantId: string,
  refs: { userIds?: string[]; roleIds?: string[]; deptIds?: string[] },
) {
  const { missing, inactive } = await userProblems(em, tenantId, 'userIds', refs.userIds ?? []);
  for (const [table, column, ids, what, field] of [
    ['roles', 'code', refs.roleIds ?? [], 'role', 'roleIds'],
    ['departments', 'id', refs.deptIds ?? [], 'department', 'deptIds'],
  ] as const) {
    if (!ids.length) continue;
    const rows = await em.execute<Array<{ v: string }>>(
      `select ${column} as v from ${table} where tenant_id = ? and ${column} = any(array(select jsonb_array_elements_text(?::jsonb)))`,
      [tenantId, JSON.stringify(ids)],
    );
    ids.forEach((id, i) => {
      if (!rows.some((r) => r.v === id)) missing.push({ path: `${field}.${i}`, message: `no ${what} ${id}` });
    });
  }
  const err = referenceError(missing, inactive);
  if (err) throw err;
}

/** A task action whose body names people: they must exist before the workflow hears of them. */
export async function actWithPeople<A extends m.HandoverInput | m.AddSignInput>(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  def: TaskUpdate<A>,
  body: BodyOf<A>,
  idempotencyKey?: string,
) {
  const em = deps.orm.em.fork();
  const named = body as BodyOf<m.HandoverInput> | BodyOf<m.AddSignInput>;
  if ('assigneeUserIds' in named) await requireUsers(em, principal.tenantId, 'assigneeUserIds', named.assigneeUserIds);
  else await requireUsers(em, principal.tenantId, 'assigneeUserId', [named.assigneeUserId]);
  return taskAction(deps, principal, taskId, def, body, idempotencyKey);
}

/** Reassign (workflow:admin); the system comment also lands in the task's comments. */
export async function reassign(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  body: BodyOf<m.HandoverInput>,
  idempotencyKey?: string,
) {
  const before = await getTask(deps, principal, taskId);
  const result = await actWithPeople(deps, principal, taskId, m.reassign, body, idempotencyKey);
  const text = `Reassigned by ${principal.userId} from ${before.assignee ?? 'the candidate pool'} to ${body.assigneeUserId}${body.reason ? `: ${body.reason}` : ''}`;
  const id = idempotencyKey ? stableId('reassign', principal, taskId, idempotencyKey) : randomUUID();
  await deps.orm.em
    .fork()
    .execute(
      `insert into task_comments (id, tenant_id, task_id, instance_id, user_id, comment, time) values (?, ?, ?, ?, 'system', ?, now()) on conflict (id) do nothing`,
      [id, principal.tenantId, taskId, before.instance_id, text],
    );
  return result;
}

/** Candidates add (workflow:admin) and remove (workflow:admin or the initiator). */
export async function changeCandidates(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  change: 'add' | 'remove',
  body: BodyOf<m.CandidatesInput>,
  idempotencyKey?: string,
) {
  if (change === 'add') await requireDirectoryRefs(deps.orm.em.fork(), principal.tenantId, body);
  return taskAction(
    deps,
    principal,
    taskId,
    change === 'add' ? m.addCandidates : m.removeCandidates,
    body,
    idempotencyKey,
  );
}

// ---------- candidates ----------

export async function listCandidates(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  opts: PageOpts,
): Promise<Page<{ type: 'user' | 'role' | 'dept'; id: string; name: string | null }>> {
  const em = deps.orm.em.fork();
  const row = await getTask(deps, principal, taskId);
  const c = (row.candidates ?? {}) as { userIds?: string[]; roleIds?: string[]; deptIds?: string[] };
  const entries = [
    ...(c.userIds ?? []).map((id) => ({ type: 'user' as const, id })),
    ...(c.roleIds ?? []).map((id) => ({ type: 'role' as const, id })),
    ...(c.deptIds ?? []).map((id) => ({ type: 'dept' as const, id })),
  ];
  const slice = entries.slice((opts.page - 1) * opts.pageSize, opts.page * opts.pageSize);
  const names = new Map<string, string>();
  const lookup = async (type: string, sql: string, ids: string[]) => {
    if (!ids.length) return;
    const rows = await em.execute<Array<{ id: string; name: string }>>(sql, [principal.tenantId, JSON.stringify(ids)]);
    for (const r of rows) names.set(`${type}:${r.id}`, r.name);
  };
  const idsOf = (type: string) => slice.filter((e) => e.type === type).map((e) => e.id);
  const inList = `= any(array(select jsonb_array_elements_text(?::jsonb)))`;
  await lookup(
    'user',
    `select id, display_name as name from users where tenant_id = ? and id ${inList}`,
    idsOf('user'),
  );
  await lookup('role', `select code as id, name from roles where tenant_id = ? and code ${inList}`, idsOf('role'));
  await lookup('dept', `select id, name from departments where tenant_id = ? and id ${inList}`, idsOf('dept'));
  return {
    items: slice.map((e) => ({ ...e, name: names.get(`${e.type}:${e.id}`) ?? null })),
    total: entries.length,
    page: opts.page,
    pageSize: opts.pageSize,
  };
}

// ---------- variables ----------

/** Task variables; fields the node hides are left out for approvers (not for admins and monitors). */
export async function listTaskVariables(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
): Promise<Record<string, unknown>> {
  const row = await getTask(deps, principal, taskId);
  const vars = { ...((row.variables ?? {}) as Record<string, unknown>) };
  const perms = (row.form_permissions ?? {}) as Record<string, string>;
  if (!privileged(principal)) for (const [name, p] of Object.entries(perms)) if (p === 'h') delete vars[name];
  return vars;
}

export async function writeTaskVariables(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  change: { set?: Record<string, unknown>; delete?: string[] },
  idempotencyKey?: string,
) {
  if (change.delete) {
    const row = await getTask(deps, principal, taskId);
    if (row.archived) throw new AppError('INVALID_STATE', 'The instance of this task has ended');
    const actor = actorOf(principal);
    await runUpdate(
      deps,
      principal.tenantId,
      row.instance_id,
      m.deleteTaskVariables,
      { actor, taskId, names: change.delete },
      idempotencyKey,
    );
  } else {
    await taskAction(deps, principal, taskId, m.setTaskVariables, { variables: change.set ?? {} }, idempotencyKey);
  }
  return listTaskVariables(deps, principal, taskId);
}

// ---------- comments ----------

function commentView(r: any, attachments: AttachmentRef[] = []) {
  return {
    id: r.id as string,
    taskId: r.task_id as string,
    instanceId: r.instance_id as string,
    userId: r.user_id as string,
    comment: r.comment as string,
    time: iso(r.time),
    attachments,
  };
}
export type CommentView = ReturnType<typeof commentView>;

function stableId(kind: string, principal: Principal, taskId: string, key: string) {
  const h = createHash('sha256')
    .update(`${kind}\n${principal.tenantId}\n${principal.userId}\n${taskId}\n${key}`)
    .digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export async function listComments(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  opts: PageOpts,
): Promise<Page<CommentView>> {
  const em = deps.orm.em.fork();
  await getTask(deps, principal, taskId);
  const [{ count }] = await em.execute<Array<{ count: string }>>(
    `select count(*) from task_comments where tenant_id = ? and task_id = ?`,
    [principal.tenantId, taskId],
  );
  const rows = await em.execute(
    `select * from task_comments where tenant_id = ? and task_id = ? order by time, id limit ? offset ?`,
    [principal.tenantId, taskId, opts.pageSize, (opts.page - 1) * opts.pageSize],
  );
  const files = await commentFiles(
    em,
    principal.tenantId,
    rows.map((r: any) => r.id as string),
  );
  return {
    items: rows.map((r: any) => commentView(r, files.get(r.id) ?? [])),
    total: Number(count),
    page: opts.page,
    pageSize: opts.pageSize,
  };
}

/** A participant comments, unless the node's designer switch `addComment` is false. */
export async function addComment(
  deps: AppDeps,
  principal: Principal,
  taskId: string,
  comment: string,
  idempotencyKey?: string,
  attachmentIds: string[] = [],
): Promise<CommentView> {
  const em = deps.orm.em.fork();
  const row = await getTask(deps, principal, taskId);
  const actor = actorOf(principal);
  if (!(await isParticipant(em, principal.tenantId, row.instance_id, actor)))
    throw new AppError('FORBIDDEN', 'Only participants of the instance may comment');
  const instance = await findInstanceRow(em, principal.tenantId, row.instance_id);
  const defs = await em.execute<Array<{ sw: Record<string, unknown> | null }>>(
    `select dsl->'ruleChain'->'additionalInfo'->'actionPermissions' as sw from process_definitions where id = ?`,
    [instance.definition_id],
  );
  const nodeSwitches = (row.action_permissions ?? {}) as Record<string, unknown>;
  if (nodeSwitches.addComment === false || defs[0]?.sw?.addComment === false) {
    throw new AppError(
      'ACTION_DISABLED',
      `The process designer disabled "addComment" ${nodeSwitches.addComment === false ? 'on this node' : 'for this process'}`,
    );
  }
  const id = idempotencyKey ? stableId('comment', principal, taskId, idempotencyKey) : randomUUID();
  // The comment and its files together (a repeat with the same key finds both there already).
  const refs = await em.transactional(async (tx) => {
    await tx.execute(
      `insert into task_comments (id, tenant_id, task_id, instance_id, user_id, comment, time) values (?, ?, ?, ?, ?, ?, now()) on conflict (id) do nothing`,
      [id, principal.tenantId, taskId, row.instance_id, principal.userId, comment],
    );
    const files = await attachToTask(tx, deps.config, principal, attachmentIds, {
      source: 'comment',
      instanceId: row.instance_id,
      taskId,
      commentId: id,
    });
    return files.refs;
  });
  const rows = await em.execute(`select * from task_comments where id = ?`, [id]);
  return commentView(rows[0], refs);
}

// ---------- delete ----------

/** workflow:admin; a closed task disappears from every view (its trail entries stay). */
export async function deleteTask(deps: AppDeps, principal: Principal, taskId: string) {
  const em = deps.orm.em.fork();
  const row = await findTaskRow(em, principal.tenantId, taskId);
  if (OPEN.includes(row.status))
    throw new AppError('INVALID_STATE', `The task is ${row.status}: only closed tasks can be deleted`);
  for (const table of ['tasks', 'tasks_archive']) {
    await em.execute(
      `update ${table} set deleted = true where tenant_id = ? and id = ? and status <> all(array['pending','active','waiting','suspended'])`,
      [principal.tenantId, taskId],
    );
  }
  return { id: taskId, deleted: true as const };
}
