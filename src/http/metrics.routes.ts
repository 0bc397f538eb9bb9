import { createRoute, z } from '@hono/zod-openapi';
import { AppError } from '../errors.js';
import { createRouter } from './router.js';
import type { AppDeps } from '../context.js';
import { exposition, METRICS_CONTENT_TYPE, scrapeAllowed } from '../observability/metrics-endpoint.js';

/**
 * GET /metrics on the API port: only when METRICS_TOKEN is set (then the bearer token is that
 * token, not a user's). Without it the route does not exist — it is not in the OpenAPI document and
 * answers 404 like any unknown route — and metrics are served, if at all, on METRICS_PORT only
 * (docs/operations.md "Metrics"). A document that listed it with a security requirement would
 * promise a 401 to a request without the token that this server answers 404.
 */
export function metricsRoutes(deps: AppDeps) {
  const r = createRouter({ secured: false });
  const token = deps.config.METRICS_TOKEN;
  if (!token) return r;
  r.openapi(
    createRoute({
      method: 'get',
      path: '/metrics',
      tags: ['health'],
      summary: 'Prometheus metrics of this server (METRICS_TOKEN as bearer token)',
      description:
        'Prometheus text format 0.0.4, only with `Authorization: Bearer <METRICS_TOKEN>`. A server without ' +
        'METRICS_TOKEN has no such route (404, and it is not in its document). The same exposition is served on METRICS_PORT.',
      security: [{ metricsToken: [] }],
      responses: {
        200: { description: 'The exposition', content: { 'text/plain': { schema: z.string() } } },
        401: { description: 'Missing or wrong token' },
      },
    }),
    async (c) => {
      if (!scrapeAllowed(token, c.req.header('authorization')))
        throw new AppError('UNAUTHENTICATED', 'Send the metrics token as a bearer token');
      return c.body(await exposition(), 200, { 'Content-Type': METRICS_CONTENT_TYPE }) as any;
    },
  );
  return r;
}
