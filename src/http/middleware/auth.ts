import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../errors.js';
import { holds } from '../../permissions.js';
import type { AppEnv } from '../context.js';

/**
 * Bearer token → principal; `X-Tenant-Id` must match the token's tenant. Idempotent: several
 * routers share a base path, and each one's middleware runs for the whole prefix.
 */
export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get('principal')) return next();
  const header = c.req.header('Authorization');
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw new AppError('UNAUTHENTICATED');
  const { tokens, principals } = c.get('deps');
  const claims = await tokens.verify(match[1]);
  const tenantHeader = c.req.header('X-Tenant-Id');
  if (tenantHeader !== undefined && tenantHeader !== claims.tid) throw new AppError('TENANT_MISMATCH');
  c.set('principal', await principals.load(claims.tid, claims.sub));
  try {
    await next();
  } finally {
    // A directory write may change who may do what: cached principals go (also on failure: the write may have happened).
    if (!SAFE_METHODS.has(c.req.method) && DIRECTORY_PATHS.test(c.req.path)) principals.forget();
  }
};

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// tenant-settings and me: a principal carries the tenant's and the user's language.
const DIRECTORY_PATHS = /^\/api\/v1\/(users|roles|departments|tenants|tenant-settings|me)(\/|$)/;

/**
 * Route middleware (`defineRoute({ middleware: [requirePermission(...)] })`): 403 unless the
 * caller holds one of the permissions. It runs after the router's `authenticate` and after the
 * route's validators (see createRouter), so a malformed body still answers 400 first.
 */
export function requirePermission(...anyOf: string[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!holds(c.get('principal').permissions, ...anyOf)) {
      throw new AppError('FORBIDDEN', `Permission required: ${anyOf.join(' or ')}`);
    }
    await next();
  };
}

/** A request-scoped EntityManager (one fork per request, never the global one). */
export function em(c: Context<AppEnv>) {
  return c.get('deps').orm.em.fork();
}
