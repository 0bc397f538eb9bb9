// Issue 8: no client input may make the service answer 500. Every case here answered 500
// before the edge checks (src/http/input.ts) and the DSL size caps existed.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { SignJWT } from 'jose';
import { request } from 'node:http';
import { api, baseUrl, createTenant, login } from '../helpers/api.js';
import { deploy, myTask, oneStep, start } from '../helpers/flow.js';
import { userChain } from '../helpers/dsl.js';

const NUL = '\u0000';
const LONE = '\uD800';
const I = '/api/v1/workflow/process-instances';
const T = '/api/v1/workflow/tasks';
const D = '/api/v1/workflow/process-definitions';

let tenantId: string;
let admin: string;
let bob: string;
let instanceId: string;
let taskId: string;

/** A body whose JSON text carries the raw escape (JSON.stringify would keep it anyway; explicit is clearer). */
const raw = (text: string) => ({ raw: text, headers: { 'Content-Type': 'application/json' } });

function deep(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

/** A deep value as JSON text, built without recursion (JSON.stringify would overflow first). */
const deepText = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

function expectRefused(res: { status: number; body: any }, path: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.code).toBe(40001);
  expect(res.body.data.fields.map((f: any) => f.path)).toContain(path);
}

beforeAll(async () => {
  ({ tenantId, adminToken: admin } = await createTenant('hostile'));
  const u = await api('/api/v1/users', { token: admin, body: { id: 'bob', username: 'bob', password: 'pw-bob' } });
  expect(u.status).toBe(201);
  bob = await login('bob', 'pw-bob', tenantId);
  await deploy(admin, oneStep('hostile', { approver: { type: 'user', userIds: ['bob'] } }));
  instanceId = await start(admin, 'hostile', { note: 'fine' });
  taskId = (await myTask(bob, instanceId)).id;
});

describe('NUL and lone surrogates are refused at the edge, naming the field', () => {
  it('in login fields', async () => {
    expectRefused(
      await api('/api/v1/auth/login', { body: { username: `ad${NUL}min`, password: 'x', tenantId } }),
      'username',
    );
    expectRefused(
      await api('/api/v1/auth/login', { body: { username: 'admin', password: `x${NUL}`, tenantId } }),
      'password',
    );
    expectRefused(
      await api('/api/v1/auth/login', { body: { username: 'admin', password: 'x', tenantId: `t${NUL}` } }),
      'tenantId',
    );
  });

  it('in path ids and query filters (decoded values)', async () => {
    expectRefused(await api(`${I}/x%00y`, { token: admin }), 'path.id');
    expectRefused(await api(`${T}/x%00y/comments`, { token: admin }), 'path.id');
    expectRefused(await api(`/api/v1/users/%00`, { token: admin }), 'path.id');
    expectRefused(
      await api(`${I}/${instanceId}/variables/a%00b`, { method: 'PUT', token: admin, body: { value: 1 } }),
      'path.variableName',
    );
    expectRefused(await api(`${I}?processKey=a%00b`, { token: admin }), 'query.processKey');
    expectRefused(await api(`${T}?assignee=%00`, { token: admin }), 'query.assignee');
    expectRefused(await api(`${D}?name=%00`, { token: admin }), 'query.name');
    expectRefused(await api(`/api/v1/users?q=%00`, { token: admin }), 'query.q');
  });

  it('in business keys, variable names and values, comments', async () => {
    expectRefused(
      await api(`${I}/start`, { token: admin, body: { processKey: 'hostile', businessKey: `bk${NUL}` } }),
      'businessKey',
    );
    expectRefused(
      await api(`${I}/start`, { token: admin, body: { processKey: 'hostile', variables: { note: `a${NUL}` } } }),
      'variables.note',
    );
    expectRefused(
      await api(`${I}/start`, { token: admin, ...raw('{"processKey":"hostile","variables":{"note":"\\ud800"}}') }),
      'variables.note',
    );
    expectRefused(
      await api(`${I}/start`, {
        token: admin,
        ...raw('{"processKey":"hostile","variables":{"list":["ok","x\\udc00"]}}'),
      }),
      'variables.list.1',
    );
    const badName = await api(`${I}/start`, {
      token: admin,
      body: { processKey: 'hostile', variables: { [`n${NUL}`]: 1 } },
    });
    expect(badName.status).toBe(400);
    expect(badName.body.data.fields[0].path).toMatch(/^variables\./);
    expectRefused(
      await api(`${I}/${instanceId}/variables`, { token: admin, body: { variables: { note: `${LONE}` } } }),
      'variables.note',
    );
    expectRefused(
      await api(`${T}/${taskId}/variables`, { token: bob, body: { variables: { note: `x${NUL}` } } }),
      'variables.note',
    );
    expectRefused(await api(`${T}/${taskId}/comments`, { token: bob, body: { comment: `hello${NUL}` } }), 'comment');
    expectRefused(await api(`${T}/${taskId}/approve`, { token: bob, body: { comment: `ok${NUL}` } }), 'comment');
    // Nothing was written: the instance still has its one variable and bob's task is open.
    const vars = await api(`${I}/${instanceId}/variables`, { token: admin });
    expect(vars.body.data).toEqual({ note: 'fine' });
    expect((await myTask(bob, instanceId)).id).toBe(taskId);
  });

  it('in directory fields', async () => {
    expectRefused(
      await api('/api/v1/users', { token: admin, body: { username: `eve${NUL}`, password: 'pw-eve' } }),
      'username',
    );
    expectRefused(
      await api('/api/v1/users', {
        token: admin,
        body: { username: 'eve', password: 'pw-eve', displayName: `E${LONE}` },
      }),
      'displayName',
    );
    expectRefused(await api('/api/v1/departments', { token: admin, body: { name: `d${NUL}` } }), 'name');
    expectRefused(
      await api('/api/v1/roles', { token: admin, body: { code: 'r1', permissions: [`p${NUL}`] } }),
      'permissions.0',
    );
    expectRefused(
      await api('/api/v1/users/bob', { method: 'PATCH', token: admin, body: { deptId: `x${NUL}` } }),
      'deptId',
    );
  });

  it('in DSL documents: deploy, draft, import (JSON and multipart file)', async () => {
    const dsl = oneStep(`k${NUL}`, { approver: { type: 'user', userIds: ['bob'] } });
    expectRefused(await api(`${D}/deploy`, { token: admin, body: { dsl } }), 'dsl.ruleChain.id');
    expectRefused(await api(`${D}`, { token: admin, body: { dsl } }), 'dsl.ruleChain.id');
    expectRefused(await api(`${D}/import`, { token: admin, body: { dsl } }), 'dsl.ruleChain.id');
    expectRefused(await api(`${D}/deploy`, { token: admin, body: { draftId: `d${NUL}` } }), 'draftId');
    const form = new FormData();
    form.set('file', new Blob([JSON.stringify(dsl)], { type: 'application/json' }), 'p.json');
    expectRefused(await api(`${D}/import`, { token: admin, raw: form }), 'file.ruleChain.id');
  });

  it('in token claims: 401 like any invalid token', async () => {
    const secret = new TextEncoder().encode(inject('jwtSecret'));
    const forge = (sub: string, tid: string) =>
      new SignJWT({ tid })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(sub)
        .setIssuer('approval-service')
        .setAudience('approval-api')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(secret);
    for (const token of [
      await forge(`bob${NUL}`, tenantId),
      await forge('bob', `${tenantId}${NUL}`),
      await forge(`b${LONE}`, tenantId),
    ]) {
      const res = await api(`${I}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body.code).toBe(40102);
    }
  });
});

describe('timestamp filters', () => {
  it('accept any valid ISO-8601 offset, normalised to UTC', async () => {
    for (const q of ['startedAfter', 'startedBefore']) {
      const res = await api(`${I}?${q}=${encodeURIComponent('2026-01-01T00:00:00+16:00')}`, { token: admin });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    for (const q of ['dueBefore', 'dueAfter']) {
      const res = await api(`${T}?${q}=${encodeURIComponent('2026-01-01T00:00:00-23:59')}`, { token: admin });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const after = await api(`${I}?startedAfter=${encodeURIComponent('2000-01-01T00:00:00+16:00')}`, { token: admin });
    expect(after.body.data.items.map((i: any) => i.id)).toContain(instanceId);
  });

  it('refuse unparsable values and years PostgreSQL would not store, naming the parameter', async () => {
    expectRefused(
      await api(`${I}?startedAfter=${encodeURIComponent('0001-01-01T00:00:00+01:00')}`, { token: admin }),
      'query.startedAfter',
    );
    expectRefused(
      await api(`${T}?dueBefore=${encodeURIComponent('9999-12-31T23:00:00-05:00')}`, { token: admin }),
      'query.dueBefore',
    );
    expectRefused(await api(`${T}?dueAfter=tomorrow`, { token: admin }), 'query.dueAfter');
  });
});

describe('JSON depth and variable size limits', () => {
  it('refuse variables nested deeper than 32 levels on every variable-writing endpoint', async () => {
    const text = deepText(5000);
    for (const [path, token, body] of [
      [`${I}/start`, admin, `{"processKey":"hostile","variables":{"v":${text}}}`],
      [`${I}/${instanceId}/variables`, admin, `{"variables":{"v":${text}}}`],
      [`${I}/${instanceId}/variables/v`, admin, `{"value":${text}}`],
      [`${T}/${taskId}/variables`, bob, `{"variables":{"v":${text}}}`],
      [`${T}/${taskId}/approve`, bob, `{"variables":{"v":${text}}}`],
      [`${T}/${taskId}/complete`, bob, `{"variables":{"v":${text}}}`],
    ] as const) {
      const res = await api(path, { method: path.endsWith('/variables/v') ? 'PUT' : 'POST', token, ...raw(body) });
      expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.data.fields[0].message).toMatch(/deeper than 32/);
      expect(res.body.data.fields[0].path).toMatch(/^(variables\.v|value)\.a/);
    }
    // Exactly at the limit is fine: the body, variables and 30 levels below v make 32.
    const ok = await api(`${I}/${instanceId}/variables`, { token: admin, body: { variables: { v: deep(30) } } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect((await myTask(bob, instanceId)).id).toBe(taskId);
  });

  it('refuse variables larger than 256 KiB serialized', async () => {
    const big = 'x'.repeat(300 * 1024);
    expectRefused(
      await api(`${I}/start`, { token: admin, body: { processKey: 'hostile', variables: { big } } }),
      'variables',
    );
    expectRefused(
      await api(`${I}/${instanceId}/variables`, { token: admin, body: { variables: { big } } }),
      'variables',
    );
    expectRefused(
      await api(`${I}/${instanceId}/variables/big`, { method: 'PUT', token: admin, body: { value: big } }),
      'value',
    );
    expectRefused(await api(`${T}/${taskId}/approve`, { token: bob, body: { variables: { big } } }), 'variables');
  });

  it('a draft cannot be created with variables its submit could not carry', async () => {
    const res = await api(`${I}/start`, {
      token: admin,
      ...raw(`{"processKey":"hostile","draft":true,"variables":{"v":${deepText(3000)}}}`),
    });
    expect(res.status).toBe(400);
  });
});

describe('definition size', () => {
  const chain = (tasks: number, key: string) => userChain(tasks, { id: key, name: key });

  it('refuses more than 500 nodes with 422 and a clear problem', async () => {
    const res = await api(`${D}/deploy`, { token: admin, body: { dsl: chain(600, 'too_big') } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(42200);
    expect(res.body.data.problems).toContainEqual(
      expect.objectContaining({ field: 'metadata.nodes', message: expect.stringContaining('at most 500') }),
    );
    const draft = await api(`${D}`, { token: admin, body: { dsl: chain(600, 'too_big') } });
    expect(draft.status).toBe(422);
  });

  it('answers the detail of an instance of the largest allowed definition quickly', async () => {
    await deploy(admin, chain(498, 'largest'));
    const id = await start(admin, 'largest');
    const t0 = performance.now();
    const res = await api(`${I}/${id}`, { token: admin });
    const ms = performance.now() - t0;
    expect(res.status).toBe(200);
    expect(res.body.data.upcoming).toHaveLength(497);
    expect(res.body.data.upcoming.every((u: any) => !u.undecided && u.approvers[0] === 'bob')).toBe(true);
    expect(ms).toBeLessThan(2000);
    const detail = await api(`${I}/${id}/detail`, { token: admin });
    expect(detail.status).toBe(200);
  });
});

describe('methods', () => {
  it('answer 405 with Allow for an undeclared method, before authentication', async () => {
    const login = await api('/api/v1/auth/login', { method: 'GET' });
    expect(login.status).toBe(405);
    expect(login.body).toMatchObject({ code: 40500, data: { allow: ['POST'] } });
    expect(login.headers.get('allow')).toBe('POST');
    const users = await api('/api/v1/users', { method: 'PUT' });
    expect(users.status).toBe(405);
    expect(users.headers.get('allow')).toBe('GET, HEAD, POST');
    const one = await api(`${I}/${instanceId}`, { method: 'PATCH' });
    expect(one.status).toBe(405);
    expect(one.headers.get('allow')).toContain('GET');
    // A literal path names its own methods, not those of the `/{id}` routes it also matches.
    const deploy = await api('/api/v1/workflow/process-definitions/deploy', { method: 'OPTIONS' });
    expect(deploy.status).toBe(405);
    expect(deploy.headers.get('allow')).toBe('POST');
    const todo = await api('/api/v1/workflow/process-instances/todo', { method: 'OPTIONS' });
    expect(todo.headers.get('allow')).toBe('GET, HEAD');
    // A declared method still authenticates, an unknown path is still 404.
    expect((await api('/api/v1/users', { method: 'GET' })).status).toBe(401);
    expect((await api('/api/v1/nothing-here', { method: 'PUT' })).status).toBe(404);
  });

  it('refuse a path with a . or .. segment as sent (URL parsing would name another resource)', async () => {
    // fetch removes dot segments before sending; node:http sends the path as given.
    const raw = (method: string, path: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(baseUrl());
        const body = method === 'GET' ? undefined : '{}';
        const headers = body ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } : {};
        const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null }));
        });
        req.on('error', reject);
        req.end(body);
      });
    // Without the check: /tasks/delegate, the GET and DELETE route of a task → 405.
    for (const path of ['/api/v1/workflow/tasks/./delegate', '/api/v1/workflow/tasks/%2E%2E/delegate']) {
      const res = await raw('POST', path);
      expect(res.status, path).toBe(400);
      expect(res.body).toMatchObject({ code: 40001, data: { fields: [{ path: 'path' }] } });
    }
    // A dot inside a segment is an ordinary id.
    expect((await raw('GET', '/api/v1/users/a.b')).status).toBe(401);
  });

  it('refuse PATCH without a change on directory endpoints', async () => {
    for (const path of ['/api/v1/users/bob', '/api/v1/roles/admin']) {
      const none = await api(path, { method: 'PATCH', token: admin });
      expect(none.status, JSON.stringify(none.body)).toBe(400);
      const empty = await api(path, { method: 'PATCH', token: admin, body: {} });
      expect(empty.status, JSON.stringify(empty.body)).toBe(400);
    }
    const dept = await api('/api/v1/departments', { token: admin, body: { id: 'd1', name: 'D1' } });
    expect(dept.status).toBe(201);
    expect((await api('/api/v1/departments/d1', { method: 'PATCH', token: admin, body: {} })).status).toBe(400);
  });
});
