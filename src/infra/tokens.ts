import {
  SignJWT,
  jwtVerify,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  type JWTPayload,
} from 'jose';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { acceptableString } from '../input-rules.js';

export interface TokenClaims {
  sub: string;
  tid: string;
}

/** What a verified token says: who, and until when (seconds since the epoch). */
export interface VerifiedClaims extends TokenClaims {
  exp: number;
}

// Each key gets exactly one algorithm family; `none` and anything else is refused.
const OWN_ALG = 'HS256';
const IDP_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'];

/**
 * Verified tokens are kept for a short while, so a request does not verify its token's signature
 * again (docs/http.md, "Authentication"). The rule: only a token that verified is kept; it is used
 * until its own `exp` (never longer) and at most VERIFIED_TTL_MS after it was verified, so a
 * signing key the identity provider withdrew stops being accepted within that time. Who the
 * token's user is and what they may do is not in here: that is the principal cache's (5 s,
 * cleared by a directory write on this replica).
 */
export const VERIFIED_TTL_MS = 60_000;
const VERIFIED_MAX = 10_000;

export class TokenService {
  private readonly verified = new Map<string, { claims: VerifiedClaims; until: number }>();
  private readonly secret: Uint8Array;
  private readonly jwks?: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly config: Config) {
    if (!config.JWT_SECRET) throw new Error('JWT_SECRET is required to issue tokens');
    this.secret = new TextEncoder().encode(config.JWT_SECRET);
    if (config.OIDC_JWKS_URL) this.jwks = createRemoteJWKSet(new URL(config.OIDC_JWKS_URL));
  }

  get ttlSeconds(): number {
    return this.config.JWT_TTL_SECONDS;
  }

  async issue(claims: TokenClaims): Promise<string> {
    return new SignJWT({ tid: claims.tid })
      .setProtectedHeader({ alg: OWN_ALG, typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuer(this.config.JWT_ISSUER)
      .setAudience(this.config.JWT_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${this.config.JWT_TTL_SECONDS}s`)
      .sign(this.secret);
  }

  async verify(token: string): Promise<VerifiedClaims> {
    const now = Date.now();
    const kept = this.verified.get(token);
    if (kept && kept.until > now) return kept.claims;
    if (kept) this.verified.delete(token);
    const claims = await this.verifySignature(token);
    // Oldest first out when full (a Map iterates in insertion order).
    if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, { claims, until: Math.min(claims.exp * 1000, now + VERIFIED_TTL_MS) });
    return claims;
  }

  private async verifySignature(token: string): Promise<VerifiedClaims> {
    let payload: JWTPayload;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg === OWN_ALG) {
        ({ payload } = await jwtVerify(token, this.secret, {
          algorithms: [OWN_ALG],
          issuer: this.config.JWT_ISSUER,
          audience: this.config.JWT_AUDIENCE,
          requiredClaims: ['exp', 'iat', 'sub'],
        }));
      } else if (this.jwks && header.alg && IDP_ALGS.includes(header.alg)) {
        ({ payload } = await jwtVerify(token, this.jwks, {
          algorithms: IDP_ALGS,
          issuer: this.config.OIDC_ISSUER,
          audience: this.config.OIDC_AUDIENCE,
          requiredClaims: ['exp', 'iat', 'sub'],
        }));
      } else {
        throw new AppError('INVALID_TOKEN', 'Token algorithm not accepted');
      }
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof joseErrors.JWTExpired) throw new AppError('INVALID_TOKEN', 'Token expired');
      throw new AppError('INVALID_TOKEN');
    }
    if (typeof payload.sub !== 'string' || typeof payload.tid !== 'string') {
      throw new AppError('INVALID_TOKEN', 'Token lacks sub or tid');
    }
    // Claims reach SQL: a string PostgreSQL cannot store makes the token invalid, like any other defect.
    if (!acceptableString(payload.sub) || !acceptableString(payload.tid)) throw new AppError('INVALID_TOKEN');
    return { sub: payload.sub, tid: payload.tid, exp: payload.exp! };
  }
}
