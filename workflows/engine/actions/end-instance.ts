// Terminate and completeInstance (twins, registered in one loop): a manager ends the instance.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { ending } from '../../../dsl/ending.js';
import { onUpdate } from '../handlers.js';
import { fault } from '../guards.js';
import { settle } from './settle.js';

export function registerInstanceEndings(engine: Engine) {
  const endings = [
    [m.terminate, 'terminated', 'terminate', 'end.terminated'],
    [m.completeInstance, 'completed', 'complete', 'end.completed'],
  ] as const;
  for (const [def, status, type, code] of endings) {
    onUpdate(
      engine,
      def as typeof m.terminate,
      (input) => {
        if (engine.ended) return settle(engine, null);
        engine.trail(type, { userId: input.actor.userId, comment: input.reason ?? null });
        engine.end(status, ending(code, { reason: input.reason || null }));
        return settle(engine, null);
      },
      {
        validator: (input) => {
          if (!input.actor.manage) fault('FORBIDDEN', 'Permission required: workflow:instance:manage');
        },
      },
    );
  }
}
