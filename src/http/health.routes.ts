import { createRoute, z } from '@hono/zod-openapi';
import { temporalReachable } from '../temporal/client.js';
import { createRouter, defineRoute } from './router.js';
import type { AppDeps } from '../context.js';

const Health = z
  .object({ status: z.enum(['ok', 'unavailable']), checks: z.record(z.string(), z.boolean()).optional() })
  .openapi('Health');

const Readiness = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    checks: z.record(z.string(), z.boolean()),
    notReady: z
      .array(z.object({ check: z.string(), reason: z.string() }))
      .optional()
      .openapi({ description: 'Only when not ready: each failing check and why (an error, or no answer in time)' }),
  })
  .openapi('Readiness');

type Check = 'postgres' | 'temporal';
interface Outcome {
  ok: boolean;
  reason?: string;
}
interface ReadinessResult {
  at: number;
  results: Record<Check, Outcome>;
}

/** An error's code or class (never its message: /readyz is public and messages name hosts and ports). */
function errorKind(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
  return err instanceof Error ? err.name : 'error';
}

/** `probe` within `timeoutMs`: a probe that has not answered by then counts as failed (it may still run on). */
async function bounded(probe: () => Promise<boolean>, timeoutMs: number): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([
      probe().then(
        (ok): Outcome => (ok ? { ok } : { ok, reason: 'unreachable' }),
        (err: unknown): Outcome => ({ ok: false, reason: `failed: ${errorKind(err)}` }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The readiness of this process's dependencies: each check bounded by READY_CHECK_TIMEOUT_MS, the
 * last result reused for READY_CACHE_MS, and one check at a time (requests that come while one runs
 * wait for it), so /readyz answers within the time limit whatever is down and a probe storm asks
 * PostgreSQL and Temporal once per period.
 */
export function readinessOf(deps: AppDeps, now: () => number = Date.now) {
  const timeoutMs = deps.config.READY_CHECK_TIMEOUT_MS ?? 500;
  const cacheMs = deps.config.READY_CACHE_MS ?? 1000;
  let last: ReadinessResult | null = null;
  let running: Promise<ReadinessResult> | null = null;
  const check = async (): Promise<ReadinessResult> => {
    const [postgres, temporal] = await Promise.all([
      bounded(async () => {
        await deps.orm.em.fork().execute('select 1');
        return true;
      }, timeoutMs),
      bounded(() => temporalReachable(deps.temporal, timeoutMs), timeoutMs),
    ]);
    return { at: now(), results: { postgres, temporal } };
  };
  return async (): Promise<ReadinessResult> => {
    if (last && now() - last.at < cacheMs) return last;
    running ??= check()
      .then((r) => (last = r))
      .finally(() => (running = null));
    return running;
  };
}

export function healthRoutes(deps: AppDeps) {
  const r = createRouter({ secured: false });
  const readiness = readinessOf(deps);
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/healthz',
      tags: ['health'],
      summary: 'Process up',
      secured: false,
      responses: { 200: { description: 'Up', content: { 'application/json': { schema: Health } } } },
    }),
    (c) => c.json({ status: 'ok' as const }, 200),
  );
  r.openapi(
    createRoute({
      method: 'get',
      path: '/readyz',
      tags: ['health'],
      summary: 'PostgreSQL and Temporal reachable',
      description:
        'Each check is bounded (READY_CHECK_TIMEOUT_MS, 500 ms) and its result reused for READY_CACHE_MS (1 s): the answer comes within a second whatever is down.',
      responses: {
        200: { description: 'Ready', content: { 'application/json': { schema: Readiness } } },
        503: {
          description: 'Not ready: notReady names the failing checks',
          content: { 'application/json': { schema: Readiness } },
        },
      },
    }),
    async (c) => {
      const { results } = await readiness();
      const checks = { postgres: results.postgres.ok, temporal: results.temporal.ok };
      if (checks.postgres && checks.temporal) return c.json({ status: 'ok' as const, checks }, 200);
      const notReady = (Object.entries(results) as Array<[Check, Outcome]>)
        .filter(([, o]) => !o.ok)
        .map(([check, o]) => ({ check, reason: o.reason ?? 'unreachable' }));
      return c.json({ status: 'unavailable' as const, checks, notReady }, 503);
    },
  );
  return r;
}
