// Admin actions on tasks (reassign, candidates) and task variables under the node's form permissions.
import * as m from '../messages.js';
import { type Engine } from './engine.js';
import { onUpdate } from './handlers.js';
import { fault, requireActionable, settle, requireLive } from './actions.js';
import { refuse, trailOf, requireTarget, defineTaskAction } from './task-rules.js';
import type { Candidates, TaskState } from './types.js';
import { said } from '../../dsl/history.js';

// ---------- variables ----------

function requireWritable(engine: Engine, task: TaskState, names: string[]) {
  const perms = engine.node(task.activityId).additionalInfo?.formPermissions as Record<string, string> | undefined;
  const denied = names.filter((n) => perms?.[n] === 'r' || perms?.[n] === 'h');
  if (denied.length)
    refuse('FIELD_NOT_WRITABLE', `Not writable at this node: ${denied.join(', ')}`, { fields: denied });
}

export function registerAdminTaskActions(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  // admin: reassign, candidates
  taskAction(
    m.reassign,
    (input) => {
      if (!input.actor.admin) fault('FORBIDDEN', 'Permission required: workflow:admin');
      const task = requireLive(engine, input);
      if (task.status !== 'active' && task.status !== 'pending')
        fault('INVALID_STATE', `The task is ${task.status}: only an active or pending task can be reassigned`);
      requireTarget(input, task.assignee ?? '');
      if (task.kind === 'delay') fault('INVALID_STATE', 'A delay has no assignee');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const from = task.assignee;
      const to = input.assigneeUserId;
      const reason = input.reason ?? null;
      task.assignee = to;
      task.owner = null;
      task.claimedBy = null;
      engine.setStatus(task, 'active');
      const words = said('task.reassigned', { actor: input.actor.userId, from, to, reason });
      engine.trail('reassign', {
        ...trailOf(task, input.actor, words.comment, { admin: input.actor.userId, from, to, reason }),
        code: words.code,
        params: words.params,
      });
      if (from && from !== to)
        engine.notify(from, 'task_reassigned', task.id, { activityId: task.activityId, to, by: input.actor.userId });
    },
  );

  const candidateLists = (input: m.CandidatesInput) => ({
    userIds: input.userIds ?? [],
    roleIds: input.roleIds ?? [],
    deptIds: input.deptIds ?? [],
  });
  const requirePool = (input: m.CandidatesInput) => {
    const task = requireLive(engine, input);
    if (task.status !== 'pending')
      fault('INVALID_STATE', `The task is ${task.status}: candidates are changed on a pending pool only`);
    const lists = candidateLists(input);
    if (!lists.userIds.length && !lists.roleIds.length && !lists.deptIds.length)
      fault('VALIDATION_FAILED', 'Name at least one of userIds, roleIds, deptIds');
    return task;
  };

  taskAction(
    m.addCandidates,
    (input) => {
      if (!input.actor.admin) fault('FORBIDDEN', 'Permission required: workflow:admin');
      requirePool(input);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const add = candidateLists(input);
      const c = task.candidates;
      const merged: Candidates = {
        userIds: [...new Set([...c.userIds, ...add.userIds])],
        roleIds: [...new Set([...c.roleIds, ...add.roleIds])],
        deptIds: [...new Set([...c.deptIds, ...add.deptIds])],
      };
      task.candidates = merged;
      engine.changed(task);
      engine.trail('system', trailOf(task, input.actor, 'Candidates added', { action: 'candidates_add', ...add }));
      for (const userId of add.userIds)
        if (!c.userIds.includes(userId))
          engine.notify(userId, 'task_claimable', task.id, { activityId: task.activityId, name: task.name });
    },
  );

  taskAction(
    m.removeCandidates,
    (input) => {
      if (!input.actor.admin && input.actor.userId !== engine.info.initiatorId)
        fault('FORBIDDEN', 'Only workflow:admin or the initiator may remove candidates');
      const task = requirePool(input);
      const drop = candidateLists(input);
      const c = task.candidates;
      const matched =
        drop.userIds.some((u) => c.userIds.includes(u)) ||
        drop.roleIds.some((r) => c.roleIds.includes(r)) ||
        drop.deptIds.some((d) => c.deptIds.includes(d));
      if (!matched) fault('INVALID_TARGET', 'None of them is a candidate of this task');
      const left =
        c.userIds.filter((u) => !drop.userIds.includes(u)).length +
        c.roleIds.filter((r) => !drop.roleIds.includes(r)).length +
        c.deptIds.filter((d) => !drop.deptIds.includes(d)).length;
      if (left === 0) fault('INVALID_STATE', 'Removing every candidate would leave nobody to claim the task');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const drop = candidateLists(input);
      const c = task.candidates;
      task.candidates = {
        userIds: c.userIds.filter((u) => !drop.userIds.includes(u)),
        roleIds: c.roleIds.filter((r) => !drop.roleIds.includes(r)),
        deptIds: c.deptIds.filter((d) => !drop.deptIds.includes(d)),
      };
      engine.changed(task);
      engine.trail(
        'system',
        trailOf(task, input.actor, 'Candidates removed', { action: 'candidates_remove', ...drop }),
      );
      for (const userId of drop.userIds)
        if (c.userIds.includes(userId))
          engine.notify(userId, 'task_unavailable', task.id, { activityId: task.activityId });
    },
  );

  // task variables: the assignee writes the fields the node lets them write
  taskAction(
    m.setTaskVariables,
    (input) => {
      const task = requireActionable(engine, input);
      const names = Object.keys(input.variables ?? {});
      if (names.length === 0) fault('VALIDATION_FAILED', 'variables must name at least one variable');
      requireWritable(engine, task, names);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      Object.assign(task.variables, input.variables);
      engine.changed(task);
      engine.trail(
        'system',
        trailOf(task, input.actor, 'Task variables set', { taskVariables: { set: Object.keys(input.variables) } }),
      );
    },
  );

  onUpdate(
    engine,
    m.deleteTaskVariables,
    (input) => {
      const task = engine.tasks[input.taskId];
      for (const name of input.names) delete task.variables[name];
      engine.changed(task);
      engine.trail(
        'system',
        trailOf(task, input.actor, 'Task variables deleted', { taskVariables: { deleted: input.names } }),
      );
      return settle(engine, input.taskId);
    },
    {
      validator: (input) => {
        const task = requireActionable(engine, input);
        requireWritable(engine, task, input.names);
        const missing = input.names.filter((n) => !Object.hasOwn(task.variables, n));
        if (missing.length) fault('NOT_FOUND', `No task variable ${missing.join(', ')}`);
      },
    },
  );
}
