import { OpenAPIHono, createRoute, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Handler, MiddlewareHandler } from 'hono';
import type { z } from '@hono/zod-openapi';
import type { AppEnv } from './context.js';
import type { Principal } from '../context.js';
import { commonErrors, json, jsonBody, ok, optionalBody } from './envelope.js';
import { IdempotencyHeaders, idempotency } from './idempotency.js';
import { validationHook } from './errors.js';
import { AppError } from '../errors.js';
import { authenticate, requirePermission } from './middleware/auth.js';

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

type Parsed<T> = T extends z.ZodType ? z.output<T> : undefined;

/** What an endpoint declares: its place, its permissions, its validated inputs and its answer. */
interface EndpointSpec<P, Q, B> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  tags: string[];
  summary: string;
  description?: string;
  /** Any one of these permissions lets the caller in (checked after validation, before `run`). */
  permissions?: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out; it then reads as `{}`. */
  optionalBody?: boolean;
  /** Accepts an Idempotency-Key bound to the body (see idempotency.ts); `run` gets the scoped key. */
  idempotent?: boolean;
  status?: 200 | 201;
  response: z.ZodType;
  responseDescription?: string;
}

/** The validated inputs `run` gets. */
export interface EndpointInput<P, Q, B> {
  principal: Principal;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  key: string | undefined;
  c: Context<AppEnv>;
}

/**
 * One JSON endpoint: the route (OpenAPI included) is built from `spec`, and whatever `run`
 * answers goes out in the success envelope with `spec.status`.
 */
export function endpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  router: ReturnType<typeof createRouter>,
  spec: EndpointSpec<P, Q, B>,
  run: (input: EndpointInput<P, Q, B>) => Promise<unknown>,
) {
  const { permissions, params, query, body, optionalBody: bodyOptional, idempotent, status = 200 } = spec;
  const request: RouteConfig['request'] & object = {
    ...(params ? { params: params as unknown as z.ZodObject } : {}),
    ...(query ? { query: query as unknown as z.ZodObject } : {}),
    ...(idempotent ? { headers: IdempotencyHeaders } : {}),
    ...(body ? { body: bodyOptional ? optionalBody(body) : jsonBody(body) } : {}),
  };
  router.openapi(
    defineRoute({
      method: spec.method,
      path: spec.path,
      tags: spec.tags,
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      ...(permissions ? { middleware: [requirePermission(...permissions)] } : {}),
      ...(Object.keys(request).length ? { request } : {}),
      responses: { [status]: json(spec.response, spec.responseDescription) },
    }),
    async (c: any) => {
      // A required body that was not sent at all (no Content-Type): the JSON validator has read
      // it as `{}`, which a schema of optional fields would take for a body.
      if (body && !bodyOptional && !c.req.header('content-type'))
        throw new AppError('VALIDATION_FAILED', 'Send a JSON body (Content-Type: application/json)', {
          fields: [{ path: 'body', message: 'required' }],
        });
      const input = body ? (c.req.valid('json') ?? {}) : undefined;
      const data = await run({
        principal: c.get('principal'),
        params: params ? c.req.valid('param') : undefined,
        query: query ? c.req.valid('query') : undefined,
        body: input,
        key: idempotent ? await idempotency(c, input ?? {}) : undefined,
        c,
      } as EndpointInput<P, Q, B>);
      return c.json(ok(data), status);
    },
  );
}

/**
 * `POST /{id}/<action>` for each `[action, summary, description?]`: the state changes of a resource
 * share one shape.
 */
export function actionEndpoints<A extends string, P extends z.ZodType, B extends z.ZodType | undefined = undefined>(
  router: ReturnType<typeof createRouter>,
  actions: readonly (readonly [A, string, string?])[],
  spec: Omit<EndpointSpec<P, undefined, B>, 'method' | 'path' | 'summary' | 'description'>,
  run: (action: A, input: EndpointInput<P, undefined, B>) => Promise<unknown>,
) {
  for (const [action, summary, description] of actions) {
    endpoint(router, { ...spec, method: 'post', path: `/{id}/${action}`, summary, description }, (input) =>
      run(action, input),
    );
  }
}
