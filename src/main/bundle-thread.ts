// The body of bundleInThread (workflow-source.ts): webpack runs here, in a worker thread, and only
// the finished bundle goes back to the worker.
import { parentPort, workerData } from 'node:worker_threads';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from './workflow-bundle.js';

const { workflowInterceptorModules } = workerData as { workflowInterceptorModules: string[] };
const say = (level: string) => (message: string, meta?: unknown) => parentPort?.postMessage({ level, message, meta });
const { code } = await bundleWorkflowCode({
  ...workflowBundleOptions,
  workflowInterceptorModules,
  // webpack's statistics come at info: the worker's own line says the bundle is built.
  logger: {
    log: say('debug'),
    trace() {},
    debug() {},
    info: say('debug'),
    warn: say('warn'),
    error: say('error'),
  },
});
parentPort?.postMessage({ code });
