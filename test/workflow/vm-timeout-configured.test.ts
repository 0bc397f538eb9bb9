// src/main/workflow-worker.ts: with WORKFLOW_VM_TIMEOUT_MS the worker is the SDK's own, and every
// call into a workflow's V8 context carries the timeout (and Node's watchdog thread).
// In debug mode the SDK runs that context in this thread, so its calls are seen here. This file:
// with WORKFLOW_VM_TIMEOUT_MS set (vm-timeout.test.ts: without).
import { expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { linear, steps, users } from './support/dsl.js';
import { recordVmTimeouts } from './support/vm-calls.js';

const timeouts = recordVmTimeouts();

const timed = useHarness('vm-timed', undefined, async () => ({ debugMode: true, vmTimeoutMs: 7_000 }));

it('with WORKFLOW_VM_TIMEOUT_MS: every call carries it', async () => {
  timeouts.length = 0;
  const { instanceId } = await timed.start(linear('vm_timed', steps(users('bob'))));
  expect(await timed.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
  expect(timeouts.length).toBeGreaterThan(5);
  expect(new Set(timeouts)).toEqual(new Set([7_000]));
});
