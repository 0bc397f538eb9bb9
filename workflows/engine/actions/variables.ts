// SetVariables: set and delete the instance's variables.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { said } from '../../../dsl/history.js';
import { onUpdate } from '../handlers.js';
import { requireNotEnded } from '../guards.js';
import { settle } from './settle.js';

export function registerVariables(engine: Engine) {
  onUpdate(
    engine,
    m.setVariables,
    (input) => {
      if (input.variables) Object.assign(engine.variables, input.variables);
      for (const name of input.deleteNames ?? []) delete engine.variables[name];
      engine.trail('system', {
        userId: input.actor.userId,
        ...said('variables.changed', {}),
        detail: { set: Object.keys(input.variables ?? {}), deleted: input.deleteNames ?? [] },
      });
      return settle(engine, null);
    },
    {
      validator: () => {
        requireNotEnded(engine);
      },
    },
  );
}
