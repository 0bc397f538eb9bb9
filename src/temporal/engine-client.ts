// The HTTP side's access to instance workflows: start, and Updates with idempotency.
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import {
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  ServiceError,
} from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { AppError } from '../errors.js';
import type { Config } from '../config.js';
import * as m from '../../workflows/messages.js';
import * as sa from '../../workflows/search-attributes.js';
import { staticDetailsOf, staticSummaryOf } from '../../workflows/ui-metadata.js';
import type { ActionResult, ProjectionSnapshot, StartInput } from '../../workflows/engine/types.js';
import { ENGINE_VERSION } from '../../workflows/engine/features.js';
import { startUpdateIdOf, updateIdOf as formatUpdateId } from '../../workflows/engine/update-ids.js';
import type { AppDeps, Principal } from '../context.js';
import { holds, Permissions } from '../permissions.js';
import { recordUpdate } from '../observability/metrics.js';
import { sweepState } from '../../workflows/read-model.js';

export { workflowIdOf } from '../../workflows/search-attributes.js';

/** What starting instances and sending them Updates needs: the client, where answered state goes, the intents. */
export type EngineAccess = Pick<AppDeps, 'temporal' | 'writeState' | 'intents'>;

/** What a caller may learn of the state an Update answered with, once it is written. */
export type StateSeen = (state: ProjectionSnapshot) => void;

/**
 * An answer without its state, once that state is in the read model: what the caller reads next
 * shows the action (read-your-writes). The write deletes the Update's write-ahead intent. An
 * answer without state (an older run whose projection writes it, or a repeat of an answered
 * Update after continue-as-new) leaves the intent to the sweeper, which writes from the workflow.
 */
async function answered(
  engine: EngineAccess,
  updateId: string,
  result: ActionResult,
  seen?: StateSeen,
): Promise<ActionResult> {
  const { state, ...answer } = result;
  if (state) {
    faultBeforeWrite();
    await engine.writeState(state, updateId);
    seen?.(state);
  }
  return answer;
}

/**
 * Fault injection for the crash test (test/integration/crash.test.ts): with
 * FAULT_KILL_BEFORE_STATE_WRITE naming a flag file, the server that finds the file there when an
 * Update's answer arrives removes it and dies by SIGKILL before writing the answered state — the
 * one moment the write-ahead intent and the sweeper exist for. Unset in production.
 */
function faultBeforeWrite() {
  const flag = process.env.FAULT_KILL_BEFORE_STATE_WRITE;
  if (!flag || !existsSync(flag)) return;
  rmSync(flag, { force: true });
  process.kill(process.pid, 'SIGKILL');
}

/**
 * Sends an Update whose intent is recorded, and drops the intent when the workflow refused the
 * Update (a validator or handler failure changes nothing). Anything else — a timeout, Temporal
 * unavailable — may have run it, so the intent stays for the sweeper.
 */
async function withIntent<T>(engine: EngineAccess, updateId: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError || err instanceof WorkflowNotFoundError)
      await engine.intents.drop(updateId).catch(() => {});
    throw err;
  }
}

/** The Update's round trip, answer written, into approval_update_duration_seconds by action. */
async function timed<T>(action: string, send: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const result = await send();
    recordUpdate(action, 'ok', (performance.now() - started) / 1000);
    return result;
  } catch (err) {
    recordUpdate(action, 'error', (performance.now() - started) / 1000);
    throw err;
  }
}

/** The id of an instance's start Update (update-with-start): one per instance, so a re-sent start attaches. */
export { startUpdateIdOf };

/** How an instance's workflow is started, whichever way the start then waits. */
function startOptions(config: Config, input: StartInput) {
  const { instance } = input;
  return {
    workflowId: sa.workflowIdOf(instance.tenantId, instance.id),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    // New runs take the current version; only a test recording an older version's history names one.
    args: [{ ...input, engineVersion: input.engineVersion ?? ENGINE_VERSION }] as [StartInput],
    typedSearchAttributes: [
      { key: sa.ProcessKey, value: instance.processKey },
      { key: sa.BusinessKey, value: instance.businessKey ?? '' },
      { key: sa.InstanceStatus, value: 'active' },
      { key: sa.Initiator, value: instance.initiatorId },
      { key: sa.TenantId, value: instance.tenantId },
      ...(instance.processVersion === null ? [] : [{ key: sa.ProcessVersion, value: instance.processVersion }]),
    ],
    memo: {
      processName: instance.processName,
      processVersion: instance.processVersion,
      definitionId: instance.definitionId,
    },
    // What the Web UI's list and workflow page show without opening payloads (docs/operations-ui.md).
    staticSummary: staticSummaryOf(instance),
    staticDetails: staticDetailsOf(instance),
  };
}

/** `intentRecorded`: the caller inserted the start Update's intent with the instance row; `seen` sees the first state once written. */
export async function startInstanceWorkflow(
  engine: EngineAccess,
  config: Config,
  input: StartInput,
  opts: { intentRecorded?: boolean; seen?: StateSeen } = {},
): Promise<ActionResult> {
  const { instance } = input;
  const start = new WithStartWorkflowOperation('approvalProcess', {
    ...startOptions(config, input),
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  const updateId = startUpdateIdOf(instance.id);
  if (!opts.intentRecorded) await engine.intents.record(updateId, instance.tenantId, instance.id);
  return timed('start', async () =>
    answered(
      engine,
      updateId,
      await withIntent(engine, updateId, () =>
        engine.temporal.workflow.executeUpdateWithStart(m.sync, { startWorkflowOperation: start, updateId }),
      ),
      opts.seen,
    ),
  );
}

/**
 * A start whose first state the server predicted (src/instances/first-state.ts): the workflow is
 * started without waiting for a worker, then the predicted state is written and the intent
 * dropped in one statement. A crash between the start and the write leaves the intent: the sweeper
 * writes the state from the workflow. A workflow that is there already (a resumed start) has its
 * own first state, written here from its `sweepState` when it answers (else by the sweeper); one
 * that corrected the prediction before the write has written its own.
 */
export async function startPredictedWorkflow(
  engine: EngineAccess,
  config: Config,
  first: { input: StartInput; snapshot: ProjectionSnapshot },
  opts: { intentRecorded?: boolean; seen?: StateSeen } = {},
): Promise<void> {
  const { instance } = first.input;
  const updateId = startUpdateIdOf(instance.id);
  if (!opts.intentRecorded) await engine.intents.record(updateId, instance.tenantId, instance.id);
  await timed('start', async () => {
    try {
      // FAIL, not USE_EXISTING: a workflow already there runs with other ids than this prediction.
      await engine.temporal.workflow.start('approvalProcess', {
        ...startOptions(config, first.input),
        workflowIdConflictPolicy: 'FAIL',
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      return writeFromWorkflow(engine, instance.tenantId, instance.id, updateId);
    }
    faultBeforeWrite();
    // False: the workflow corrected the prediction before this write, and its state stands.
    if ((await engine.writeState(first.snapshot, updateId, { predicted: true })) === false) return;
    opts.seen?.(first.snapshot);
  });
}

/** The whole state of a running workflow into the read model, as the sweeper writes it; left to the sweeper when it does not answer. */
async function writeFromWorkflow(engine: EngineAccess, tenantId: string, instanceId: string, updateId: string) {
  const handle = engine.temporal.workflow.getHandle(sa.workflowIdOf(tenantId, instanceId));
  try {
    const { updateIds, ...state } = await engine.temporal.withDeadline(Date.now() + 5000, () =>
      handle.query(sweepState),
    );
    await engine.writeState(state, updateIds.includes(updateId) ? updateId : undefined);
  } catch {
    // The intent stays: the sweeper asks again.
  }
}

/**
 * The id an Update is sent with. `scopedKey` is the Idempotency-Key already scoped to the caller
 * and the request and bound to its body (src/http/idempotency.ts), never the raw header: a raw
 * key would let another user's or another task's request with the same key receive this
 * request's answer instead of taking effect. Without one, every call is a new Update:
 * "approve-by-bob-<uuid>". The format is workflows/engine/update-ids.ts's, which the workflow reads.
 */
export function updateIdOf(def: UpdateDefinition<ActionResult, [never]>, arg: unknown, scopedKey?: string): string {
  const actorId = (arg as { actor?: { userId?: unknown } } | undefined)?.actor?.userId;
  return formatUpdateId(def.name, { scopedKey, actorId, unique: randomUUID() });
}

export interface UpdateOptions {
  /** The id to send with (updateIdOf), when the caller recorded its intent itself. */
  updateId?: string;
  /** The caller recorded the intent with its own look-up (one round trip for both). */
  intentRecorded?: boolean;
  /** Sees the answered state once it is written. */
  seen?: StateSeen;
}

/** Runs an Update on a live instance: intent, Update (re-sent while transient), state written, answer. */
export async function runUpdate<A>(
  engine: EngineAccess,
  tenantId: string,
  instanceId: string,
  def: UpdateDefinition<ActionResult, [A]>,
  arg: A,
  scopedKey?: string,
  opts: UpdateOptions = {},
): Promise<ActionResult> {
  const handle = engine.temporal.workflow.getHandle(sa.workflowIdOf(tenantId, instanceId));
  const updateId = opts.updateId ?? updateIdOf(def as never, arg, scopedKey);
  if (!opts.intentRecorded) await engine.intents.record(updateId, tenantId, instanceId);
  try {
    return await timed(def.name, async () =>
      answered(
        engine,
        updateId,
        await withIntent(engine, updateId, () =>
          retryUpdate(() => handle.executeUpdate(def, { args: [arg], updateId })),
        ),
        opts.seen,
      ),
    );
  } catch (err) {
    if (
      err instanceof WorkflowNotFoundError ||
      (err instanceof ServiceError && /not found|already completed/i.test(err.message))
    ) {
      throw new AppError('INVALID_STATE', 'The instance has ended');
    }
    throw err;
  }
}

/** gRPC status codes (google.rpc.Code) the retry policy looks at. */
const grpcStatus = { DEADLINE_EXCEEDED: 4, RESOURCE_EXHAUSTED: 8, UNAVAILABLE: 14 } as const;

/** How long one request may keep re-sending its Update (docs/engine.md, "Update retries"). */
export const UPDATE_RETRY_BUDGET_MS = 60_000;

/**
 * Why an Update the server did not run to completion may be sent again with the same id, or null
 * when it may not. Re-sending is safe whatever happened to the first attempt: the server keys
 * Updates by id, so an attempt that was in fact accepted or completed answers with that Update's
 * outcome instead of running it twice (and the workflow also remembers recent answers by id).
 *
 * - `aborted`: UNAVAILABLE "workflow update was aborted". With many Updates racing on one
 *   instance the server replaces the workflow task that carries them (the worker's completion of
 *   the old one fails with "Workflow task not found") and aborts every Update of the cleared
 *   registry that was not yet accepted. The client's gRPC layer retries it 10 times within about
 *   20 s; under heavy load that was exhausted and the request answered 503.
 * - `exhausted`: RESOURCE_EXHAUSTED, e.g. the server's per-workflow limit of in-flight Updates
 *   (history.maxInFlightUpdates, default 10) while 20 requests race on one task.
 * - `unprocessed`: the Update failed "because it wasn't processed by worker" (the task that
 *   carried it was lost before it ran).
 * - `deadline`: the call's deadline passed before the Update reached a stage (busy server).
 *
 * A Temporal that cannot be reached at all is none of these (its UNAVAILABLE names no Update)
 * and stays a 503 at once.
 */
export function retryableUpdateError(err: unknown): 'aborted' | 'exhausted' | 'unprocessed' | 'deadline' | null {
  if (err instanceof WorkflowUpdateFailedError) {
    // No handler yet: the Update reached a run whose first steps were still waiting (a predicted
    // start, docs/engine.md "A start that does not wait"); nothing of it ran.
    return /wasn't processed by worker|No registered handler for update/i.test(
      `${err.message} ${err.cause?.message ?? ''}`,
    )
      ? 'unprocessed'
      : null;
  }
  const cause = (err as { cause?: { code?: unknown; details?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'number' ? cause.code : undefined;
  const text = `${String(cause?.details ?? '')} ${String(cause?.message ?? '')}`;
  if (err instanceof WorkflowUpdateRPCTimeoutOrCancelledError)
    return code === grpcStatus.DEADLINE_EXCEEDED ? 'deadline' : null;
  if (!(err instanceof ServiceError)) return null;
  if (code === grpcStatus.RESOURCE_EXHAUSTED) return 'exhausted';
  if (code === grpcStatus.UNAVAILABLE && /update was aborted/i.test(text)) return 'aborted';
  return null;
}

/**
 * Sends an Update until it gets an answer (or a refusal), re-sending it with the same id while the
 * server turns it away for a transient reason (retryableUpdateError), with exponential backoff and
 * jitter, for at most `budgetMs` in total; then the last error stands (a 503).
 */
export async function retryUpdate<T>(send: () => Promise<T>, budgetMs = UPDATE_RETRY_BUDGET_MS): Promise<T> {
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      const reason = retryableUpdateError(err);
      if (!reason) throw err;
      // Nothing of an unprocessed Update ran; a few re-sends are enough (a worker that keeps losing
      // its tasks is an outage, not a race).
      if (reason === 'unprocessed' && attempt >= 3) throw err;
      const pause = Math.min(2_000, 50 * 2 ** Math.min(attempt - 1, 6)) * (0.5 + Math.random());
      if (Date.now() - started + pause > budgetMs) throw err;
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/** The caller as the workflow needs them: id, powers, roles and department for pools. */
export function actorOf(principal: Principal): m.Actor {
  return {
    userId: principal.userId,
    admin: holds(principal.permissions, Permissions.ADMIN),
    manage: holds(principal.permissions, Permissions.INSTANCE_MANAGE),
    monitor: holds(principal.permissions, Permissions.MONITOR),
    roles: principal.roles,
    deptId: principal.deptId,
  };
}
