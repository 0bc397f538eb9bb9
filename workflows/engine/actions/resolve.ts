// Resolve: the delegatee or the owner ends a delegation; the task is the owner's again.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { fault, requireLive } from '../guards.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

export function registerResolve(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  taskAction(
    m.resolve,
    (input) => {
      const task = requireLive(engine, input);
      if (!task.owner) fault('INVALID_STATE', 'The task is not delegated: there is nothing to resolve');
      if (input.actor.userId !== task.assignee && input.actor.userId !== task.owner)
        fault('NOT_ASSIGNEE', 'Only the delegatee or the owner may resolve a delegation');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const delegatee = task.assignee!;
      const owner = task.owner!;
      task.assignee = owner;
      task.owner = null;
      task.status = 'active';
      engine.changed(task);
      engine.trail(
        'resolve',
        trailOf(task, input.actor, null, {
          owner,
          delegatee,
          by: input.actor.userId === owner ? 'owner' : 'delegatee',
        }),
      );
      engine.notify(input.actor.userId === owner ? delegatee : owner, 'task_resolved', task.id, {
        activityId: task.activityId,
        owner,
        delegatee,
      });
    },
  );
}
