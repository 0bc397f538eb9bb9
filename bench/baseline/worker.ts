// Worker of the bare baseline (bench/baseline/workflows.ts), run as its own process by
// bench/run.ts: TEMPORAL_ADDRESS, BASELINE_TASK_QUEUE. It bundles only the baseline workflow.
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { BareActivities, BareChainActivities } from './workflows.js';
import { createWorkflowWorker } from '../../src/main/workflow-worker.js';

Runtime.install({ logger: new DefaultLogger('ERROR') });
const address = process.env.TEMPORAL_ADDRESS;
const taskQueue = process.env.BASELINE_TASK_QUEUE;
if (!address || !taskQueue) throw new Error('TEMPORAL_ADDRESS and BASELINE_TASK_QUEUE must be set');
const connection = await NativeConnection.connect({ address });
// By default bare Temporal as the SDK ships it. BENCH_BARE_UNTIMED=1: without the SDK's per-call
// vm timeout, BENCH_BARE_UNTRACED=1: without its stack tracking, BENCH_BARE_MAIN_THREAD=1: workflow
// code on the worker's main thread (with UNTRACED; stack tracking keeps the SDK's thread), as the
// service's worker runs (src/main/workflow-worker.ts); all three: like for like.
const untimed = process.env.BENCH_BARE_UNTIMED === '1';
const untraced = process.env.BENCH_BARE_UNTRACED === '1';
const mainThread = process.env.BENCH_BARE_MAIN_THREAD === '1';
const create = (options: WorkerOptions) =>
  untimed || untraced || mainThread
    ? createWorkflowWorker(options, {
        vmTimeoutMs: untimed ? 0 : 5_000 /* the SDK's default */,
        stackTraces: !untraced,
        threads: mainThread ? 0 : 1 /* the SDK's default */,
      })
    : Worker.create(options);
// The chain phase's five steps (bench/chains.ts): the same work as the service's chain nodes.
const chainSteps = {
  chainFilter: async (data) => Number(data.amount) > 0,
  chainTransform: async (data) => ({ ...data, total: Number(data.amount) * 1.2, tag: 'bench' }),
  chainSwitch: async (data) => (Number(data.total) > 1000 ? 'large' : 'small'),
  chainPost: async (url, data) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(data),
    });
    return (await res.json()) as Record<string, unknown>;
  },
  chainLog: async (data) => `out: ${JSON.stringify(data)}`,
} satisfies BareChainActivities;
const worker = await create({
  connection,
  namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
  taskQueue,
  workflowsPath: path.join(import.meta.dirname, 'workflows.ts'),
  activities: {
    ...({ record: async () => undefined, lookUp: async () => undefined } satisfies BareActivities),
    ...chainSteps,
  },
});
// Tells the parent that the bundle is built and polling has begun.
console.log('baseline worker ready');
await worker.run();
await connection.close();
