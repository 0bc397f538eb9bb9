import { z } from '@hono/zod-openapi';
import { rateLimiter } from 'hono-rate-limiter';
import { AppError } from '../errors.js';
import { login, whoAmI } from './auth.js';
import { countedError, json, jsonBody, ok, rateLimited, rateLimitHeaders } from '../http/envelope.js';
import { createRouter, defineRoute } from '../http/router.js';
import { authenticate, em } from '../http/middleware/auth.js';
import { PgRateLimitStore } from '../infra/rate-limit-store.js';
import type { AppDeps } from '../context.js';
import { clientAddress } from '../http/client-address.js';

const LoginBody = z
  .object({
    username: z.string().min(1).max(200),
    password: z.string().min(1).max(1000),
    tenantId: z.string().min(1).optional(),
  })
  .strict()
  .openapi('LoginRequest');

const LoginResult = z
  .object({ accessToken: z.string(), tokenType: z.literal('Bearer'), expiresIn: z.number().int() })
  .openapi('LoginResult');

const loginRoute = defineRoute({
  method: 'post',
  path: '/login',
  tags: ['auth'],
  summary: 'Log in with username and password; answers a bearer JWT',
  description:
    'Rate-limited per client address and username: LOGIN_RATE_LIMIT failed attempts per LOGIN_RATE_WINDOW_SECONDS (defaults 10 per 60 s), shared by every replica; ' +
    'successful logins do not count. Every answer carries `RateLimit-Policy` and `RateLimit`; over the budget → 429 with `Retry-After`. ' +
    'A wrong password, an unknown and an inactive user answer the same 401. Without `tenantId`, a username that several tenants have answers 409 TENANT_REQUIRED.',
  secured: false,
  request: { body: jsonBody(LoginBody) },
  responses: {
    200: { ...json(LoginResult), headers: rateLimitHeaders },
    401: countedError('Wrong username or password (counted against the budget)'),
    429: rateLimited('Too many failed attempts from this address for this username'),
  },
});

export const Me = z
  .object({
    user: z.object({
      id: z.string(),
      username: z.string(),
      displayName: z.string(),
      deptId: z.string().nullable(),
      locale: z
        .string()
        .nullable()
        .openapi({ description: 'the language the user chose (en, zh-CN); null: the browser decides' }),
    }),
    tenant: z.object({
      id: z.string(),
      name: z.string(),
      defaultLocale: z.string().nullable().openapi({
        description:
          "the tenant's default language (en, zh-CN) when neither the user nor the browser names one; null: en",
      }),
    }),
    roles: z.array(z.string()).openapi({ description: 'Role codes' }),
    permissions: z
      .array(z.string())
      .openapi({ description: 'What the roles grant, sorted; `*` when one of them grants everything' }),
    can: z
      .object({
        definitionsWrite: z.boolean().openapi({ description: 'workflow:definition:write' }),
        monitor: z.boolean().openapi({ description: 'workflow:monitor' }),
        directory: z.boolean().openapi({ description: 'system:directory:manage' }),
        admin: z.boolean().openapi({ description: 'workflow:admin' }),
      })
      .openapi({ description: 'The admin areas these permissions open (the web console shows only those)' }),
  })
  .openapi('Me');

const meRoute = defineRoute({
  method: 'get',
  path: '/me',
  tags: ['auth'],
  summary: "Who am I: the caller's user, tenant, roles and permissions",
  middleware: [authenticate],
  responses: { 200: json(Me) },
});

export function authRoutes(deps: AppDeps) {
  const router = createRouter({ secured: false });
  // Counted per client address and username, shared by every replica through PostgreSQL.
  router.use(
    '/login',
    rateLimiter({
      windowMs: deps.config.LOGIN_RATE_WINDOW_SECONDS * 1000,
      limit: deps.config.LOGIN_RATE_LIMIT,
      standardHeaders: 'draft-7',
      // Only failed attempts count: brute force is what this limits.
      skipSuccessfulRequests: true,
      store: new PgRateLimitStore(deps.orm, deps.config.LOGIN_RATE_WINDOW_SECONDS * 1000),
      keyGenerator: async (c) => {
        const body = await c.req.json().catch(() => ({}));
        const username = typeof body?.username === 'string' ? body.username.slice(0, 200) : '';
        const ip = clientAddress(c, deps.config.TRUST_PROXY_HOPS);
        return `login:${ip}:${username}`;
      },
      handler: () => {
        throw new AppError('RATE_LIMITED', 'Too many login attempts; try again later');
      },
    }),
  );
  router.openapi(loginRoute, async (c) => {
    const body = c.req.valid('json');
    return c.json(ok(await login(em(c), deps.tokens, body)), 200);
  });
  router.openapi(meRoute, async (c) => c.json(ok(await whoAmI(em(c), c.get('principal'))), 200));
  return router;
}
