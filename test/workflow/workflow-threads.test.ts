// src/main/workflow-worker.ts: workflow code runs on the worker's main thread by default
// (WORKFLOW_THREADS=0) and on threads with WORKFLOW_THREADS ≥ 1. Either way an instance runs to its
// end, the stack-trace query is refused (no promise hook) and an error thrown in workflow code is
// mapped to the sources. On the main thread the SDK's stack formatter is the process's, so errors
// with no frame in the bundle must keep the formatter they had.
import { expect, it } from 'vitest';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ReusableVMWorkflowCreator, ThreadedVMWorkflowCreator } from '../../src/main/sdk-internals.js';
import { useHarness, workflowError, type Harness } from './support/harness.js';
import { linear, steps, users } from './support/dsl.js';

// Counts the process's own formatter's calls from here on (before any worker of this file exists).
const formatted = { count: 0 };
const before = Error.prepareStackTrace!;
Error.prepareStackTrace = (err, frames) => {
  formatted.count++;
  return before(err, frames);
};

const mainThread = useHarness('workflows-main-thread');
const threaded = useHarness('workflows-threads', undefined, async () => ({ threads: 1 }));

/** The Worker's creator of workflow runs (a protected field of the SDK's Worker). */
const creatorOf = (h: Harness) => (h.worker as unknown as { workflowCreator: unknown }).workflowCreator;

const oneApproval = (key: string) => linear(key, steps(users('bob')));

it('by default the worker runs workflow code on its main thread; WORKFLOW_THREADS=1 on a thread', () => {
  expect(creatorOf(mainThread)).toBeInstanceOf(ReusableVMWorkflowCreator);
  expect(creatorOf(threaded)).toBeInstanceOf(ThreadedVMWorkflowCreator);
});

for (const [where, h] of [
  ['the main thread', mainThread],
  ['a thread', threaded],
] as const) {
  it(`on ${where}: an instance runs to its end, stack traces are off, workflow errors are source-mapped`, async () => {
    const { instanceId } = await h.start(oneApproval(`threads_${where.replace(/\W/g, '_')}`));
    await expect(h.handle(instanceId).query('__stack_trace')).rejects.toThrow(/stack traces are not enabled/i);
    const refused = await workflowError(h, instanceId);
    expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
    const stack = String((refused as WorkflowUpdateFailedError).cause?.stack);
    expect(stack).toMatch(/workflows\/engine\/[a-z-]+\.ts:\d+/);
    expect(stack).not.toMatch(/workflow-bundle|bundle-[0-9a-f]+\.js/);
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
  });
}

it('on the main thread, an error with no frame in the bundle keeps the formatter it had', () => {
  class NotFromAWorkflow extends Error {}
  const n = formatted.count;
  const stack = new NotFromAWorkflow('plain').stack!;
  expect(formatted.count).toBe(n + 1);
  expect(stack).toMatch(/^Error: plain\n\s+at /);
});
