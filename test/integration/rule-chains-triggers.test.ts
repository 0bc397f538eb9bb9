// A chain's triggers over real HTTP and the real Temporal (docs/rule-chains.md): HTTP hooks signed
// with the chain's secret or called with a JWT (200 with the output when the route waits, 202 with
// the run id when it does not, 401 and no run for a bad signature), and a Temporal Schedule that
// fires while the chain is started and is gone once it stops.
import { createHmac } from 'node:crypto';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { Client, Connection, ScheduleNotFoundError } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api as envelopeApi, createDemoLikeTenant, expectError, type RequestOpts } from '../helpers/api.js';
import { eventually } from '../helpers/flow.js';

const P = '/rulego/api/v1';
const api = (path: string, opts: RequestOpts = {}) =>
  envelopeApi(path, opts) as Promise<{ status: number; body: any; headers: Headers }>;

let t: Record<string, string>;
let tenantId: string;
let db: any;
let temporal: Client;
let connection: Connection;

const node = (id: string, type: string, configuration: Record<string, unknown> = {}) => ({
  id,
  type,
  name: id,
  configuration,
});
const httpEndpoint = {
  id: 'in',
  type: 'endpoint/http',
  name: 'in',
  configuration: {},
  routers: [
    { id: 'r1', params: ['POST'], from: { path: '/orders' }, to: { path: 'hooked', wait: true } },
    { id: 'r2', params: ['POST'], from: { path: '/async' }, to: { path: 'hooked' } },
    { id: 'r3', params: ['GET'], from: { path: '/items/:itemId' }, to: { path: 'hooked', wait: true } },
  ],
};
const hooked = {
  ruleChain: { id: 'hooked', name: 'Hooked' },
  metadata: {
    endpoints: [httpEndpoint],
    nodes: [node('t', 'exprTransform', { mapping: { got: 'msg', item: 'metadata.itemId', type: 'msgType' } })],
    connections: [],
  },
};

const sign = (secret: string, ts: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${ts}.${body}`).digest('hex')}`;
const now = () => String(Math.floor(Date.now() / 1000));
const runsOf = async (chainId: string) =>
  Number(
    (await db.query('select count(*) from rule_chain_runs where tenant_id = $1 and chain_id = $2', [tenantId, chainId]))
      .rows[0].count,
  );

let secret: string;
const hook = (path: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') =>
  api(`${P}/hooks/${tenantId}/hooked${path}`, {
    method,
    ...(method === 'GET' ? {} : { raw: JSON.stringify(body) }),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
const signed = (path: string, body: unknown, ts = now()) =>
  hook(path, body, { 'x-gflow-timestamp': ts, 'x-gflow-signature': sign(secret, ts, JSON.stringify(body)) });

beforeAll(async () => {
  ({ tenantId, tokens: t } = await createDemoLikeTenant('rct'));
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  connection = await Connection.connect({ address: inject('temporalAddress') });
  temporal = new Client({ connection });
  const saved = await api(`${P}/rules/hooked`, { token: t.admin, body: hooked });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  secret = (await api(`${P}/rules/hooked/hook-secret`, { token: t.admin })).body.secret;
});

afterAll(async () => {
  await db?.end();
  await connection?.close();
});

describe('HTTP hooks', () => {
  it('a signed request to a waiting route answers the output; the run records the hook', async () => {
    const res = await signed('/orders', { id: 7 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ got: { id: 7 }, item: null, type: '/orders' });
    const runId = res.headers.get('x-run-id')!;
    const run = await eventually(
      () => api(`${P}/logs/runs/${runId}`, { token: t.admin }),
      (r) => r.status === 200 && r.body.status === 'succeeded',
    );
    expect(run.body.trigger).toMatchObject({ kind: 'http', endpointId: 'in', path: '/orders' });
  });

  it('a route that does not wait answers 202 with the run id', async () => {
    const res = await signed('/async', { id: 8 });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await eventually(
      () => api(`${P}/logs/runs/${res.body.runId}`, { token: t.admin }),
      (r) => r.status === 200 && r.body.status === 'succeeded',
    );
  });

  it('a GET route: path parameters into the metadata, the query as the message', async () => {
    const res = await api(`${P}/hooks/${tenantId}/hooked/items/42?color=red`, { token: t.alice });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ got: { color: 'red' }, item: '42' });
  });

  it('a wrong, missing or stale signature is 401 and starts no run', async () => {
    const before = await runsOf('hooked');
    const body = JSON.stringify({ id: 9 });
    const ts = now();
    const cases: Array<Record<string, string>> = [
      {},
      { 'x-gflow-timestamp': ts, 'x-gflow-signature': sign('not-the-secret', ts, body) },
      { 'x-gflow-timestamp': ts, 'x-gflow-signature': sign(secret, ts, body + ' ') },
      {
        'x-gflow-timestamp': String(Number(ts) - 600),
        'x-gflow-signature': sign(secret, String(Number(ts) - 600), body),
      },
      { 'x-gflow-timestamp': ts, 'x-gflow-signature': 'sha256=zz' },
    ];
    for (const headers of cases) {
      const res = await api(`${P}/hooks/${tenantId}/hooked/async`, {
        raw: body,
        headers: { 'Content-Type': 'application/json', ...headers },
      });
      expectError(res, 401, 40190);
      expect(res.body.error).toBe(res.body.message);
    }
    // Another tenant's user is no credential here.
    const { tokens: others } = await createDemoLikeTenant('rcx');
    expectError(await hook('/async', {}, { Authorization: `Bearer ${others.alice}` }), 401, 40190);
    await new Promise((r) => setTimeout(r, 500));
    expect(await runsOf('hooked')).toBe(before);
  });

  it('an unknown chain or route is 404; a stopped chain 409', async () => {
    expectError(await api(`${P}/hooks/${tenantId}/nope/orders`, { body: {} }), 404, 40400);
    expectError(await signed('/nowhere', {}), 404, 40400);
    expectError(await hook('/orders', {}, {}, 'PUT'), 404, 40400);
    expect((await api(`${P}/rules/hooked/operate/stop`, { token: t.admin, method: 'POST' })).status).toBe(200);
    expectError(await signed('/orders', { id: 1 }), 409, 40980);
    expect((await api(`${P}/rules/hooked/operate/start`, { token: t.admin, method: 'POST' })).status).toBe(200);
    expect((await signed('/orders', { id: 1 })).status).toBe(200);
  });

  it('a rotated secret replaces the old one at once', async () => {
    const old = secret;
    secret = (await api(`${P}/rules/hooked/hook-secret/rotate`, { token: t.admin, method: 'POST' })).body.secret;
    const ts = now();
    const body = JSON.stringify({ id: 1 });
    expectError(
      await hook('/orders', { id: 1 }, { 'x-gflow-timestamp': ts, 'x-gflow-signature': sign(old, ts, body) }),
      401,
      40190,
    );
    expect((await signed('/orders', { id: 1 })).status).toBe(200);
  });
});

describe('schedules', () => {
  const scheduleId = () => `chain-schedule:${tenantId}:ticker:0`;
  const ticker = {
    ruleChain: { id: 'ticker', name: 'Ticker' },
    metadata: {
      endpoints: [
        {
          id: 'tick',
          type: 'endpoint/schedule',
          name: 'tick',
          configuration: {},
          routers: [{ from: { path: '*/2 * * * * *' }, to: { path: 'ticker' } }],
        },
      ],
      nodes: [node('t', 'exprTransform', { mapping: { fired: 'true' } })],
      connections: [],
    },
  };
  const scheduledRuns = async () =>
    Number(
      (
        await db.query(
          `select count(*) from rule_chain_runs where tenant_id = $1 and chain_id = 'ticker' and trigger->>'kind' = 'schedule'`,
          [tenantId],
        )
      ).rows[0].count,
    );

  it('fires while the chain is started and stops with it', { timeout: 90_000 }, async () => {
    const saved = await api(`${P}/rules/ticker`, { token: t.admin, body: ticker });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const described = await temporal.schedule.getHandle(scheduleId()).describe();
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'chainRun' });
    await eventually(scheduledRuns, (n) => n >= 2, 30_000);
    const list = await api(`${P}/logs/runs?chainId=ticker`, { token: t.admin });
    const ids = (list.body.items as any[]).map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(list.body.items[0].trigger).toMatchObject({ kind: 'schedule', endpointId: 'tick', cron: '*/2 * * * * *' });

    expect((await api(`${P}/rules/ticker/operate/stop`, { token: t.admin, method: 'POST' })).status).toBe(200);
    await expect(temporal.schedule.getHandle(scheduleId()).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    await new Promise((r) => setTimeout(r, 1500)); // a run fired just before the stop may still be writing
    const atStop = await scheduledRuns();
    await new Promise((r) => setTimeout(r, 5000));
    expect(await scheduledRuns()).toBe(atStop);

    // Started again it fires again; deleted, its schedule goes.
    expect((await api(`${P}/rules/ticker/operate/start`, { token: t.admin, method: 'POST' })).status).toBe(200);
    await eventually(scheduledRuns, (n) => n > atStop, 30_000);
    expect((await api(`${P}/rules/ticker`, { token: t.admin, method: 'DELETE' })).status).toBe(204);
    await expect(temporal.schedule.getHandle(scheduleId()).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });
});
