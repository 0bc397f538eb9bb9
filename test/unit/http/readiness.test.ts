// /readyz's checks (src/http/health.routes.ts readinessOf): bounded, one at a time, the result reused
// for a moment, and a reason that names no host.
import { describe, expect, it } from 'vitest';
import { readinessOf } from '../../../src/http/health.routes.js';
import type { AppDeps } from '../../../src/context.js';

function fakeDeps(opts: {
  pg?: () => Promise<unknown>;
  temporal?: () => Promise<unknown>;
  timeoutMs?: number;
  cacheMs?: number;
}) {
  const calls = { pg: 0, temporal: 0 };
  const deps = {
    config: { READY_CHECK_TIMEOUT_MS: opts.timeoutMs ?? 100, READY_CACHE_MS: opts.cacheMs ?? 1000 },
    orm: {
      em: {
        fork: () => ({
          execute: () => {
            calls.pg++;
            return (opts.pg ?? (async () => [{ '?column?': 1 }]))();
          },
        }),
      },
    },
    temporal: {
      options: { namespace: 'default' },
      connection: { withDeadline: (_deadline: number, fn: () => Promise<unknown>) => fn() },
      workflowService: {
        describeNamespace: () => {
          calls.temporal++;
          return (opts.temporal ?? (async () => ({})))();
        },
      },
    },
  } as unknown as AppDeps;
  return { deps, calls };
}

const never = () => new Promise<never>(() => undefined);

describe('readiness', () => {
  it('answers ok when both answer', async () => {
    const { deps } = fakeDeps({});
    const r = await readinessOf(deps)();
    expect(r.results).toEqual({ postgres: { ok: true }, temporal: { ok: true } });
  });

  it('a dependency that never answers fails after the time limit, not later', async () => {
    const { deps } = fakeDeps({ temporal: never, timeoutMs: 150 });
    const t0 = performance.now();
    const r = await readinessOf(deps)();
    const ms = performance.now() - t0;
    expect(r.results.temporal).toEqual({ ok: false, reason: 'no answer within 150 ms' });
    expect(r.results.postgres.ok).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(600);
  });

  it('names an error by its code or class, never by its message (which names hosts)', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:5432'), { code: 'ECONNREFUSED' });
    const { deps } = fakeDeps({
      pg: () => Promise.reject(refused),
      temporal: () => Promise.reject(new TypeError('at temporal.internal:7233')),
    });
    const r = await readinessOf(deps)();
    expect(r.results.postgres).toEqual({ ok: false, reason: 'failed: ECONNREFUSED' });
    expect(r.results.temporal).toEqual({ ok: false, reason: 'unreachable' });
    expect(JSON.stringify(r)).not.toContain('10.1.2.3');
  });

  it('one check at a time, its result reused for READY_CACHE_MS, then asked again', async () => {
    let now = 1_000_000;
    const { deps, calls } = fakeDeps({ cacheMs: 1000 });
    const ready = readinessOf(deps, () => now);
    await Promise.all(Array.from({ length: 20 }, () => ready()));
    expect(calls).toEqual({ pg: 1, temporal: 1 });
    now += 999;
    await ready();
    expect(calls).toEqual({ pg: 1, temporal: 1 });
    now += 2;
    await ready();
    expect(calls).toEqual({ pg: 2, temporal: 2 });
  });

  it('READY_CACHE_MS 0 asks every time (still one check for requests that come together)', async () => {
    const { deps, calls } = fakeDeps({ cacheMs: 0 });
    const ready = readinessOf(deps);
    await ready();
    await ready();
    expect(calls.pg).toBe(2);
  });
});
