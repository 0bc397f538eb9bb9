// The Worker class the service runs its workflows with.
import { Worker, type CompiledWorkerOptions, type Logger, type WorkerOptions } from '@temporalio/worker';
import type { WorkflowBundleWithSourceMapAndFilename } from '@temporalio/worker/lib/workflow/workflow-worker-thread/input.js';

/**
 * A Worker whose workflow threads call into their V8 context without Node's `vm` timeout (the
 * SDK's `isolateExecutionTimeout`, 5 s by default). With a timeout, Node starts and joins a
 * watchdog thread for every call into the context (nodejs/node#47739), and the SDK calls in
 * several times per activation — more often the more conditions a workflow waits on: about
 * 130 µs of CPU per call against 3 µs without, 3 of the workflow thread's 15 ms per bench
 * instance (docs/performance.md, eighth session). What the timeout guards against, workflow code
 * that never yields, the interpreter bounds itself: a flow that loops without waiting fails its
 * instance once its step budget is spent (test/integration/runaway.test.ts), and expressions and
 * inputs are bounded in size. WORKFLOW_VM_TIMEOUT_MS > 0 brings the SDK's guard back (src/main/worker.ts).
 */
export class WorkerWithoutVmTimeout extends Worker {
  protected static override createWorkflowCreator(
    bundle: WorkflowBundleWithSourceMapAndFilename,
    options: CompiledWorkerOptions,
    logger: Logger,
  ) {
    // `timeout: undefined` is Node's "no watchdog"; the SDK passes this field to every call.
    return super.createWorkflowCreator(bundle, { ...options, isolateExecutionTimeoutMs: undefined as never }, logger);
  }
}

/** The service's Worker: without the per-call timeout, or the SDK's own with it when `vmTimeoutMs` > 0 (WORKFLOW_VM_TIMEOUT_MS). */
export function createWorkflowWorker(options: WorkerOptions, vmTimeoutMs = 0) {
  // The SDK honours `isolateExecutionTimeout` but leaves it out of its public type ("not exposed
  // at the moment"); test/workflow/vm-timeout-configured.test.ts sees the value reach each call.
  return vmTimeoutMs > 0
    ? Worker.create({ ...options, isolateExecutionTimeout: vmTimeoutMs } as WorkerOptions)
    : WorkerWithoutVmTimeout.create(options);
}
