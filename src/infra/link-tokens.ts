// Signed one-time approval links (docs/task-actions.md#one-time-approval-links). The token only
// names a link row and who may use it for what; single use, revocation and the task's state are
// checked in PostgreSQL. Its own audience, so a link is never a login token and a login token is
// never a link.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { acceptableString } from '../input-rules.js';

export type LinkAction = 'approve' | 'reject';
export const LINK_ACTIONS: readonly LinkAction[] = ['approve', 'reject'];

export interface LinkClaims {
  /** link id (jti) */
  id: string;
  tenantId: string;
  taskId: string;
  userId: string;
  actions: LinkAction[];
}

const ALG = 'HS256';
const audienceOf = (config: Config) => `${config.JWT_AUDIENCE}:approval-link`;

function keyOf(config: Config): Uint8Array {
  const secret = config.APPROVAL_LINK_SECRET ?? config.JWT_SECRET;
  if (!secret) throw new AppError('UNAVAILABLE', 'Approval links need APPROVAL_LINK_SECRET (or JWT_SECRET)');
  return new TextEncoder().encode(secret);
}

export async function signLink(config: Config, claims: LinkClaims, expiresAt: Date): Promise<string> {
  return new SignJWT({ tid: claims.tenantId, task: claims.taskId, act: claims.actions })
    .setProtectedHeader({ alg: ALG, typ: 'approval-link+jwt' })
    .setJti(claims.id)
    .setSubject(claims.userId)
    .setIssuer(config.JWT_ISSUER)
    .setAudience(audienceOf(config))
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(keyOf(config));
}

/**
 * The claims of a link whose signature holds: 401 `LINK_INVALID` for anything malformed, forged
 * or signed for something else; 410 `LINK_GONE` once it has expired.
 */
export async function verifyLink(config: Config, token: string): Promise<LinkClaims> {
  let payload;
  try {
    ({ payload } = await jwtVerify(token, keyOf(config), {
      algorithms: [ALG],
      issuer: config.JWT_ISSUER,
      audience: audienceOf(config),
      requiredClaims: ['exp', 'iat', 'sub', 'jti'],
    }));
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired)
      throw new AppError('LINK_GONE', 'This approval link has expired', { reason: 'expired' });
    throw new AppError('LINK_INVALID');
  }
  const { sub, jti, tid, task, act } = payload;
  const strings = [sub, jti, tid, task];
  if (
    !strings.every((v): v is string => typeof v === 'string' && acceptableString(v)) ||
    !Array.isArray(act) ||
    !act.length ||
    !act.every((a) => LINK_ACTIONS.includes(a as LinkAction))
  ) {
    throw new AppError('LINK_INVALID');
  }
  return { id: jti!, tenantId: tid as string, taskId: task as string, userId: sub!, actions: act as LinkAction[] };
}
