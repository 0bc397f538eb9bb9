// The read-model rows of a running instance, whole (not the changes since the last projection):
// what `npm run rebuild-read-model` writes back when the `instances`/`tasks` tables are lost.
// A query: it reads the workflow's state and changes nothing (no history events, replay-safe).
import { defineQuery, setHandler } from '@temporalio/workflow';
import type { Engine } from './engine/engine.js';
import type { ProjectionSnapshot, SweepState } from './engine/types.js';
import { inputsAheadOfOpen } from './engine/user-task/assignment.js';

/**
 * The instance row and every task of the current state, as one projection snapshot without trail,
 * cc or notifications (those are appended once, when they happen, and are not kept in the state).
 */
export const readModelState = defineQuery<ProjectionSnapshot>('readModelState');

/**
 * For the sweeper (src/read-model/projection-sweeper.ts, engine version 4): the whole state, the
 * events of the last answered states (an Update's caller may have died before writing them), and
 * the ids of the Updates this run answered — an intent whose Update is among them is settled by
 * writing this.
 */
export const sweepState = defineQuery<SweepState>('sweepState');

function wholeState(engine: Engine): ProjectionSnapshot {
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
    ahead: inputsAheadOfOpen(engine),
  };
}

export function registerReadModelQuery(engine: Engine) {
  setHandler(readModelState, () => wholeState(engine));
  setHandler(sweepState, () => ({
    ...wholeState(engine),
    trail: engine.outbox.answered.flatMap((a) => a.trail),
    cc: engine.outbox.answered.flatMap((a) => a.cc),
    notifications: engine.outbox.answered.flatMap((a) => a.notifications),
    updateIds: engine.updates.recent.map((u) => u.id),
  }));
}
