import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Handler, MiddlewareHandler } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import type { Principal } from '../context.js';
import type { Page } from '../paging.js';
import { commonErrors, json, ok, page } from './envelope.js';
import { validationHook } from './errors.js';
import { authenticate } from './middleware/auth.js';

/** A Hono app for one resource; `secured` routers authenticate every request. */
export function createRouter(opts: { secured: boolean } = { secured: true }) {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as any });
  if (opts.secured) router.use('*', authenticate);
  // A route's own middleware (requirePermission) runs after its validators, right before the
  // handler, as the permission checks inside handlers did: a malformed body answers 400 first.
  const register = router.openapi.bind(router);
  router.openapi = ((route: RouteConfig, handler: Handler<AppEnv>, hook?: unknown) => {
    const { middleware, ...rest } = route;
    if (!middleware) return register(route, handler as any, hook as any);
    const chain = (Array.isArray(middleware) ? middleware : [middleware]) as MiddlewareHandler<AppEnv>[];
    const guarded: Handler<AppEnv> = async (c, next) => {
      for (const mw of chain) {
        let passed = false;
        await mw(c, async () => {
          passed = true;
        });
        if (!passed) return c.res;
      }
      return handler(c, next);
    };
    return register(rest as RouteConfig, guarded as any, hook as any);
  }) as typeof router.openapi;
  return router;
}

/** createRoute with the bearer security and the common error responses filled in. */
export function defineRoute<const R extends RouteConfig>(config: R & { secured?: boolean }) {
  const { secured = true, ...rest } = config;
  return createRoute({
    ...(rest as R),
    security: secured ? [{ bearerAuth: [] }] : [],
    responses: { ...commonErrors, ...rest.responses },
  });
}

/** A monitoring-style GET: one page of `row`s for the caller, narrowed by `query`, answered by `list`. */
export function pagedGet<Q extends z.ZodObject, R extends z.ZodType>(
  router: ReturnType<typeof createRouter>,
  route: { path: string; tags: string[]; summary: string; middleware: MiddlewareHandler<AppEnv>[]; query: Q; row: R },
  list: (principal: Principal, query: z.output<Q>) => Promise<Page<z.input<R>>>,
) {
  const { query, row, ...rest } = route;
  router.openapi(
    defineRoute({ method: 'get', ...rest, request: { query }, responses: { 200: json(page(row)) } }),
    async (c: any) => c.json(ok(await list(c.get('principal'), c.req.valid('query'))), 200),
  );
}
