// The HTTP side's retry policy for Updates (src/temporal/engine-client.ts, docs/engine.md
// "Update retries"): transient refusals are re-sent with the same id within a time budget; an
// unreachable Temporal and real refusals are not.
import { describe, expect, it } from 'vitest';
import { ServiceError, WorkflowUpdateFailedError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { retryableUpdateError, retryUpdate } from '../../src/temporal/engine-client.js';
import { toAppError } from '../../src/http/errors.js';

const grpc = (code: number, details: string) => Object.assign(new Error(`${code} ${details}`), { code, details });
const exhausted = () =>
  new ServiceError('Workflow Update failed', {
    cause: grpc(8, 'limit on number of concurrent in-flight updates has been reached (10)'),
  });
const aborted = () => new ServiceError('Workflow Update failed', { cause: grpc(14, 'workflow update was aborted') });
const unreachable = () =>
  new ServiceError('Workflow Update failed', {
    cause: grpc(14, 'No connection established. Last error: connect ECONNREFUSED 127.0.0.1:1'),
  });

describe('Update retry policy', () => {
  it('classifies the transient refusals seen when 20-40 Updates race on one instance', () => {
    expect(retryableUpdateError(exhausted())).toBe('exhausted');
    expect(retryableUpdateError(aborted())).toBe('aborted');
    expect(
      retryableUpdateError(
        new WorkflowUpdateFailedError(
          'Workflow Update failed',
          new Error("Workflow Update failed because it wasn't processed by worker"),
        ),
      ),
    ).toBe('unprocessed');
    // Reached a predicted start's run before its handlers (docs/engine.md "A start that does not wait").
    expect(
      retryableUpdateError(
        new WorkflowUpdateFailedError('Workflow Update failed', new Error('No registered handler for update: approve')),
      ),
    ).toBe('unprocessed');
    expect(
      retryableUpdateError(
        new WorkflowUpdateRPCTimeoutOrCancelledError('timeout', { cause: grpc(4, 'deadline exceeded') }),
      ),
    ).toBe('deadline');
  });

  it('does not retry an unreachable Temporal, a cancelled call or a refusal by a validator', () => {
    expect(retryableUpdateError(unreachable())).toBeNull();
    expect(
      retryableUpdateError(new WorkflowUpdateRPCTimeoutOrCancelledError('cancelled', { cause: grpc(1, 'cancelled') })),
    ).toBeNull();
    const refused = new WorkflowUpdateFailedError(
      'Workflow Update failed',
      ApplicationFailure.create({ type: 'INVALID_STATE', message: 'The task is completed', nonRetryable: true }),
    );
    expect(retryableUpdateError(refused)).toBeNull();
    expect(toAppError(unreachable())?.status).toBe(503);
  });

  it('re-sends until the answer comes', async () => {
    const errors = [exhausted(), aborted(), exhausted()];
    let calls = 0;
    const answer = await retryUpdate(async () => {
      calls++;
      const err = errors.shift();
      if (err) throw err;
      return 'ok';
    });
    expect(answer).toBe('ok');
    expect(calls).toBe(4);
  });

  it('gives up after its budget, and at once on a non-transient error', async () => {
    let calls = 0;
    const started = Date.now();
    await expect(
      retryUpdate(async () => {
        calls++;
        throw aborted();
      }, 300),
    ).rejects.toBeInstanceOf(ServiceError);
    expect(Date.now() - started).toBeLessThan(10_000); // bounded by the budget, not retried for ever
    expect(calls).toBeGreaterThan(1);
    calls = 0;
    await expect(
      retryUpdate(async () => {
        calls++;
        throw unreachable();
      }),
    ).rejects.toBeInstanceOf(ServiceError);
    expect(calls).toBe(1);
  });
});
