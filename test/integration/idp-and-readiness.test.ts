// A server configured with an external identity provider (JWKS) and an unreachable Temporal:
// IdP tokens are accepted, others refused, and /readyz reports the missing dependency; a request
// that needs Temporal answers 503.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { userChain } from '../helpers/dsl.js';

const root = path.resolve(import.meta.dirname, '../..');
let server: ChildProcess;
let jwks: http.Server;
let base = '';
let idpKey: CryptoKey;
let otherKey: CryptoKey;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  idpKey = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  jwks = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((r) => jwks.listen(0, '127.0.0.1', () => r()));
  const jwksPort = (jwks.address() as net.AddressInfo).port;
  const [port, deadTemporal] = await Promise.all([freePort(), freePort()]);
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PORT: String(port),
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: `127.0.0.1:${deadTemporal}`,
      JWT_SECRET: inject('jwtSecret'),
      OIDC_JWKS_URL: `http://127.0.0.1:${jwksPort}/jwks`,
      OIDC_ISSUER: 'https://idp.example',
      OIDC_AUDIENCE: 'approvals',
    },
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ok = await fetch(`${base}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}, 90_000);

afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise<void>((r) => jwks?.close(() => r()));
});

const idpToken = (key: CryptoKey, claims: { iss?: string; aud?: string; sub?: string } = {}) =>
  new SignJWT({ tid: 'demo' })
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setSubject(claims.sub ?? 'admin')
    .setIssuer(claims.iss ?? 'https://idp.example')
    .setAudience(claims.aud ?? 'approvals')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(key);

const roles = (token: string) => fetch(`${base}/api/v1/roles`, { headers: { Authorization: `Bearer ${token}` } });

describe('external identity provider', () => {
  it("accepts the IdP's tokens and maps them to the directory user", async () => {
    const res = await roles(await idpToken(idpKey));
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).data.total).toBeGreaterThan(0);
  });

  it('refuses a token signed by another key, or with the wrong issuer or audience', async () => {
    for (const t of [
      await idpToken(otherKey),
      await idpToken(idpKey, { iss: 'https://evil.example' }),
      await idpToken(idpKey, { aud: 'other' }),
    ]) {
      const res = await roles(t);
      expect(res.status).toBe(401);
    }
  });

  it('refuses an IdP token for a user the directory does not have', async () => {
    expect((await roles(await idpToken(idpKey, { sub: 'stranger' }))).status).toBe(401);
  });
});

describe('readiness', () => {
  it('answers 503 naming Temporal when it is unreachable, while /healthz stays up', async () => {
    const res = await fetch(`${base}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: 'unavailable', checks: { postgres: true, temporal: false } });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  // After the Temporal client's own retries of the unreachable server, about 20 s.
  it('answers a start 503 in the envelope while Temporal is unreachable (not a 500)', async () => {
    const post = async (url: string, body: unknown) =>
      fetch(`${base}/api/v1/workflow/${url}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${await idpToken(idpKey)}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(
      (
        await post('process-definitions/deploy', {
          dsl: userChain(1, { id: 'unreachable_temporal', name: 'unreachable_temporal' }),
        })
      ).status,
    ).toBe(201);
    const res = await post('process-instances/start', { processKey: 'unreachable_temporal', variables: {} });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 50300 });
  });
});
