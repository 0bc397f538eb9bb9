// Every private module of the Temporal SDK the service reaches into, in one place: the workflow
// creators that run workflow code without the SDK's promise hook or on the worker's main thread
// (workflow-worker.ts). The SDK offers no public option for either. These paths and shapes are the
// SDK's own business: test/unit/sdk-internals.test.ts fails with a clear message when the
// installed @temporalio/worker is not the version they were written for, so an upgrade re-reads
// them before it lands.
import { createRequire } from 'node:module';

export {
  ThreadedVMWorkflowCreator,
  WorkerThreadClient,
  type ThreadedVMWorkflowCreatorOptions,
} from '@temporalio/worker/lib/workflow/threaded-vm.js';
export type { WorkflowBundleWithSourceMapAndFilename } from '@temporalio/worker/lib/workflow/workflow-worker-thread/input.js';
export { ReusableVMWorkflowCreator } from '@temporalio/worker/lib/workflow/reusable-vm.js';
export { invokePatchActivationCallback } from '@temporalio/worker/lib/workflow/patch-activation-callback.js';
export { globalHandlers } from '@temporalio/worker/lib/workflow/vm-shared.js';

/** The @temporalio/worker version this module was written for. */
export const SDK_WRITTEN_FOR = '1.24.0';

const require = createRequire(import.meta.url);

/** The installed @temporalio/worker version. */
export const installedSdkVersion = (): string =>
  (require('@temporalio/worker/package.json') as { version: string }).version;

/** Files a workflow thread loads by path (a thread is started from source text, not by import). */
export const threadModules = {
  vmShared: require.resolve('@temporalio/worker/lib/workflow/vm-shared.js'),
  workflowWorkerThread: require.resolve('@temporalio/worker/lib/workflow/workflow-worker-thread.js'),
};
