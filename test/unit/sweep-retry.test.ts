// The intent sweeper's retries after a failed query (src/read-model/sweep-retry.ts): seconds at
// first, doubled, never later than one sweep interval.
import { describe, expect, it } from 'vitest';
import { RetryMemory, isTemporalUnavailable, retryDelayMs } from '../../src/read-model/sweep-retry.js';

describe('retryDelayMs', () => {
  it('starts at the base and doubles per failure in a row, capped at the sweep interval', () => {
    const schedule = { baseMs: 1000, capMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => retryDelayMs(n, schedule))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('with the default interval (2 s) the second retry is already at the cap', () => {
    expect([1, 2, 3, 10].map((n) => retryDelayMs(n, { baseMs: 1000, capMs: 2000 }))).toEqual([1000, 2000, 2000, 2000]);
  });

  it('never exceeds the cap, never answers less than 1 ms, and treats nonsense counts as the first failure', () => {
    for (let n = 1; n < 2000; n += 37) expect(retryDelayMs(n, { baseMs: 250, capMs: 5000 })).toBeLessThanOrEqual(5000);
    expect(retryDelayMs(1e9, { baseMs: 1000, capMs: 60_000 })).toBe(60_000);
    expect(retryDelayMs(0, { baseMs: 1000, capMs: 60_000 })).toBe(1000);
    expect(retryDelayMs(-3, { baseMs: 1000, capMs: 60_000 })).toBe(1000);
    expect(retryDelayMs(1, { baseMs: 0, capMs: 60_000 })).toBe(1);
    expect(retryDelayMs(3, { baseMs: 1000, capMs: 0 })).toBe(1);
  });

  it('a base larger than the cap gives the cap', () => {
    expect(retryDelayMs(1, { baseMs: 10_000, capMs: 2000 })).toBe(2000);
  });
});

describe('RetryMemory', () => {
  it('counts failures in a row per intent and forgets an intent once its workflow answered', () => {
    const m = new RetryMemory({ baseMs: 500, capMs: 4000 });
    expect([...m.failed(['a', 'b'])]).toEqual([
      ['a', 500],
      ['b', 500],
    ]);
    expect(m.failed(['a']).get('a')).toBe(1000);
    expect(m.failed(['a']).get('a')).toBe(2000);
    expect(m.failed(['a']).get('a')).toBe(4000);
    expect(m.failed(['a']).get('a')).toBe(4000);
    expect(m.count('a')).toBe(5);
    // Released without a failure of its own (the sweep stopped before it): its current delay.
    expect(m.pending(['a', 'b', 'c'])).toEqual(
      new Map([
        ['a', 4000],
        ['b', 500],
        ['c', 500],
      ]),
    );
    m.forget(['a']);
    expect(m.count('a')).toBe(0);
    expect(m.failed(['a']).get('a')).toBe(500);
  });

  it('stays bounded', () => {
    const m = new RetryMemory({ baseMs: 1000, capMs: 2000 }, 3);
    m.failed(['a', 'b', 'c', 'd', 'e']);
    expect(['a', 'b', 'c', 'd', 'e'].map((id) => m.count(id))).toEqual([0, 0, 1, 1, 1]);
  });
});

describe('isTemporalUnavailable', () => {
  it('knows UNAVAILABLE and DEADLINE_EXCEEDED, also as a cause, and nothing else', () => {
    expect(isTemporalUnavailable(Object.assign(new Error('x'), { code: 14 }))).toBe(true);
    expect(isTemporalUnavailable(new Error('Failed to query Workflow', { cause: { code: 4, message: '' } }))).toBe(
      true,
    );
    expect(isTemporalUnavailable(new Error('14 UNAVAILABLE: No connection established'))).toBe(true);
    expect(isTemporalUnavailable(new Error('4 DEADLINE_EXCEEDED: Deadline exceeded'))).toBe(true);
    expect(isTemporalUnavailable(new Error('query failed: TypeError in workflow'))).toBe(false);
    expect(isTemporalUnavailable(Object.assign(new Error('x'), { code: 5 }))).toBe(false);
    expect(isTemporalUnavailable(undefined)).toBe(false);
  });
});
