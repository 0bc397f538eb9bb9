import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Handler, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { commonErrors } from './envelope.js';
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
