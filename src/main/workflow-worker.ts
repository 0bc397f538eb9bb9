// The Worker class the service runs its workflows with: three defaults of the SDK that cost the
// interpreter more than they give it are off unless configured (docs/runtime.md, Worker sizing).
import { Worker as Thread } from 'node:worker_threads';
import { Worker, type CompiledWorkerOptions, type Logger, type WorkerOptions } from '@temporalio/worker';
import {
  globalHandlers,
  invokePatchActivationCallback,
  ReusableVMWorkflowCreator,
  threadModules,
  ThreadedVMWorkflowCreator,
  WorkerThreadClient,
  type ThreadedVMWorkflowCreatorOptions,
  type WorkflowBundleWithSourceMapAndFilename,
} from './sdk-internals.js';

export interface WorkflowWorkerSettings {
  /**
   * WORKFLOW_VM_TIMEOUT_MS. 0: calls into a workflow's V8 context carry no timeout. With one (the
   * SDK's `isolateExecutionTimeout`, 5 s by default), Node starts and joins a watchdog thread for
   * every call into the context (nodejs/node#47739), and the SDK calls in several times per
   * activation — more often the more conditions a workflow waits on: about 130 µs of CPU per call
   * against 3 µs without (docs/performance.md, eighth session). What the timeout guards against,
   * workflow code that never yields, the interpreter bounds itself: a flow that loops without
   * waiting fails its instance once its step budget is spent (test/integration/runaway.test.ts).
   */
  vmTimeoutMs?: number;
  /**
   * WORKFLOW_STACK_TRACES. Off: the workflow threads run without the SDK's promise hook, which
   * captures, formats and source-maps a stack for every promise a workflow creates so that the
   * Web UI's Stack Trace tab can answer. The interpreter creates some fifty promises per action,
   * and the hook was 44 % of its workflow thread (docs/performance.md, ninth session). The Stack
   * Trace tab then says stack traces are not enabled; where an instance waits, in words, is its
   * Current Details (docs/operations-ui.md). Errors thrown in workflow code keep source-mapped
   * stacks. Debug mode (workflows run in the calling thread) keeps the SDK's hook.
   */
  stackTraces?: boolean;
  /**
   * WORKFLOW_THREADS. 0 (the default): workflow code runs on the worker's main thread, in one
   * reused V8 context as in the SDK's threads. The SDK's default is one thread beside the main
   * one, and every activation then crosses between the two (a structured clone and a message each
   * way, and the thread's wake-up): about 2 ms of CPU per instance of the bench's three-step
   * approval (docs/performance.md, thirteenth session). What the main thread trades: while an
   * activation runs, the activities' JavaScript waits (polling is the core's, on threads of its own).
   * n ≥ 1: n workflow threads, for a worker given more cores than one process uses otherwise.
   * Stack traces on always run in threads: their promise hook would track every promise of the process.
   */
  threads?: number;
}

/**
 * What a workflow thread runs first without stack traces: the SDK's handlers marked installed
 * with only the stack formatter set, so the creator's `install()` leaves the promise hook out
 * (and tells each workflow that stack traces are off); then the SDK's own thread module.
 */
const threadWithoutPromiseHook = `
  const { globalHandlers } = require(${JSON.stringify(threadModules.vmShared)});
  globalHandlers.overridePrepareStackTrace();
  globalHandlers.installed = true;
  require(${JSON.stringify(threadModules.workflowWorkerThread)});
`;

/** The SDK's threaded creator (ThreadedVMWorkflowCreator.create), its threads started by `threadWithoutPromiseHook`. */
class ThreadsWithoutStackTraces extends ThreadedVMWorkflowCreator {
  static override async create(options: ThreadedVMWorkflowCreatorOptions): Promise<ThreadedVMWorkflowCreator> {
    const clients = Array.from(
      { length: options.threadPoolSize },
      () =>
        new WorkerThreadClient(
          new Thread(threadWithoutPromiseHook, { eval: true }),
          options.logger,
          options.patchActivationCallback,
        ),
    );
    await Promise.all(
      clients.map((client) =>
        client.send({
          type: 'init',
          workflowBundle: options.workflowBundle,
          isolateExecutionTimeoutMs: options.isolateExecutionTimeoutMs,
          reuseV8Context: options.reuseV8Context,
          registeredActivityNames: options.registeredActivityNames,
          hasPatchActivationCallback: options.patchActivationCallback !== undefined,
        }),
      ),
    );
    return new this(clients);
  }
}

/** The workflow bundles run on this thread: their errors' stacks go to the SDK's formatter. */
const bundlesHere = new Set<string>();

/**
 * Workflows on the calling thread without the SDK's promise hook: its stack formatter set (errors
 * thrown in workflow code are source-mapped) and its handlers marked installed, so the creator's
 * `install()` adds no hook and tells each workflow that stack traces are off. The formatter is the
 * process's: errors with no frame in a bundle keep the formatter they had.
 */
async function onThisThread(
  bundle: WorkflowBundleWithSourceMapAndFilename,
  timeoutMs: number | undefined,
  compiled: CompiledWorkerOptions,
) {
  if (!globalHandlers.installed) {
    const before = Error.prepareStackTrace as typeof Error.prepareStackTrace | undefined;
    // Private in the SDK's types; the workflow threads call it the same way (threadWithoutPromiseHook).
    (globalHandlers as unknown as { overridePrepareStackTrace(): void }).overridePrepareStackTrace();
    const mapped = Error.prepareStackTrace!;
    Error.prepareStackTrace = (err, frames) =>
      before && !frames.some((f) => bundlesHere.has(f.getFileName() ?? '')) ? before(err, frames) : mapped(err, frames);
    globalHandlers.installed = true;
  }
  bundlesHere.add(bundle.filename);
  const callback = compiled.patchActivationCallback;
  return ReusableVMWorkflowCreator.create(
    bundle,
    timeoutMs as number,
    new Set(compiled.activities.keys()),
    callback && ((info, patchId) => invokePatchActivationCallback(callback, info, patchId)),
  );
}

/** The service's Worker (src/main/worker.ts, and the workflow tests' harness). */
export function createWorkflowWorker(options: WorkerOptions, settings: WorkflowWorkerSettings = {}) {
  const { vmTimeoutMs = 0, stackTraces = false, threads = 0 } = settings;
  class ServiceWorker extends Worker {
    protected static override async createWorkflowCreator(
      bundle: WorkflowBundleWithSourceMapAndFilename,
      compiled: CompiledWorkerOptions,
      logger: Logger,
    ) {
      // `isolateExecutionTimeoutMs: undefined` is Node's "no watchdog"; the SDK passes this field to every call.
      const timed = vmTimeoutMs > 0 ? compiled : { ...compiled, isolateExecutionTimeoutMs: undefined as never };
      if (stackTraces || compiled.debugMode) return super.createWorkflowCreator(bundle, timed, logger);
      if (threads === 0) return onThisThread(bundle, timed.isolateExecutionTimeoutMs, compiled);
      // As the SDK's own (Worker.createWorkflowCreator), with the threads above.
      const { patchActivationCallback } = compiled;
      return ThreadsWithoutStackTraces.create({
        workflowBundle: bundle,
        threadPoolSize: threads,
        isolateExecutionTimeoutMs: timed.isolateExecutionTimeoutMs,
        reuseV8Context: compiled.reuseV8Context ?? true,
        registeredActivityNames: new Set(compiled.activities.keys()),
        logger,
        patchActivationCallback,
      });
    }
  }
  // The SDK honours `isolateExecutionTimeout` but leaves it out of its public type ("not exposed
  // at the moment"); test/workflow/vm-timeout-configured.test.ts sees the value reach each call.
  // The SDK's own creator (stack traces on) runs as many threads as asked, at least one.
  const sized = { ...options, workflowThreadPoolSize: Math.max(1, threads) };
  return ServiceWorker.create(
    vmTimeoutMs > 0 ? ({ ...sized, isolateExecutionTimeout: vmTimeoutMs } as WorkerOptions) : sized,
  );
}
