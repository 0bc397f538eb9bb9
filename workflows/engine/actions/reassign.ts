// Reassign: an admin gives an active or pending task to another user.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { said } from '../../../dsl/history.js';
import { fault, requireAdmin, requireLive, requireTarget } from '../guards.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

export function registerReassign(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  taskAction(
    m.reassign,
    (input) => {
      requireAdmin(input.actor);
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
}
