// AddCandidates and removeCandidates (twins): change who may claim a pending pool task.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { fault, requireAdmin, requireLive } from '../guards.js';
import type { Candidates } from '../types.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

export function registerCandidates(engine: Engine) {
  const taskAction = defineTaskAction(engine);

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
      requireAdmin(input.actor);
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
}
