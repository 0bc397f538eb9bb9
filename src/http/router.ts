import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import { commonErrors } from './envelope.js';
import { validationHook } from './errors.js';
import { authenticate } from './middleware/auth.js';

/** A Hono app for one resource; `secured` routers authenticate every request. */
export function createRouter(opts: { secured: boolean } = { secured: true }) {
  const router = new OpenAPIHono<AppEnv>({ defaultHook: validationHook as any });
  if (opts.secured) router.use('*', authenticate);
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
