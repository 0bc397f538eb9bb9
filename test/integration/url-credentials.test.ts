// Credentials in URLs stay write-only (docs/http.md "Credentials in URLs"): a `user:password@` is
// refused at save, naming the field; a secret query parameter (`token`, `api_key`, …) is stored and
// used, but every read answers it as `***` — also to a reader with definition access only — and the
// answered URL sent back keeps the stored credential. For AI agents, service functions and webhook
// channels, over real HTTP with a local receiver that sees what the worker really sends.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { api, createDemoLikeTenant, expectError } from '../helpers/api.js';
import { deploy, eventually, instance, start } from '../helpers/flow.js';
import { graphDoc as doc, node, user, wire } from '../helpers/dsl.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';

const AGENTS = '/api/v1/ai-agents';
const FUNCTIONS = '/api/v1/service-functions';
const CHANNELS = '/api/v1/notification-channels';
const TOKEN = 'tok-5f1e9b27-only-the-receiver-sees-this';
const SECRET = 'webhook-secret-0123456789';

let t: Record<string, string>;
let db: any;
let receiver: Receiver;
/** Every request the receiver got: its path with the query, as sent. */
const received: string[] = [];
const local = (pathAndQuery: string) => `http://localhost:${receiver.port}${pathAndQuery}`;

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('uc'));
  receiver = await startReceiver((req, _body, res) => {
    received.push(req.url!);
    // A careless receiver that echoes the request, credentials and all, in its refusal.
    if (req.url!.startsWith('/echo')) return res.writeHead(401).end(`bad credentials in ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
  await receiver?.close();
});

/** A reader: `workflow:definition:read` (alice is an employee), not `workflow:admin`. */
const read = async (path: string) => {
  const res = await api(path, { token: t.alice });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const put = (path: string, body: unknown) => api(path, { method: 'PUT', token: t.admin, body });

describe('service functions', () => {
  const url = () => local(`/hook?token=${TOKEN}&x=1`);
  const answered = () => local('/hook?token=***&x=1');
  /** start → fn → bob's review → end, with a Failure edge to carol's fallback. */
  const fnDoc = (k: string, functionName: string) =>
    doc(
      k,
      [
        node('s', 'startTask'),
        node('fn', 'serviceTask', { functionName }),
        user('review', ['bob']),
        user('fallback', ['carol']),
        node('end', 'end'),
      ],
      wire('s>fn fn>review fn>fallback:Failure review>end fallback>end'),
    );
  const at = (id: string, nodeId: string) =>
    eventually(
      () => instance(t.admin, id),
      (i) => (i.currentNodes as string[]).includes(nodeId),
      30_000,
    );

  it('refuses a user:password@ in url at save, naming the field, and stores nothing', async () => {
    const res = await api(FUNCTIONS, {
      token: t.admin,
      body: { name: 'Cred.userinfo', kind: 'webhook', url: local('/hook').replace('://', '://u:pw@'), secret: SECRET },
    });
    expectError(res, 400, 40001);
    expect(res.body.data.fields).toEqual([
      { path: 'url', message: expect.stringContaining('must not carry a user name or password (user:password@)') },
    ]);
    expect(res.body.data.fields[0].message).toContain('x-gflow-signature');
    expectError(await api(`${FUNCTIONS}/Cred.userinfo`, { token: t.admin }), 404, 40400);
  });

  it('answers a secret query parameter as ***, keeps it when the answer is sent back, and calls with it', async () => {
    const created = await api(FUNCTIONS, {
      token: t.admin,
      body: { name: 'Cred.hook', kind: 'webhook', url: url(), secret: SECRET, timeoutMs: 5000 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.url).toBe(answered());

    const one = await read(`${FUNCTIONS}/Cred.hook`);
    const list = await read(`${FUNCTIONS}?pageSize=200`);
    expect(one.data.url).toBe(answered());
    expect(JSON.stringify([created.body, one, list])).not.toContain(TOKEN);

    // Read, change the description, write back: the stored token stays.
    const { kind, url: shown, timeoutMs, retry } = one.data;
    const edited = await put(`${FUNCTIONS}/Cred.hook`, { kind, url: shown, timeoutMs, retry, description: 'edited' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ url: answered(), description: 'edited' });
    expect(JSON.stringify(edited.body)).not.toContain(TOKEN);

    // *** elsewhere (another path) stands for nothing: refused, the entry unchanged.
    const moved = await put(`${FUNCTIONS}/Cred.hook`, { kind, url: local('/elsewhere?token=***&x=1') });
    expectError(moved, 400, 40001);
    expect(moved.body.data.fields).toEqual([{ path: 'url', message: expect.stringContaining('token') }]);
    expect((await read(`${FUNCTIONS}/Cred.hook`)).data.url).toBe(answered());

    // The call reaches the receiver with the whole token.
    await deploy(t.admin, fnDoc('uc_hook', 'Cred.hook'));
    const id = await start(t.alice, 'uc_hook');
    await at(id, 'review');
    expect(received).toContain(`/hook?token=${TOKEN}&x=1`);

    // The deployed definition pins the function, URL and all: its readers see it redacted too.
    const defs = await read('/api/v1/workflow/process-definitions?pageSize=100');
    const def = (await read('/api/v1/workflow/process-definitions/key/uc_hook')).data;
    const shownDef = await read(`/api/v1/workflow/process-definitions/${def.id}`);
    expect(shownDef.data.dsl.functions['Cred.hook'].url).toBe(answered());
    expect(JSON.stringify([defs, shownDef])).not.toContain(TOKEN);
    const compared = await read(`/api/v1/workflow/process-definitions/${def.id}/compare/${def.id}`);
    expect(JSON.stringify(compared)).not.toContain(TOKEN);
  });

  it('a refusal echoing the URL puts no credential into the trail', async () => {
    await api(FUNCTIONS, {
      token: t.admin,
      body: {
        name: 'Cred.echo',
        kind: 'webhook',
        url: local(`/echo?api_key=${TOKEN}`),
        secret: SECRET,
        timeoutMs: 5000,
        retry: { maximumAttempts: 1 },
      },
    });
    await deploy(t.admin, fnDoc('uc_echo', 'Cred.echo'));
    const id = await start(t.alice, 'uc_echo');
    const inst = await at(id, 'fallback');
    expect(received).toContain(`/echo?api_key=${TOKEN}`);
    const trail = JSON.stringify(inst.trail);
    expect(trail).toContain('answered 401: bad credentials in /echo?api_key=***');
    expect(trail).not.toContain(TOKEN);
  });
});

describe('AI agents', () => {
  const body = (baseUrl: string) => ({ agentId: 'cred-agent', baseUrl, model: 'm', apiKey: 'sk-never-shown' });

  it('refuses a user:password@ in baseUrl at save, pointing to apiKey, and stores nothing', async () => {
    const res = await api(AGENTS, { token: t.admin, body: body(`http://bob:${TOKEN}@localhost:11434/v1`) });
    expectError(res, 400, 40001);
    expect(res.body.data.fields).toEqual([{ path: 'baseUrl', message: expect.stringContaining('apiKey') }]);
    expect(res.body.message).toContain('user:password@');
    expect(res.body.message).not.toContain(TOKEN);
    expectError(await api(`${AGENTS}/cred-agent`, { token: t.admin }), 404, 40400);
  });

  it('answers a secret query parameter as ***; the answered baseUrl sent back keeps it', async () => {
    const stored = `http://localhost:11434/v1?api-version=2024&api_key=${TOKEN}`;
    const shown = 'http://localhost:11434/v1?api-version=2024&api_key=***';
    const created = await api(AGENTS, { token: t.admin, body: body(stored) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.baseUrl).toBe(shown);

    const one = await read(`${AGENTS}/cred-agent`);
    const list = await read(AGENTS);
    expect(one.data.baseUrl).toBe(shown);
    expect(JSON.stringify([created.body, one, list])).not.toContain(TOKEN);

    const { baseUrl, model, timeoutMs } = one.data;
    const edited = await put(`${AGENTS}/cred-agent`, { name: 'Renamed', baseUrl, model, timeoutMs });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ name: 'Renamed', baseUrl: shown, hasApiKey: true });
    const baseUrlOf = async () =>
      (await db.query(`select base_url from ai_agents where agent_id = 'cred-agent'`)).rows[0].base_url;
    expect(await baseUrlOf()).toBe(stored);

    const elsewhere = await put(`${AGENTS}/cred-agent`, {
      baseUrl: 'http://attacker.example/v1?api-version=2024&api_key=***',
      model,
    });
    expectError(elsewhere, 400, 40001);
    expect(elsewhere.body.data.fields[0].path).toBe('baseUrl');
    expect(await baseUrlOf()).toBe(stored);
  });
});

describe('webhook channels', () => {
  const settings = (url: string, extra: Record<string, unknown> = {}) => ({ url, ...extra });

  it('refuses a user:password@ in settings.url at save, naming the field', async () => {
    const res = await api(CHANNELS, {
      token: t.admin,
      body: {
        name: 'cred-userinfo',
        kind: 'webhook',
        settings: settings(local('/chan').replace('://', `://u:${TOKEN}@`), { secret: SECRET }),
      },
    });
    expectError(res, 400, 40001);
    expect(res.body.data.fields).toEqual([
      { path: 'settings.url', message: expect.stringContaining('user:password@') },
    ]);
    const names = (await api(`${CHANNELS}?pageSize=200`, { token: t.admin })).body.data.items.map((c: any) => c.name);
    expect(names).not.toContain('cred-userinfo');
  });

  it('answers a secret query parameter as ***; the answered url sent back keeps it; messages carry it', async () => {
    const created = await api(CHANNELS, {
      token: t.admin,
      body: {
        name: 'cred-hook',
        kind: 'webhook',
        settings: settings(local(`/chan?access_token=${TOKEN}`), { secret: SECRET }),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.data.id as string;
    expect(created.body.data.settings.url).toBe(local('/chan?access_token=***'));

    const one = await api(`${CHANNELS}/${id}`, { token: t.admin });
    const list = await api(`${CHANNELS}?pageSize=200`, { token: t.admin });
    expect(one.body.data.settings.url).toBe(local('/chan?access_token=***'));
    expect(JSON.stringify([created.body, one.body, list.body])).not.toContain(TOKEN);

    // The channel as read, renamed and written back (the signing secret not sent: kept).
    const { name: _name, kind, enabled, kinds, settings: shown } = one.body.data;
    const edited = await put(`${CHANNELS}/${id}`, { name: 'cred-hook-2', kind, enabled, kinds, settings: shown });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.settings.url).toBe(local('/chan?access_token=***'));
    expect(JSON.stringify(edited.body)).not.toContain(TOKEN);

    const elsewhere = await put(`${CHANNELS}/${id}`, {
      name: 'cred-hook-2',
      kind,
      settings: settings(local('/other?access_token=***')),
    });
    expectError(elsewhere, 400, 40001);
    expect(elsewhere.body.data.fields).toEqual([
      { path: 'settings.url', message: expect.stringContaining('access_token') },
    ]);

    const test = await api(`${CHANNELS}/${id}/test`, { token: t.admin, body: {} });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    expect(test.body.data.ok, JSON.stringify(test.body)).toBe(true);
    expect(received).toContain(`/chan?access_token=${TOKEN}`);
  });
});
