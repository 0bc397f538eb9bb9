import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import { Tenant, User } from '../db/entities/index.js';
import { verifyPassword } from '../infra/passwords.js';
import type { TokenService } from '../infra/tokens.js';
import { permissionsOf } from './directory.js';
import { holds, Permissions } from '../permissions.js';
import type { Principal, PrincipalSource } from '../context.js';
import type { Orm } from '../db/orm.js';

export async function login(
  em: EntityManager,
  tokens: TokenService,
  input: { username: string; password: string; tenantId?: string },
) {
  const where = input.tenantId ? { username: input.username, tenantId: input.tenantId } : { username: input.username };
  const users = await em.find(User, where, { populate: ['passwordHash'] as any });
  if (users.length > 1) throw new AppError('TENANT_REQUIRED');
  const user = users[0];
  const valid = await verifyPassword(user?.passwordHash ?? null, input.password);
  // Wrong password, unknown user and inactive user answer alike.
  if (!user || !valid || !user.active) throw new AppError('INVALID_CREDENTIALS');
  const accessToken = await tokens.issue({ sub: user.id, tid: user.tenantId });
  return { accessToken, tokenType: 'Bearer' as const, expiresIn: tokens.ttlSeconds };
}

/**
 * Principals by (tenant, user), kept `PRINCIPAL_TTL_MS` in this process: authentication is then
 * no query for most requests. Directory writes through this process clear it at once
 * (`forgetPrincipals`, called by the authentication middleware after a write to users, roles,
 * departments or tenants); another replica's change is seen here within the TTL at most, so a
 * user deactivated elsewhere is refused at most 5 s later (docs/performance.md).
 */
export const PRINCIPAL_TTL_MS = 5_000;
const principals = new Map<string, { principal: Principal; until: number }>();
const PRINCIPAL_CACHE_SIZE = 10_000;
/** Bumped by every clear: a load that started before a clear does not store its (maybe stale) answer. */
let generation = 0;

/** The principals of the directory in this process, as the HTTP edge reads them (AppDeps.principals). */
export const directoryPrincipals = (orm: Orm): PrincipalSource => ({
  load: (tenantId, userId) => loadPrincipal(() => orm.em.fork(), tenantId, userId),
  forget: forgetPrincipals,
});

export function forgetPrincipals() {
  generation++;
  principals.clear();
}

/**
 * Loads who is calling; an unknown or inactive user gets 401 even with a valid token. `emOf`: an
 * EntityManager, or how to get one — a request whose principal is cached needs none (a fork per
 * request showed in the server's profile).
 */
export async function loadPrincipal(
  emOf: EntityManager | (() => EntityManager),
  tenantId: string,
  userId: string,
): Promise<Principal> {
  const key = `${tenantId}\u0000${userId}`;
  const now = Date.now();
  const hit = principals.get(key);
  if (hit && hit.until > now) return hit.principal;
  const em = typeof emOf === 'function' ? emOf() : emOf;
  const seen = generation;
  const [user, tenant] = await Promise.all([
    em.findOne(User, { tenantId, id: userId }),
    em.findOne(Tenant, { id: tenantId }, { fields: ['defaultLocale'] }),
  ]);
  if (!user || !user.active) throw new AppError('INVALID_TOKEN', 'The token names no active user');
  const principal: Principal = {
    tenantId,
    userId,
    username: user.username,
    roles: user.roles,
    deptId: user.deptId ?? null,
    permissions: await permissionsOf(em, tenantId, user.roles),
    locale: user.locale ?? null,
    tenantLocale: tenant?.defaultLocale ?? null,
  };
  if (seen === generation) {
    if (principals.size >= PRINCIPAL_CACHE_SIZE) principals.delete(principals.keys().next().value!);
    principals.set(key, { principal, until: now + PRINCIPAL_TTL_MS });
  }
  return principal;
}

/**
 * Who the caller is (GET /auth/me): user, tenant, roles and the permissions those roles grant
 * (`*` when one of them grants all), plus what the web console asks before showing an admin page.
 */
export async function whoAmI(em: EntityManager, p: Principal) {
  const [user, tenant] = await Promise.all([
    em.findOneOrFail(User, { tenantId: p.tenantId, id: p.userId }),
    em.findOne(Tenant, { id: p.tenantId }),
  ]);
  const can = (...anyOf: string[]) => holds(p.permissions, ...anyOf);
  return {
    user: {
      id: user.id,
      username: user.username,
      displayName: user.displayName,
      deptId: user.deptId ?? null,
      locale: user.locale ?? null,
    },
    tenant: { id: p.tenantId, name: tenant?.name ?? p.tenantId, defaultLocale: tenant?.defaultLocale ?? null },
    roles: [...p.roles],
    permissions: [...p.permissions].sort(),
    can: {
      definitionsWrite: can(Permissions.DEFINITION_WRITE),
      monitor: can(Permissions.MONITOR),
      directory: can(Permissions.DIRECTORY_MANAGE),
      admin: can(Permissions.ADMIN),
    },
  };
}
