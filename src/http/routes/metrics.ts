import { createRoute, z } from '@hono/zod-openapi';
import { AppError } from '../../errors.js';
import { createRouter } from '../router.js';
import type { AppDeps } from '../../context.js';
import { exposition, METRICS_CONTENT_TYPE, scrapeAllowed } from '../../observability/metrics-endpoint.js';

/**
 * GET /metrics on the API port: only when METRICS_TOKEN is set (then the bearer token is that
 * token, not a user's). Without it the route answers 404 and metrics are served, if at all, on
 * METRICS_PORT only (docs/operations.md "Metrics").
 */
export function metricsRoutes(deps: AppDeps) {
  const r = createRouter({ secured: false });
  r.openapi(
    createRoute({
      method: 'get',
      path: '/metrics',
      tags: ['health'],
      summary: 'Prometheus metrics of this server (METRICS_TOKEN as bearer token)',
      description:
        'Prometheus text format 0.0.4. Answered only when the server runs with METRICS_TOKEN, and only with ' +
        '`Authorization: Bearer <METRICS_TOKEN>`; otherwise 404. The same exposition is served on METRICS_PORT.',
      security: [{ metricsToken: [] }],
      responses: {
        200: { description: 'The exposition', content: { 'text/plain': { schema: z.string() } } },
        401: { description: 'Missing or wrong token' },
        404: { description: 'Metrics are not served on this port (no METRICS_TOKEN)' },
      },
    }),
    async (c) => {
      const token = deps.config.METRICS_TOKEN;
      if (!token) throw new AppError('ROUTE_NOT_FOUND', 'No such route');
      if (!scrapeAllowed(token, c.req.header('authorization')))
        throw new AppError('UNAUTHENTICATED', 'Send the metrics token as a bearer token');
      return c.body(await exposition(), 200, { 'Content-Type': METRICS_CONTENT_TYPE }) as any;
    },
  );
  return r;
}
