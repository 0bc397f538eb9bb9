// src/main/workflow-worker.ts: the workflow threads run without the SDK's stack tracking unless
// WORKFLOW_STACK_TRACES is on. Off, the Web UI's stack-trace query is refused and errors thrown
// in workflow code keep their source-mapped stacks; on, the query shows where a path waits.
import { expect, it } from 'vitest';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { useHarness, workflowError } from './support/harness.js';
import { linear, steps, users } from './support/dsl.js';
import { limitWorkflowStackTraces } from '../../src/main/workflow-stack-traces.js';

// The service's worker sets it before its threads start (src/main/worker.ts); the default, 6.
limitWorkflowStackTraces(6);
const untraced = useHarness('stack-traces-off');
const traced = useHarness('stack-traces-on', undefined, async () => ({ stackTraces: true }));

const oneApproval = (key: string) => linear(key, steps(users('bob')));

it('off (the default): the stack-trace query is refused, and the run goes on to its end', async () => {
  const { instanceId } = await untraced.start(oneApproval('st_off'));
  await expect(untraced.handle(instanceId).query('__stack_trace')).rejects.toThrow(/stack traces are not enabled/i);
  expect(await untraced.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
});

it('off: an error thrown in workflow code still has its stack mapped to the sources', async () => {
  const { instanceId } = await untraced.start(oneApproval('st_off_error'));
  const refused = await workflowError(untraced, instanceId);
  expect(refused).toBeInstanceOf(WorkflowUpdateFailedError);
  const stack = String((refused as WorkflowUpdateFailedError).cause?.stack);
  expect(stack).toMatch(/No task no-such-task/);
  expect(stack).toMatch(/workflows\/engine\/[a-z-]+\.ts:\d+/);
  expect(stack).not.toMatch(/workflow-bundle|bundle-[0-9a-f]+\.js/);
});

it('on: the query shows where a path waits, in at most WORKFLOW_STACK_TRACE_LIMIT − 2 frames per stack', async () => {
  const { instanceId } = await traced.start(oneApproval('st_on'));
  const trace: string = await traced.handle(instanceId).query('__stack_trace');
  const stacks = trace.split('\n\n').map((s) => s.split('\n').filter((l) => /^\s*at /.test(l)));
  expect(stacks.length).toBeGreaterThan(0);
  // The SDK's promise hook takes two of the six frames.
  for (const frames of stacks) expect(frames.length).toBeLessThanOrEqual(4);
  expect(
    stacks.some((frames) => frames.some((f) => /\bpark\b/.test(f)) && frames.some((f) => /awaitRun/.test(f))),
  ).toBe(true);
  expect(await traced.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
});
