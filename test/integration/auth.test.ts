import { describe, expect, it, beforeAll, inject } from 'vitest';
import { SignJWT, UnsecuredJWT } from 'jose';
import { api, createTenant, login, systemAdmin } from '../helpers/api.js';

const secret = () => new TextEncoder().encode(inject('jwtSecret'));

function token(
  claims: { sub?: string; tid?: string },
  opts: { iss?: string; aud?: string; exp?: string | number; key?: Uint8Array } = {},
) {
  return new SignJWT({ tid: claims.tid ?? 'demo' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub ?? 'alice')
    .setIssuer(opts.iss ?? 'approval-service')
    .setAudience(opts.aud ?? 'approval-api')
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? '1h')
    .sign(opts.key ?? secret());
}

describe('login', () => {
  it('answers a bearer token for the right password', async () => {
    const res = await api('/api/v1/auth/login', { body: { username: 'alice', password: 'demo', tenantId: 'demo' } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data.tokenType).toBe('Bearer');
    expect(res.body.data.expiresIn).toBeGreaterThan(0);
    expect(res.body.data.accessToken.split('.')).toHaveLength(3);
  });

  it('finds the tenant when the username is unique', async () => {
    const { adminToken } = await createTenant('uniq');
    const username = `only-${Date.now()}`;
    await api('/api/v1/users', { token: adminToken, body: { username, password: 'pw-unique' } });
    const res = await api('/api/v1/auth/login', { body: { username, password: 'pw-unique' } });
    expect(res.status).toBe(200);
  });

  it('answers the same 401 for a wrong password, an unknown user and an inactive user', async () => {
    const { tenantId, adminToken } = await createTenant('auth');
    await api('/api/v1/users', {
      token: adminToken,
      body: { id: 'sleepy', username: 'sleepy', password: 'pw-sleepy', active: false },
    });
    const wrong = await api('/api/v1/auth/login', { body: { username: 'alice', password: 'nope', tenantId: 'demo' } });
    const unknown = await api('/api/v1/auth/login', {
      body: { username: 'nobody-here', password: 'demo', tenantId: 'demo' },
    });
    const inactive = await api('/api/v1/auth/login', { body: { username: 'sleepy', password: 'pw-sleepy', tenantId } });
    for (const r of [wrong, unknown, inactive]) {
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 40101, data: null, message: 'Invalid username or password' });
    }
  });

  it('asks for tenantId when the username exists in several tenants', async () => {
    await createTenant('dup');
    await createTenant('dup');
    const res = await api('/api/v1/auth/login', { body: { username: 'admin', password: 'secret-admin' } });
    // 409: the body is fine; the directory now holds the name twice (it logged in before).
    expect(res.status).toBe(409);
    expect(res.body.code).toBe(40910);
  });

  it('rate-limits repeated attempts with 429', async () => {
    const body = { username: `brute-${Date.now()}`, password: 'x', tenantId: 'demo' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api('/api/v1/auth/login', { body })).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const last = await api('/api/v1/auth/login', { body });
    expect(last.body.code).toBe(42900);
  });

  it('ignores X-Forwarded-For by default: a new address per attempt still reaches 429', async () => {
    const body = { username: `rotating-${Date.now()}`, password: 'x', tenantId: 'demo' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (await api('/api/v1/auth/login', { body, headers: { 'X-Forwarded-For': `203.0.113.${i + 1}` } })).status,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('refuses a malformed login body with 400', async () => {
    const res = await api('/api/v1/auth/login', { body: { username: 'alice' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
  });
});

describe('tokens', () => {
  const probe = (t: string, headers: Record<string, string> = {}) => api('/api/v1/roles', { token: t, headers });
  let adminDemo: string;
  beforeAll(async () => {
    adminDemo = await login('admin', 'admin', 'demo');
  });

  it('accepts a valid token', async () => {
    expect((await probe(adminDemo)).status).toBe(200);
    expect((await probe(await token({ sub: 'admin' }))).status).toBe(200);
  });

  it('refuses no token, an expired token, a bad signature, alg none, a wrong issuer or audience with 401', async () => {
    const expired = await token({ sub: 'admin' }, { exp: Math.floor(Date.now() / 1000) - 60 });
    const badSig = await token({ sub: 'admin' }, { key: new TextEncoder().encode('x'.repeat(48)) });
    const none = new UnsecuredJWT({ tid: 'demo' })
      .setSubject('admin')
      .setIssuer('approval-service')
      .setAudience('approval-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    const wrongIss = await token({ sub: 'admin' }, { iss: 'someone-else' });
    const wrongAud = await token({ sub: 'admin' }, { aud: 'other-api' });
    const tampered = adminDemo.slice(0, -4) + 'AAAA';
    const noAuth = await api('/api/v1/roles');
    expect(noAuth.status).toBe(401);
    expect(noAuth.body.code).toBe(40100);
    for (const t of [expired, badSig, none, wrongIss, wrongAud, tampered, 'not-a-jwt']) {
      const res = await probe(t);
      expect(res.status, t).toBe(401);
      expect(res.body.code).toBe(40102);
      expect(res.body.data).toBeNull();
    }
  });

  it('refuses a token naming a user that does not exist', async () => {
    expect((await probe(await token({ sub: 'ghost' }))).status).toBe(401);
  });

  it('answers 403 when X-Tenant-Id differs from the token tenant', async () => {
    const res = await probe(adminDemo, { 'X-Tenant-Id': 'system' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(40301);
    expect((await probe(adminDemo, { 'X-Tenant-Id': 'demo' })).status).toBe(200);
  });

  it("never shows another tenant's objects (404)", async () => {
    const { adminToken } = await createTenant('iso');
    const res = await api('/api/v1/users/alice', { token: adminToken });
    expect(res.status).toBe(404);
    expect((await api('/api/v1/users/alice', { token: adminDemo })).status).toBe(200);
  });

  it('lets only the system tenant create tenants', async () => {
    const res = await api('/api/v1/tenants', {
      token: adminDemo,
      body: { id: 'nope', name: 'x', admin: { username: 'a', password: 'abcd' } },
    });
    expect(res.status).toBe(403);
    const sys = await systemAdmin();
    expect(
      (
        await api('/api/v1/tenants', {
          token: sys,
          body: { id: 'nope', name: 'x', admin: { username: 'a', password: 'abcd' }, extra: 1 },
        })
      ).status,
    ).toBe(400);
  });
});

describe('who am I (GET /auth/me)', () => {
  it('answers the user, tenant, roles and permissions of the token, and which admin areas they open', async () => {
    const res = await api('/api/v1/auth/me', { token: await login('alice', 'demo', 'demo') });
    expect(res.status).toBe(200);
    const me = res.body.data;
    expect(me.user).toMatchObject({ id: 'alice', username: 'alice' });
    expect(me.tenant.id).toBe('demo');
    expect(me.tenant.name.length).toBeGreaterThan(0);
    expect(me.roles.length).toBeGreaterThan(0);
    expect(me.permissions).toContain('approval:operate');
    expect(me.permissions).toEqual([...me.permissions].sort());
    expect(me.can).toEqual({ definitionsWrite: false, monitor: false, directory: false, admin: false });
  });

  it("answers the user's chosen language, which the console adopts", async () => {
    const { adminToken, tenantId } = await createTenant('loc');
    const created = await api('/api/v1/users', {
      token: adminToken,
      body: { id: 'li', username: 'li', password: 'pw-li', locale: 'zh-CN' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const me = (await api('/api/v1/auth/me', { token: await login('li', 'pw-li', tenantId) })).body.data;
    expect(me.user.locale).toBe('zh-CN');
    expect((await api('/api/v1/auth/me', { token: adminToken })).body.data.user.locale).toBeNull();
  });

  it("a tenant's admin holds everything: every admin area is open", async () => {
    const { tenantId, adminToken } = await createTenant('me');
    const res = await api('/api/v1/auth/me', { token: adminToken });
    expect(res.status).toBe(200);
    expect(res.body.data.tenant).toEqual({ id: tenantId, name: `Tenant ${tenantId}`, defaultLocale: null });
    expect(res.body.data.user.username).toBe('admin');
    expect(res.body.data.can).toEqual({ definitionsWrite: true, monitor: true, directory: true, admin: true });
  });

  it('follows a role change at once, and refuses no token or a bad one with 401', async () => {
    const { tenantId, adminToken } = await createTenant('me2');
    const post = (path: string, body: unknown) => api(path, { token: adminToken, body });
    expect((await post('/api/v1/roles', { code: 'watcher', permissions: ['workflow:monitor'] })).status).toBe(201);
    expect((await post('/api/v1/roles', { code: 'plain', permissions: [] })).status).toBe(201);
    const user = { id: 'wes', username: 'wes', password: 'pw-wes', roles: ['watcher'] };
    expect((await post('/api/v1/users', user)).status).toBe(201);
    const wes = await login('wes', 'pw-wes', tenantId);
    const me = (await api('/api/v1/auth/me', { token: wes })).body.data;
    expect(me.roles).toEqual(['watcher']);
    expect(me.permissions).toEqual(['workflow:monitor']);
    expect(me.can).toEqual({ definitionsWrite: false, monitor: true, directory: false, admin: false });
    const patch = await api('/api/v1/users/wes', { method: 'PATCH', token: adminToken, body: { roles: ['plain'] } });
    expect(patch.status).toBe(200);
    const after = (await api('/api/v1/auth/me', { token: wes })).body.data;
    expect(after.permissions).toEqual([]);
    expect(after.can.monitor).toBe(false);
    for (const auth of [undefined, 'not-a-token']) {
      const res = await api('/api/v1/auth/me', { token: auth });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(auth ? 40102 : 40100);
    }
  });
});
