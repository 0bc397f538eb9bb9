// Worker of the bare baseline (bench/baseline/workflows.ts), run as its own process by
// bench/run.ts: TEMPORAL_ADDRESS, BASELINE_TASK_QUEUE. It bundles only the baseline workflow.
import path from 'node:path';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { BareActivities } from './workflows.js';
import { WorkerWithoutVmTimeout } from '../../src/main/workflow-worker.js';

Runtime.install({ logger: new DefaultLogger('ERROR') });
const address = process.env.TEMPORAL_ADDRESS;
const taskQueue = process.env.BASELINE_TASK_QUEUE;
if (!address || !taskQueue) throw new Error('TEMPORAL_ADDRESS and BASELINE_TASK_QUEUE must be set');
const connection = await NativeConnection.connect({ address });
// BENCH_BARE_UNTIMED=1: without the SDK's per-call vm timeout, as the service's worker runs
// (src/main/workflow-worker.ts); by default bare Temporal as the SDK ships it.
const worker = await (process.env.BENCH_BARE_UNTIMED === '1' ? WorkerWithoutVmTimeout : Worker).create({
  connection,
  namespace: process.env.TEMPORAL_NAMESPACE ?? 'default',
  taskQueue,
  workflowsPath: path.join(import.meta.dirname, 'workflows.ts'),
  activities: { record: async () => undefined, lookUp: async () => undefined } satisfies BareActivities,
});
// Tells the parent that the bundle is built and polling has begun.
console.log('baseline worker ready');
await worker.run();
await connection.close();
