// Urge: the initiator (or a monitor) reminds whoever holds a task, at most once per 10 minutes.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { fault, refuse, requireLive, requireSwitch } from '../guards.js';
import { defineTaskAction } from './settle.js';
import { handlersOf, trailOf } from './common.js';

export const URGE_INTERVAL_MS = 10 * 60_000;

export function registerUrge(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  taskAction(
    m.urge,
    (input) => {
      const task = requireLive(engine, input);
      if (task.status === 'waiting') fault('INVALID_STATE', "It is not this task's turn yet: nobody to urge");
      if (input.actor.userId !== engine.info.initiatorId && !input.actor.monitor)
        fault('NOT_INITIATOR', 'Only the initiator (or workflow:monitor) may urge');
      requireSwitch(engine, null, 'urge');
      const last = engine.lastUrge[task.id];
      if (last && Date.parse(engine.now()) - Date.parse(last) < URGE_INTERVAL_MS) {
        const retryAfter = Math.ceil((Date.parse(last) + URGE_INTERVAL_MS - Date.parse(engine.now())) / 1000);
        refuse('RATE_LIMITED', `This task was urged at ${last}: at most once per 10 minutes`, {
          retryAfterSeconds: retryAfter,
        });
      }
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      engine.lastUrge[task.id] = engine.now();
      const who = handlersOf(task);
      for (const userId of who)
        engine.notify(userId, 'urge', task.id, {
          activityId: task.activityId,
          name: task.name,
          by: input.actor.userId,
          message: input.message ?? null,
        });
      engine.trail(
        'urge',
        trailOf(task, input.actor, input.message, {
          notified: who,
          candidates: task.assignee ? null : task.candidates,
        }),
      );
    },
  );
}
