// The bounded runner behind batch decisions (src/tasks/task-batch.ts): never more than the
// limit at once, every item run once, answers in the order of the items even when they finish
// out of order.
import { describe, expect, it } from 'vitest';
import { BATCH_CONCURRENCY, mapBounded } from '../../src/tasks/task-batch.js';

describe('mapBounded', () => {
  it('runs at most `limit` at once, each item once, and keeps the order of the items', async () => {
    let running = 0;
    let peak = 0;
    const seen: number[] = [];
    const items = Array.from({ length: 30 }, (_, i) => i);
    const out = await mapBounded(items, BATCH_CONCURRENCY, async (i) => {
      running++;
      peak = Math.max(peak, running);
      seen.push(i);
      // Later items finish first: the answer order must not follow completion order.
      await new Promise((r) => setTimeout(r, (30 - i) % 7));
      running--;
      return i * 2;
    });
    expect(peak).toBe(BATCH_CONCURRENCY);
    expect(seen.sort((a, b) => a - b)).toEqual(items);
    expect(out).toEqual(items.map((i) => i * 2));
  });

  it('handles fewer items than the limit, and none', async () => {
    expect(await mapBounded([1, 2], 8, async (i) => i + 1)).toEqual([2, 3]);
    expect(await mapBounded([], 8, async (i: number) => i)).toEqual([]);
  });
});
