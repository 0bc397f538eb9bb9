// A tenant's own function worker (docs/service-functions.md): serves catalogue service functions
// of kind `activity` on its own task queue, apart from the service's worker. Any language with a
// Temporal SDK works the same way; this one is TypeScript.
//
//   TEMPORAL_ADDRESS=127.0.0.1:7233 TASK_QUEUE=functions node --import tsx examples/function-worker/worker.ts
//
// Register its functions with POST /api/v1/service-functions, e.g.
//   { "name": "NotificationService.sendApprovalNotification", "kind": "activity",
//     "taskQueue": "functions", "activityType": "sendApprovalNotification" }
import { ApplicationFailure } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';

/**
 * The fields of the service's call argument that these functions read (the whole argument, with
 * instanceId, nodeId and businessKey too, is in docs/service-functions.md).
 */
interface FunctionCall {
  variables: Record<string, unknown>;
  param: unknown;
  /** The same across retries and re-drives of one call: de-duplicate by it. */
  callId: string;
}

/** Effects already done, by callId: a retried call answers the first result instead of acting twice. */
const done = new Map<string, Record<string, unknown>>();
/** Attempts per callId, for the function that fails on purpose. */
const attempts = new Map<string, number>();

const objectParam = (param: unknown): Record<string, unknown> =>
  param && typeof param === 'object' && !Array.isArray(param) ? (param as Record<string, unknown>) : {};

const activities = {
  /** "Sends" the approval notification once per callId and answers variables to merge. */
  async sendApprovalNotification(call: FunctionCall): Promise<Record<string, unknown>> {
    const earlier = done.get(call.callId);
    if (earlier) return earlier;
    const to = objectParam(call.param).to ?? call.variables.initiator ?? 'unknown';
    const result = {
      notified: true,
      notifiedTo: to,
      notificationId: `n-${done.size + 1}`,
      notificationCallId: call.callId,
      servedBy: `function-worker pid ${process.pid}`,
    };
    done.set(call.callId, result);
    console.log(`sendApprovalNotification ${call.callId} → ${String(to)}`);
    return result;
  },

  /**
   * A manual review that fails its first `failTimes` attempts of a call (param `{ "failTimes": n }`),
   * counted by callId: a drill for retries, the Failure edge and re-drive.
   */
  async manualReview(call: FunctionCall): Promise<Record<string, unknown>> {
    const failTimes = Number(objectParam(call.param).failTimes ?? 0);
    const attempt = (attempts.get(call.callId) ?? 0) + 1;
    attempts.set(call.callId, attempt);
    if (attempt <= failTimes) throw ApplicationFailure.retryable(`review system unavailable (attempt ${attempt})`);
    return { reviewed: true, reviewAttempts: attempt };
  },
};

async function main() {
  const taskQueue = process.env.TASK_QUEUE ?? 'functions';
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  const worker = await Worker.create({
    connection,
    namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
    taskQueue,
    activities,
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => worker.shutdown());
  console.log(`function worker ready on task queue ${taskQueue}`);
  await worker.run();
  await connection.close();
}

await main();
