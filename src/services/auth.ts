import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import { User } from '../db/entities/index.js';
import { verifyPassword } from '../infra/passwords.js';
import type { TokenService } from '../infra/tokens.js';
import { permissionsOf } from './directory.js';
import type { Principal } from '../context.js';

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

/** Loads who is calling; an unknown or inactive user gets 401 even with a valid token. */
export async function loadPrincipal(em: EntityManager, tenantId: string, userId: string): Promise<Principal> {
  const user = await em.findOne(User, { tenantId, id: userId });
  if (!user || !user.active) throw new AppError('INVALID_TOKEN', 'The token names no active user');
  return {
    tenantId,
    userId,
    username: user.username,
    roles: user.roles,
    deptId: user.deptId ?? null,
    permissions: await permissionsOf(em, tenantId, user.roles),
  };
}
