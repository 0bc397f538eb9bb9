// How every Update answers (settle: once the instance is settled), the one-task Update factory (defineTaskAction) and the `sync` Update.
import { condition, setHandler } from '@temporalio/workflow';
import type { UpdateDefinition } from '@temporalio/common';
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { showState } from '../details.js';
import { callerWritingUpdate, counted, onUpdate } from '../handlers.js';
import { inputsAheadOfOpen } from '../user-task/assignment.js';
import type { ActionResult } from '../types.js';

/**
 * An Update's answer, once the action has run its course: no path running and none about to wake
 * (the next tasks exist, or the instance ended). Engine version 2 answers then, with the changes
 * since the last projection, which the caller writes to the read model before it answers
 * (read-your-writes without waiting for the projection activity and the workflow task after it).
 * Older runs, and any run whose roll-over is due, wait until the projection has them.
 */
export async function settle(
  engine: Engine,
  taskId: string | null,
  extra: Partial<ActionResult> = {},
): Promise<ActionResult> {
  const update = callerWritingUpdate(engine);
  // Engine version 4: the service's server writes what it is answered, so no projection follows.
  if (update) {
    await condition(() => engine.paths.quiet());
    const state = { ...engine.outbox.handOver(update.id, engine), ahead: inputsAheadOfOpen(engine) };
    showState(engine);
    return { taskId, instanceStatus: engine.status, ...extra, state };
  }
  // When a roll-over is due the answer waits for the projection after all, so the run settles
  // between Updates and can continue as new even under a stream of them.
  if (engine.features.answersWithState && !engine.rollDue()) {
    await condition(() => engine.paths.quiet());
    return { taskId, instanceStatus: engine.status, ...extra, state: engine.snapshot() };
  }
  await condition(() => engine.settled());
  return { taskId, instanceStatus: engine.status, ...extra };
}

/** An Update on one task: validate, apply, then answer once the instance is settled. */
export const defineTaskAction =
  (engine: Engine) =>
  <A extends m.TaskRef>(
    def: UpdateDefinition<ActionResult, [A]>,
    validate: (input: A) => void,
    apply: (input: A) => Partial<ActionResult> | void,
  ) =>
    onUpdate<UpdateDefinition<ActionResult, [A]>>(
      engine,
      def,
      (input) => {
        const extra = apply(input);
        return settle(engine, input.taskId, extra ?? {});
      },
      { validator: validate },
    );

/** `sync`: answers once the instance is settled, changing nothing. */
export function registerSync(engine: Engine) {
  setHandler(m.sync, () => counted(engine, () => settle(engine, null)));
}
