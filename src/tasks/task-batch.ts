// Batch decisions (docs/task-actions.md, "Batch decisions"): one approve or reject per task, each
// its own Update with its own rules, run a few at a time; the answer lists every task's outcome.
import * as m from '../../workflows/messages.js';
import type { AppDeps, Principal } from '../context.js';
import { ErrorCodes, type AppError } from '../errors.js';
import { taskAction } from './tasks.js';
import { mapBounded } from '../infra/map-bounded.js';

// Still exported from here: the batch's unit tests check its bound.
export { mapBounded };

/** Updates in flight at once for one batch: enough to overlap the round trips, few enough not to crowd the instances' workers. */
export const BATCH_CONCURRENCY = 8;

export type Decision = 'approve' | 'reject';

export interface BatchItem {
  taskId: string;
  ok: boolean;
  code: number;
  message: string;
  task: { id: string; status: string } | null;
  instance: { id: string; status: string } | null;
}

/**
 * Decides each task as the single-task route would (same lookup, same Update, same refusals).
 * With a scoped Idempotency-Key every task's Update id is derived from it and the task id, so a
 * retry of the batch sends the same Updates and no decision happens twice. `explain` turns a
 * thrown error into the envelope's code and message (null: a bug, reported as 50000 and logged).
 */
export async function decideTasks(
  deps: AppDeps,
  principal: Principal,
  decision: Decision,
  taskIds: string[],
  comment: string | undefined,
  scopedKey: string | undefined,
  explain: (err: unknown) => AppError | null,
) {
  const def = decision === 'approve' ? m.approve : m.reject;
  const body = comment === undefined ? {} : { comment };
  const results = await mapBounded(taskIds, BATCH_CONCURRENCY, async (taskId): Promise<BatchItem> => {
    try {
      const r = await taskAction(deps, principal, taskId, def, body, scopedKey && `${scopedKey}:${taskId}`);
      return {
        taskId,
        ok: true,
        code: 0,
        message: 'OK',
        task: { id: r.task.id, status: r.task.status },
        instance: r.instance,
      };
    } catch (err) {
      const known = explain(err);
      if (!known) deps.logger.error({ err, taskId, decision }, 'batch decision failed');
      const e = known ?? ErrorCodes.INTERNAL;
      return { taskId, ok: false, code: e.code, message: e.message, task: null, instance: null };
    }
  });
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}
