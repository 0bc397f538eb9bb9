// The SDK's private modules the worker reaches into (src/main/sdk-internals.ts) are only known to
// work with the SDK version they were written for: an upgrade fails here first, with what to do.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/main/sdk-internals.js';

describe('the SDK internals the worker uses', () => {
  it('are those of the @temporalio/worker version they were written for', () => {
    expect(
      sdk.installedSdkVersion(),
      `@temporalio/worker is ${sdk.installedSdkVersion()}, src/main/sdk-internals.ts was written for ` +
        `${sdk.SDK_WRITTEN_FOR}: re-read the private modules it imports (threaded-vm, reusable-vm, vm-shared, ` +
        'workflow-worker-thread) in the new version, run test/workflow/workflow-threads.test.ts, then raise SDK_WRITTEN_FOR',
    ).toBe(sdk.SDK_WRITTEN_FOR);
  });

  it('are all there, with the shapes the worker calls', () => {
    expect(typeof sdk.ThreadedVMWorkflowCreator.create).toBe('function');
    expect(typeof sdk.WorkerThreadClient).toBe('function');
    expect(typeof sdk.ReusableVMWorkflowCreator.create).toBe('function');
    expect(typeof sdk.invokePatchActivationCallback).toBe('function');
    expect(
      typeof (sdk.globalHandlers as unknown as { overridePrepareStackTrace: unknown }).overridePrepareStackTrace,
    ).toBe('function');
    expect(typeof sdk.globalHandlers.installed).toBe('boolean');
    for (const file of Object.values(sdk.threadModules)) expect(existsSync(file), file).toBe(true);
  });
});
