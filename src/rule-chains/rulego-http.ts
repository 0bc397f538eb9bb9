// The edge of the RuleGo-compatible API (docs/rule-chains.md "The bridged API"): success bodies in
// RuleGo-Server's shapes, not our envelope; errors in our envelope plus the `error` field RuleGo's
// clients read. Every route is still one createRouter/defineRoute route, so /openapi.json has it.
import { z, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/context.js';
import { createRouter, defineRoute } from '../http/router.js';
import { requirePermission } from '../http/middleware/auth.js';
import { Permissions } from '../permissions.js';

/** RuleGo's permission points, mapped onto ours (docs/rule-chains.md "Permissions"). */
export const RuleGoPermissions = {
  ruleRead: [Permissions.DEFINITION_READ, Permissions.DEFINITION_WRITE],
  ruleWrite: [Permissions.DEFINITION_WRITE],
  ruleExecute: [Permissions.INSTANCE_START],
  logRead: [Permissions.MONITOR],
  logDelete: [Permissions.ADMIN],
  skillRead: [Permissions.DEFINITION_READ, Permissions.DEFINITION_WRITE],
  skillWrite: [Permissions.DEFINITION_WRITE],
} as const;

export const RuleGoError = z
  .object({
    code: z.number().int(),
    data: z.unknown().nullable(),
    message: z.string(),
    error: z.string().openapi({ description: 'The message again, where RuleGo’s clients read it' }),
  })
  .openapi('RuleGoError');

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: RuleGoError } },
});

const ruleGoErrors = {
  400: errorResponse('Malformed input, an invalid id, or an operation RuleGo has that we do not'),
  401: errorResponse('No or bad token'),
  403: errorResponse('Permission missing'),
  404: errorResponse('Not found (also for objects of another tenant)'),
  409: errorResponse('The state does not allow the action (a stopped chain: CHAIN_STOPPED)'),
  413: errorResponse('Body too large'),
  415: errorResponse('Body is not application/json'),
  422: errorResponse('The chain does not validate (CHAIN_INVALID, `data.problems` names node and field)'),
  429: errorResponse('Rate limited'),
  503: errorResponse('A dependency is unavailable'),
};

/** A router of the bridged API (its errors get `error` from ruleGoErrorField, mounted over the prefix). */
export function ruleGoRouter(opts: { secured: boolean } = { secured: true }) {
  return createRouter(opts);
}

/**
 * Every error answer under the prefix — a route's, the edge's input checks, a 404 or 405 — carries
 * `error` beside the envelope's fields, where RuleGo's clients read it. Mounted outermost on
 * `${RULE_ENGINE_PREFIX}/api/*` (src/main/app.ts); only error answers are read again.
 */
export const ruleGoErrorField: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res.status < 400 || !c.res.headers.get('content-type')?.includes('json')) return;
  const body = (await c.res
    .clone()
    .json()
    .catch(() => null)) as { message?: unknown; error?: unknown } | null;
  if (!body || typeof body.message !== 'string' || 'error' in body) return;
  const headers = new Headers(c.res.headers);
  headers.delete('content-length');
  c.res = new Response(JSON.stringify({ ...body, error: body.message }), { status: c.res.status, headers });
};

/** defineRoute with the bridged API's error answers. */
export function ruleGoRoute<const R extends RouteConfig>(config: R & { secured?: boolean }) {
  const route = defineRoute(config);
  return { ...route, responses: { ...ruleGoErrors, ...config.responses } } as typeof route;
}

export const guard = (...anyOf: readonly string[]) => [requirePermission(...anyOf)];

/** A JSON answer of a RuleGo shape. */
export const rawJson = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});

export const noContent = (description = 'Done; no body') => ({ description });

/** RuleGo's `:id` rule: non-empty, at most 256 characters, no `/`, `\` or `.`. */
export const RuleGoId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^/\\.]+$/, { message: 'an id: at most 256 characters, no / \\ or .' });

/** RuleGo's paging parameters: `page` (1-based) and `size`. */
export const SizePageQuery = {
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(1)
    .openapi({ param: { name: 'page', in: 'query' } }),
  size: z.coerce
    .number()
    .int()
    .min(1)
    .max(200)
    .default(20)
    .openapi({ param: { name: 'size', in: 'query' } }),
};

/** A query flag (`true` / `false`); left out: no filter. */
export const BoolFlag = z.enum(['true', 'false']).optional();

export const flag = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');
