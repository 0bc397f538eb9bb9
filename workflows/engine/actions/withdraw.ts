// Withdraw: the initiator ends the application, on the instance (withdraw) or through a task (withdrawTask).
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { ending } from '../../../dsl/ending.js';
import { onUpdate } from '../handlers.js';
import { findTask, requireNotEnded, requireWithdrawer } from '../guards.js';
import { defineTaskAction, settle } from './settle.js';
import { handlersOf, trailOf } from './common.js';

export function registerWithdraw(engine: Engine) {
  onUpdate(
    engine,
    m.withdraw,
    (input) => {
      engine.trail('withdraw', { userId: input.actor.userId, comment: input.reason ?? null });
      engine.end('terminated', ending('end.withdrawn', {}), 'withdrawn');
      return settle(engine, null);
    },
    {
      validator: (input) => {
        requireNotEnded(engine);
        requireWithdrawer(engine, input.actor);
      },
    },
  );
}

export function registerWithdrawTask(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  taskAction(
    m.withdrawTask,
    (input) => {
      findTask(engine, input.taskId);
      requireNotEnded(engine);
      requireWithdrawer(engine, input.actor);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const notified = new Set(engine.openTasks().flatMap(handlersOf));
      notified.delete(input.actor.userId);
      for (const userId of notified) engine.notify(userId, 'instance_withdrawn', null, { by: input.actor.userId });
      engine.trail('withdraw', trailOf(task, input.actor, input.reason, { via: 'task' }));
      engine.end('terminated', ending('end.withdrawn', {}), 'withdrawn');
    },
  );
}
