import { randomUUID } from 'node:crypto';
import { expect, inject } from 'vitest';

export interface ApiResponse<T = any> {
  status: number;
  body: { code: number; data: T; message: string };
  headers: Headers;
}

export interface RequestOpts {
  method?: string;
  body?: unknown;
  raw?: string | FormData;
  token?: string;
  headers?: Record<string, string>;
}

export const baseUrl = () => inject('baseUrl');

export async function api<T = any>(path: string, opts: RequestOpts = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  let body: string | FormData | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl()}${path}`, { method: opts.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await res.text();
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

export async function login(username: string, password: string, tenantId?: string): Promise<string> {
  const res = await api('/api/v1/auth/login', { body: { username, password, ...(tenantId ? { tenantId } : {}) } });
  if (res.status !== 200)
    throw new Error(`login ${username}@${tenantId} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.accessToken;
}

export const systemAdmin = () => login('admin', 'admin', 'system');

/** POST that must answer 201 (setup, not under test). */
export async function create(token: string, path: string, body: unknown) {
  const r = await api(path, { token, body });
  if (r.status !== 201) throw new Error(`${path} ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** A refusal: this status and error code in the envelope. */
export function expectError(res: { status: number; body: any }, status: number, code: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code, JSON.stringify(res.body)).toBe(code);
  expect(res.body.data === null || typeof res.body.data === 'object').toBe(true);
}

/** Who got a notification of `kind` about the instance (the outbox the WebSocket pushes from), in order. */
export async function notifiedUsers(db: any, instanceId: string, kind: string): Promise<string[]> {
  const res = await db.query(`select user_id from notifications where instance_id = $1 and kind = $2 order by id`, [
    instanceId,
    kind,
  ]);
  return (res.rows as any[]).map((r) => r.user_id);
}

/** A fresh tenant with its admin; isolated from other test files. */
export async function createTenant(prefix = 't'): Promise<{ tenantId: string; adminToken: string }> {
  const tenantId = `${prefix}-${randomUUID().slice(0, 8)}`;
  const res = await api('/api/v1/tenants', {
    token: await systemAdmin(),
    body: { id: tenantId, name: `Tenant ${tenantId}`, admin: { username: 'admin', password: 'secret-admin' } },
  });
  if (res.status !== 201) throw new Error(`tenant creation failed: ${JSON.stringify(res.body)}`);
  return { tenantId, adminToken: await login('admin', 'secret-admin', tenantId) };
}

/**
 * A tenant with the demo directory (docs/contract.md#directory-and-demo-tenant): departments, managers, roles.
 * Returns tokens by user id.
 */
export async function createDemoLikeTenant(prefix = 'd') {
  const { tenantId, adminToken } = await createTenant(prefix);
  const post = (path: string, body: unknown) => create(adminToken, path, body);
  await post('/api/v1/roles', {
    code: 'employee',
    permissions: ['workflow:instance:start', 'approval:create', 'approval:operate', 'workflow:definition:read'],
  });
  await post('/api/v1/roles', { code: 'finance', permissions: [] });
  await post('/api/v1/roles', {
    code: 'designer',
    permissions: ['workflow:definition:read', 'workflow:definition:write'],
  });
  for (const d of ['eng', 'exec', 'hr', 'finance']) await post('/api/v1/departments', { id: d, name: d });
  const users: Array<[string, string, string | null, string[]]> = [
    ['dave', 'exec', null, ['employee']],
    ['carol', 'exec', 'dave', ['employee']],
    ['bob', 'eng', 'carol', ['employee']],
    ['alice', 'eng', 'bob', ['employee']],
    ['erin', 'hr', 'carol', ['employee']],
    ['frank', 'finance', 'dave', ['employee', 'finance']],
    ['grace', 'finance', 'frank', ['employee', 'finance']],
  ];
  for (const [id, deptId, managerId, roles] of users) {
    await post('/api/v1/users', { id, username: id, password: 'pw-' + id, deptId, managerId, roles });
  }
  for (const [dept, leader] of [
    ['eng', 'bob'],
    ['exec', 'dave'],
    ['hr', 'erin'],
    ['finance', 'frank'],
  ]) {
    const r = await api(`/api/v1/departments/${dept}`, {
      method: 'PATCH',
      token: adminToken,
      body: { leaderId: leader },
    });
    if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  }
  const tokens: Record<string, string> = { admin: adminToken };
  for (const [id] of users) tokens[id] = await login(id, 'pw-' + id, tenantId);
  return { tenantId, tokens };
}
