// Where the worker's workflow code comes from: a prebuilt bundle in production, the sources in dev,
// bundled in a worker thread.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker as Thread } from 'node:worker_threads';
import type { WorkerOptions } from '@temporalio/worker';
import type { Config } from '../config.js';
import type { Logger } from '../observability/logger.js';
import { siblingThreadModule } from '../infra/thread-module.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The workflows bundled from source in a worker thread. Bundled in the worker's own thread (the
 * SDK's `workflowsPath`), webpack's modules and data stayed in its heap — about 100 MB live for
 * the worker's lifetime — and every garbage collection of the thread that also carries the
 * activities and the SDK's activations paid for it: 1.9 ms of collection per instance in that
 * thread against 0.9 after (bare Temporal's worker: 0.1), in a profiled `npm run bench`
 * (docs/performance.md, seventh session). A thread's heap goes with the thread.
 */
export function bundleInThread(logger: Logger, workflowInterceptorModules: string[] = []): Promise<string> {
  const { url, execArgv } = siblingThreadModule(import.meta.url, 'bundle-thread');
  return new Promise((resolve, reject) => {
    const thread = new Thread(url, { workerData: { workflowInterceptorModules }, ...(execArgv ? { execArgv } : {}) });
    let code: string | undefined;
    thread.on(
      'message',
      (m: { code?: string; level?: 'debug' | 'warn' | 'error'; message?: string; meta?: unknown }) => {
        if (m.code !== undefined) code = m.code;
        else if (m.level) logger[m.level]({ bundler: m.meta }, m.message ?? '');
      },
    );
    thread.on('error', reject);
    thread.on('exit', (exitCode) =>
      code !== undefined ? resolve(code) : reject(new Error(`bundling the workflows failed (exit ${exitCode})`)),
    );
  });
}

/**
 * A prebuilt bundle in production (WORKFLOW_BUNDLE_PATH or dist/workflow-bundle.js), the sources in
 * dev, bundled in a thread with the interceptors given (tracing's). With tracing on, the prebuilt
 * bundle is the one built with Temporal's OpenTelemetry workflow interceptors beside it
 * (`workflow-bundle-traced.js`, scripts/bundle-workflows.ts).
 */
export async function workflowSource(
  config: Config,
  logger: Logger,
  interceptorModules: string[] = [],
): Promise<Pick<WorkerOptions, 'workflowBundle'> & { prebuilt: string | null }> {
  const traced = interceptorModules.length > 0;
  const plain =
    config.WORKFLOW_BUNDLE_PATH ??
    (import.meta.filename.endsWith('.js') ? path.join(root, 'workflow-bundle.js') : undefined);
  const bundle = plain && traced ? plain.replace(/\.js$/, '-traced.js') : plain;
  if (bundle && existsSync(bundle)) {
    const codePath = path.resolve(bundle);
    return { workflowBundle: { codePath }, prebuilt: codePath };
  }
  if (config.WORKFLOW_BUNDLE_PATH) throw new Error(`WORKFLOW_BUNDLE_PATH points to ${bundle}, which does not exist`);
  return { workflowBundle: { code: await bundleInThread(logger, interceptorModules) }, prebuilt: null };
}
