// The verified-token cache (src/infra/tokens.ts, docs/http.md "Authentication"): a verified token
// is not verified again until its own exp and at most VERIFIED_TTL_MS; a failed one is never kept.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignJWT } from 'jose';
import { TokenService, VERIFIED_TTL_MS } from '../../src/infra/tokens.js';
import type { Config } from '../../src/config.js';

const config = {
  JWT_SECRET: 'x'.repeat(48),
  JWT_ISSUER: 'approval-service',
  JWT_AUDIENCE: 'approval-api',
  JWT_TTL_SECONDS: 3600,
} as Config;
const secret = new TextEncoder().encode(config.JWT_SECRET);

/** A token of ours that expires `ttlS` seconds from now. */
const tokenFor = (ttlS: number) =>
  new SignJWT({ tid: 'demo' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject('bob')
    .setIssuer(config.JWT_ISSUER)
    .setAudience(config.JWT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttlS)
    .sign(secret);

afterEach(() => vi.useRealTimers());

describe('verified-token cache', () => {
  it('verifies a token once within the cache time, and again after it', async () => {
    const tokens = new TokenService(config);
    const spy = vi.spyOn(tokens as unknown as { verifySignature(t: string): Promise<unknown> }, 'verifySignature');
    const token = await tokenFor(3600);
    expect(await tokens.verify(token)).toMatchObject({ sub: 'bob', tid: 'demo' });
    await tokens.verify(token);
    expect(spy).toHaveBeenCalledTimes(1);
    vi.useFakeTimers({ now: Date.now() + VERIFIED_TTL_MS + 1, toFake: ['Date'] });
    await tokens.verify(token);
    expect(spy).toHaveBeenCalledTimes(2);
  });

  it('never answers from the cache past the token’s own exp', async () => {
    const tokens = new TokenService(config);
    const token = await tokenFor(2);
    await tokens.verify(token);
    vi.useFakeTimers({ now: Date.now() + 3_000, toFake: ['Date'] });
    await expect(tokens.verify(token)).rejects.toMatchObject({ type: 'INVALID_TOKEN' });
  });

  it('keeps no token that failed', async () => {
    const tokens = new TokenService(config);
    const spy = vi.spyOn(tokens as unknown as { verifySignature(t: string): Promise<unknown> }, 'verifySignature');
    const forged = (await tokenFor(3600)).slice(0, -2) + 'xx';
    await expect(tokens.verify(forged)).rejects.toMatchObject({ type: 'INVALID_TOKEN' });
    await expect(tokens.verify(forged)).rejects.toMatchObject({ type: 'INVALID_TOKEN' });
    expect(spy).toHaveBeenCalledTimes(2);
  });
});
