// The read-model rows of a running instance, whole (not the changes since the last projection):
// what `npm run rebuild-read-model` writes back when the `instances`/`tasks` tables are lost.
// A query: it reads the workflow's state and changes nothing (no history events, replay-safe).
import { defineQuery, setHandler } from '@temporalio/workflow';
import type { Engine } from './engine/engine.js';
import type { ProjectionSnapshot } from './engine/types.js';

/**
 * The instance row and every task of the current state, as one projection snapshot without trail,
 * cc or notifications (those are appended once, when they happen, and are not kept in the state).
 */
export const readModelState = defineQuery<ProjectionSnapshot>('readModelState');

export function registerReadModelQuery(engine: Engine) {
  setHandler(readModelState, () => {
    const tasks = Object.values(engine.tasks);
    return {
      seq: engine.seq,
      instance: engine.instanceRow(),
      tasks,
      ...engine.permissionsOf(tasks),
      trail: [],
      cc: [],
      notifications: [],
      ended: engine.ended,
    };
  });
}
