// Catalogue service functions at the workflow level (docs/service-functions.md): an activity on a
// task queue of its own, served by a second worker, and the callId it gets — the same across
// retries, a new one on each pass through the node.
import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionCall } from '../../activities/service-function-calls.js';
import { processDoc, testChain, users } from '../helpers/dsl.js';
import { useHarness } from './support/harness.js';

const h = useHarness('service-functions');
const queue = `functions-${randomUUID()}`;
const seen: Array<{ callId: string; attempt: number; param: unknown; nodeId: string }> = [];
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  const attempts = new Map<string, number>();
  worker = await Worker.create({
    connection: h.env.nativeConnection,
    taskQueue: queue,
    activities: {
      /** Fails the first attempt of every call, then answers how many attempts that call took. */
      async score(call: FunctionCall) {
        const attempt = (attempts.get(call.callId) ?? 0) + 1;
        attempts.set(call.callId, attempt);
        seen.push({ callId: call.callId, attempt, param: call.param, nodeId: call.nodeId });
        if (attempt === 1) throw ApplicationFailure.retryable('first attempt fails');
        return { score: 7, scoreAttempts: attempt };
      },
    },
  });
  running = worker.run();
});

afterAll(async () => {
  worker.shutdown();
  await running;
});

const binding = {
  id: 'entry-1',
  kind: 'activity' as const,
  taskQueue: queue,
  activityType: 'score',
  timeoutMs: 5000,
  retry: { maximumAttempts: 3, initialIntervalMs: 50, backoffCoefficient: 1, maximumIntervalMs: null },
};

describe('catalogue activity functions', () => {
  it('retries keep the callId, a second pass gets a new one, and the answer merges into the variables', async () => {
    const doc = processDoc(
      testChain('sf_loop'),
      [
        {
          id: 'fn',
          type: 'serviceTask',
          name: 'Score',
          configuration: { functionName: 'Risk.score', param: '{"k":"${msg.k}"}' },
        },
        {
          id: 'review',
          type: 'userTask',
          name: 'Review',
          configuration: users('bob'),
        },
      ],
      [
        ['start', 'fn'],
        ['fn', 'review'],
        ['review', 'end'],
        ['review', 'fn', 'Reject'],
      ],
    );
    const { instanceId } = await h.start(doc, { variables: { k: 'v' }, functions: { 'Risk.score': binding } });
    const reviewOpen = async () => {
      for (
        let i = 0;
        i < 100 && !h.projection.tasks(instanceId).some((t) => t.activityId === 'review' && t.status === 'active');
        i++
      )
        await new Promise((r) => setTimeout(r, 100));
    };
    await reviewOpen();
    expect(h.projection.of(instanceId).instance!.variables).toMatchObject({ score: 7, scoreAttempts: 2 });
    const first = seen.filter((s) => s.callId.includes(instanceId));
    expect(first).toHaveLength(2);
    expect(first[0].callId).toBe(first[1].callId);
    expect(first[0]).toMatchObject({ nodeId: 'fn', param: { k: 'v' } });

    await h.decide(instanceId, 'bob', 'reject'); // back to fn: a second pass
    for (let i = 0; i < 100 && seen.filter((s) => s.callId.includes(instanceId)).length < 4; i++)
      await new Promise((r) => setTimeout(r, 100));
    const all = seen.filter((s) => s.callId.includes(instanceId));
    expect(all).toHaveLength(4);
    expect(all[2].callId).toBe(all[3].callId);
    expect(all[2].callId).not.toBe(all[0].callId);
    expect(h.fakes.calls.some((c) => c.name === 'runServiceFunction')).toBe(false);
  });
});
