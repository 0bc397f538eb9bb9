import { createRoute, z } from '@hono/zod-openapi';
import { temporalReachable } from '../temporal/client.js';
import { createRouter, defineRoute } from './router.js';
import type { AppDeps } from '../context.js';

const Health = z
  .object({ status: z.enum(['ok', 'unavailable']), checks: z.record(z.string(), z.boolean()).optional() })
  .openapi('Health');

async function pgReachable(deps: AppDeps): Promise<boolean> {
  try {
    await deps.orm.em.fork().execute('select 1');
    return true;
  } catch {
    return false;
  }
}

export function healthRoutes(deps: AppDeps) {
  const r = createRouter({ secured: false });
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
      responses: {
        200: { description: 'Ready', content: { 'application/json': { schema: Health } } },
        503: { description: 'Not ready', content: { 'application/json': { schema: Health } } },
      },
    }),
    async (c) => {
      const [postgres, temporal] = await Promise.all([pgReachable(deps), temporalReachable(deps.temporal)]);
      const checks = { postgres, temporal };
      if (postgres && temporal) return c.json({ status: 'ok' as const, checks }, 200);
      return c.json({ status: 'unavailable' as const, checks }, 503);
    },
  );
  return r;
}
