// src/main/workflow-worker.ts: the worker calls into its workflows' V8 context without Node's vm
// timeout (which starts a watchdog thread per call), unless WORKFLOW_VM_TIMEOUT_MS asks for one.
// In debug mode the SDK runs that context in this thread, so its calls are seen here; one worker
// per file, so the calls seen are its own (vm-timeout-configured.test.ts: the other case).
import { expect, it } from 'vitest';
import { useHarness } from './support/harness.js';
import { linear, steps, users } from './support/dsl.js';
import { recordVmTimeouts } from './support/vm-calls.js';

const timeouts = recordVmTimeouts();

const untimed = useHarness('vm-untimed', undefined, async () => ({ debugMode: true }));

it('the service worker: a 2-step chain runs to its end with no call carrying a timeout', async () => {
  timeouts.length = 0;
  const { instanceId } = await untimed.start(linear('vm_untimed', steps(users('bob'), users('erin'))));
  await untimed.decide(instanceId, 'bob');
  expect(await untimed.decide(instanceId, 'erin')).toMatchObject({ instanceStatus: 'completed' });
  expect(timeouts.length).toBeGreaterThan(10);
  expect(new Set(timeouts)).toEqual(new Set([undefined]));
});
