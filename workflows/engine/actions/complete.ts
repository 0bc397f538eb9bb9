// Complete: the assignee finishes a handle or resubmit task, or an admin ends a delay early.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { onUpdate } from '../handlers.js';
import { fault, findTask, requireActionable, requireRunning, requireSwitch } from '../guards.js';
import { settle } from './settle.js';
import { applyDecision } from './decision.js';

export function registerComplete(engine: Engine) {
  onUpdate(
    engine,
    m.complete,
    (input) => {
      const task = engine.tasks[input.taskId];
      if (task.kind === 'delay') {
        engine.closeTask(task, 'completed', input.comment ?? 'Ended early by an admin');
        engine.trail('complete', {
          activityId: task.activityId,
          taskId: task.id,
          userId: input.actor.userId,
          comment: input.comment ?? null,
          detail: { delay: 'ended early' },
        });
      } else applyDecision(engine, input, 'approve');
      return settle(engine, input.taskId);
    },
    {
      validator: (input) => {
        const task = findTask(engine, input.taskId);
        if (task.kind === 'delay') {
          requireRunning(engine);
          if (!input.actor.admin) fault('FORBIDDEN', 'Only an admin (workflow:admin) may end a delay early');
          if (!engine.isOpen(task)) fault('INVALID_STATE', 'The delay has ended');
          return;
        }
        requireActionable(engine, input);
        if (task.kind === 'approval') fault('INVALID_STATE', 'An approval task is approved or rejected, not completed');
        if (task.kind === 'resubmit') requireSwitch(engine, task, 'resubmit');
      },
    },
  );
}
