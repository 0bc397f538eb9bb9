// Per request: the metrics by route template and, when tracing is on, the server span that the
// Temporal client call, the read-model write and their PostgreSQL statements hang under.
import { propagation, SpanKind, SpanStatusCode, ROOT_CONTEXT } from '@opentelemetry/api';
import type { MiddlewareHandler } from 'hono';
import { recordHttpRequest } from './metrics.js';
import { tracing } from './tracing.js';

/** The matched route template; paths no route matched collapse into two labels. */
function routeOf(routePath: string, path: string): string {
  if (routePath !== '*' && routePath !== '/*') return routePath;
  return path.startsWith('/api/') ? 'unmatched' : 'console';
}

export function httpTelemetry(): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const t = tracing();
    if (!t) {
      await next();
      recordHttpRequest(
        c.req.method,
        routeOf(c.req.routePath, c.req.path),
        c.res.status,
        (performance.now() - started) / 1000,
      );
      return;
    }
    const parent = propagation.extract(ROOT_CONTEXT, Object.fromEntries(c.req.raw.headers));
    await t.tracer.startActiveSpan(
      `${c.req.method}`,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': c.req.method, 'url.path': c.req.path } },
      parent,
      async (span) => {
        try {
          span.setAttribute('http.request_id', String(c.get('requestId') ?? ''));
          await next();
        } finally {
          const route = routeOf(c.req.routePath, c.req.path);
          span.updateName(`${c.req.method} ${route}`);
          span.setAttribute('http.route', route);
          span.setAttribute('http.response.status_code', c.res.status);
          if (c.res.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          recordHttpRequest(c.req.method, route, c.res.status, (performance.now() - started) / 1000);
        }
      },
    );
  };
}
