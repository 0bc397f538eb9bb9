// Claim and unclaim (twins): a candidate takes a pool task, and gives it back.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { fault, findTask, isCandidate, requireRunning } from '../guards.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

export function registerClaim(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  taskAction(
    m.claim,
    (input) => {
      requireRunning(engine);
      const task = findTask(engine, input.taskId);
      if (task.status !== 'pending') {
        fault(
          'INVALID_STATE',
          task.status === 'active' && task.assignee
            ? `The task is already claimed by ${task.assignee}`
            : `The task is ${task.status}: only a pending task can be claimed`,
        );
      }
      if (!isCandidate(task.candidates, input.actor))
        fault('NOT_ASSIGNEE', 'Only a candidate of this task may claim it');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.assignee = input.actor.userId;
      task.claimedBy = input.actor.userId;
      task.status = 'active';
      engine.changed(task);
      engine.trail('claim', trailOf(task, input.actor));
    },
  );

  taskAction(
    m.unclaim,
    (input) => {
      requireRunning(engine);
      const task = findTask(engine, input.taskId);
      if (task.status !== 'active')
        fault('INVALID_STATE', `The task is ${task.status}: only a claimed (active) task can be unclaimed`);
      if (task.claimedBy !== input.actor.userId || task.assignee !== input.actor.userId)
        fault('NOT_ASSIGNEE', 'Only the member who claimed the task may unclaim it');
      if (task.owner) fault('INVALID_STATE', 'The task is delegated: resolve the delegation first');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.assignee = null;
      task.claimedBy = null;
      task.status = 'pending';
      engine.changed(task);
      engine.trail('unclaim', trailOf(task, input.actor));
      for (const userId of task.candidates.userIds)
        if (userId !== input.actor.userId)
          engine.notify(userId, 'task_claimable', task.id, { activityId: task.activityId, name: task.name });
    },
  );
}
