// Chain runs on the real stack (PostgreSQL, Temporal, the service's worker): every node type in one
// chain, restApiCall to a local receiver and to a refused address, a webhook catalogue function, a
// sub-chain, and the run's row in rule_chain_runs with its node log.
import { createHmac, randomUUID } from 'node:crypto';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createTenant } from '../helpers/api.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';
import { temporalClient } from '../helpers/temporal.js';
import { executeChainRun } from '../../src/rule-chains/runner.js';
import type { ChainRunInput, NodeConnection, RuleChainDsl, RuleNode } from '../../chains/types.js';

const SECRET = 'chain-webhook-secret-0123456789';
const temporal = temporalClient();
let db: any;
let receiver: Receiver;
let tenantId: string;
const seen: Array<{ method: string; url: string; body: string; headers: Record<string, unknown> }> = [];

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  receiver = await startReceiver((req, body, res) => {
    seen.push({ method: req.method!, url: req.url!, body, headers: req.headers });
    res.setHeader('content-type', 'application/json');
    if (req.url === '/fn') return res.end(JSON.stringify({ score: 7 }));
    if (req.url!.startsWith('/fail')) {
      res.statusCode = 500;
      return res.end('{"error":"down"}');
    }
    res.end(JSON.stringify({ echoed: body ? JSON.parse(body) : null, path: req.url }));
  });
  const tenant = await createTenant('chains');
  tenantId = tenant.tenantId;
  const fn = await api('/api/v1/service-functions', {
    token: tenant.adminToken,
    body: { name: 'Risk.score', kind: 'webhook', url: `http://localhost:${receiver.port}/fn`, secret: SECRET },
  });
  expect(fn.status, JSON.stringify(fn.body)).toBe(201);
});

afterAll(async () => {
  await receiver?.close();
  await db?.end();
});

type Edge = [from: string, to: string, type?: string];
const node = (id: string, type: string, configuration: Record<string, unknown> = {}): RuleNode => ({
  id,
  type,
  configuration,
});
const dsl = (id: string, nodes: RuleNode[], edges: Edge[] = []): RuleChainDsl => ({
  ruleChain: { id, name: `Chain ${id}` },
  metadata: {
    firstNodeIndex: 0,
    nodes,
    connections: edges.map(([fromId, toId, type]): NodeConnection => ({ fromId, toId, type: type ?? 'Success' })),
  },
});

/** The chain's head row and its version, as a deploy writes them (the API is tested elsewhere). */
async function insertChain(chain: RuleChainDsl, version = 1) {
  await db.query(
    `insert into rule_chains (tenant_id, id, name, root, disabled, version, dsl, hook_secret)
     values ($1, $2, $3, true, false, $4, $5, 'secret')`,
    [tenantId, chain.ruleChain.id, chain.ruleChain.name, version, JSON.stringify(chain)],
  );
  await db.query(`insert into rule_chain_versions (tenant_id, chain_id, version, dsl) values ($1, $2, $3, $4)`, [
    tenantId,
    chain.ruleChain.id,
    version,
    JSON.stringify(chain),
  ]);
}

function run(chain: RuleChainDsl, data: unknown, type = 'ORDER') {
  const input: ChainRunInput = {
    runId: randomUUID(),
    tenantId,
    chainId: chain.ruleChain.id,
    chainVersion: 1,
    chain,
    msg: { id: randomUUID(), ts: Date.now(), type, dataType: 'JSON', data: JSON.stringify(data), metadata: {} },
    trigger: { kind: 'execute', userId: 'admin' },
  };
  return executeChainRun({ temporal, taskQueue: inject('taskQueue') }, input).then((result) => ({ input, result }));
}

const row = async (runId: string) =>
  (await db.query(`select * from rule_chain_runs where id = $1`, [runId])).rows[0] as Record<string, any> | undefined;

describe('every node on the real stack', () => {
  it('filters, scripts, switches, HTTP, a function, fork/join, a delay and a sub-chain', async () => {
    const sub = dsl('sub_tax', [
      node('tax', 'exprTransform', { mapping: { total: 'msg.total', tax: 'msg.total / 10' } }),
    ]);
    await insertChain(sub);
    const port = receiver.port;
    const chain = dsl(
      'order_flow',
      [
        node('valid', 'exprFilter', { expr: 'msg.amount > 0 && msgType == "ORDER"' }),
        node('price', 'jsTransform', {
          jsScript: 'metadata.orderId = String(msg.id); msg.total = msg.amount * 2; return {msg, metadata, msgType};',
        }),
        node('fork', 'fork'),
        node('post', 'restApiCall', {
          restEndpointUrlPattern: `http://localhost:${port}/orders/\${metadata.orderId}`,
          requestMethod: 'POST',
        }),
        node('score', 'functions', { functionName: 'Risk.score' }),
        node('wait', 'delay', { delayMs: '300' }),
        node('note', 'log', { jsScript: 'return "order " + metadata.orderId;' }),
        node('join', 'join', { timeout: 30 }),
        node('all', 'switch', { cases: [{ case: 'len(msg) == 3', then: 'All' }] }),
        node('back', 'jsTransform', {
          jsScript: 'return {msg: {total: msg[0].nodeId == "post" ? 84 : 0}, metadata, msgType};',
        }),
        node('tax', 'flow', { targetId: 'sub_tax' }),
        node('big', 'jsFilter', { jsScript: 'return msg.tax > 5;' }),
        node('route', 'jsSwitch', { jsScript: 'return [msgType];' }),
        node('types', 'msgTypeSwitch'),
        node('done', 'exprTransform', {
          mapping: { tax: 'msg.tax', order: 'metadata.orderId', status: 'metadata.statusCode' },
        }),
      ],
      [
        ['valid', 'price', 'True'],
        ['price', 'fork'],
        ['fork', 'post'],
        ['fork', 'score'],
        ['fork', 'wait'],
        ['wait', 'note'],
        ['post', 'join'],
        ['score', 'join'],
        ['note', 'join'],
        ['join', 'all'],
        ['all', 'back', 'All'],
        ['back', 'tax'],
        ['tax', 'big'],
        ['big', 'route', 'True'],
        ['route', 'types', 'ORDER'],
        ['types', 'done', 'ORDER'],
      ],
    );
    await insertChain(chain);
    const { input, result } = await run(chain, { id: 42, amount: 21 });
    expect(result.error).toBeNull();
    expect(result.success).toBe(true);
    expect(JSON.parse(result.msg.data)).toEqual({ tax: 8.4, order: '42', status: '200' });
    const visited = result.logs.map((l) => l.nodeId);
    for (const n of chain.metadata.nodes) expect(visited, n.id).toContain(n.id);
    expect(visited).toHaveLength(chain.metadata.nodes.length);

    // The receiver saw the POST once, with the message as its body, and the signed function call once.
    const posts = seen.filter((s) => s.url === '/orders/42');
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0].body)).toEqual({ id: 42, amount: 21, total: 42 });
    const calls = seen.filter((s) => s.url === '/fn' && JSON.parse(s.body).instanceId === input.runId);
    expect(calls).toHaveLength(1);
    const ts = String(calls[0].headers['x-gflow-timestamp']);
    expect(calls[0].headers['x-gflow-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(`${ts}.${calls[0].body}`).digest('hex')}`,
    );
    const post = result.logs.find((l) => l.nodeId === 'post')!;
    expect(post).toMatchObject({ relationType: 'Success', attempts: 1 });
    expect(JSON.parse(post.outMsg!.data)).toMatchObject({ path: '/orders/42' });
    expect(JSON.parse(result.logs.find((l) => l.nodeId === 'score')!.outMsg!.data)).toMatchObject({
      score: 7,
      total: 42,
    });

    // The row: begun and finished by the workflow, with the same log.
    const r = (await row(input.runId))!;
    expect(r).toMatchObject({
      tenant_id: tenantId,
      chain_id: 'order_flow',
      chain_version: 1,
      chain_name: 'Chain order_flow',
      status: 'succeeded',
      error_node: null,
      workflow_id: `chain-run:${tenantId}:${input.runId}`,
      trigger: { kind: 'execute', userId: 'admin' },
    });
    expect(r.in_msg).toEqual(input.msg);
    expect(r.out_msg).toEqual(result.msg);
    expect(r.logs).toEqual(result.logs);
    expect(new Date(r.ended_at).getTime()).toBeGreaterThanOrEqual(new Date(r.started_at).getTime());
    // The sub-chain ran as its own run, with its own row.
    const child = await db.query(
      `select status, trigger from rule_chain_runs where tenant_id = $1 and chain_id = 'sub_tax'`,
      [tenantId],
    );
    expect(child.rows).toEqual([
      { status: 'succeeded', trigger: { kind: 'flow', parentRunId: input.runId, nodeId: 'tax' } },
    ]);
  });

  it('restApiCall: a refused private address and an error status take Failure, or fail the run with the node', async () => {
    const chain = dsl(
      'rest_refused',
      [
        node('call', 'restApiCall', { restEndpointUrlPattern: `http://127.0.0.1:${receiver.port}/private` }),
        node('handled', 'exprTransform', { expr: '"handled"' }),
      ],
      [['call', 'handled', 'Failure']],
    );
    await insertChain(chain);
    const before = seen.length;
    const refused = await run(chain, { x: 1 });
    expect(refused.result.success).toBe(true);
    expect(refused.result.msg.data).toBe('handled');
    expect(refused.result.logs[0]).toMatchObject({ nodeId: 'call', relationType: 'Failure', attempts: 1 });
    expect(refused.result.logs[0].err).toMatch(/127\.0\.0\.1/);
    expect(seen.slice(before).filter((s) => s.url === '/private')).toEqual([]);

    const failing = dsl('rest_500', [
      node('call', 'restApiCall', { restEndpointUrlPattern: `http://localhost:${receiver.port}/fail` }),
    ]);
    await insertChain(failing);
    const { input, result } = await run(failing, { x: 2 });
    expect(result.success).toBe(false);
    expect(result.error).toEqual({ nodeId: 'call', message: 'HTTP 500 Internal Server Error' });
    expect(result.logs[0].outMsg!.metadata).toMatchObject({
      statusCode: '500',
      status: '500 Internal Server Error',
      errorBody: '{"error":"down"}',
    });
    expect(await row(input.runId)).toMatchObject({
      status: 'failed',
      error_node: 'call',
      error_msg: 'HTTP 500 Internal Server Error',
    });
  });

  it('a functions node naming no catalogue entry fails with the name; a stopped sub-chain is refused', async () => {
    const missing = dsl('fn_missing', [node('fn', 'functions', { functionName: 'No.such' })]);
    await insertChain(missing);
    expect((await run(missing, {})).result.error).toEqual({ nodeId: 'fn', message: 'no service function No.such' });

    const stopped = dsl('stopped_sub', [node('x', 'exprTransform', { expr: '1' })]);
    await insertChain(stopped);
    await db.query(`update rule_chains set disabled = true where tenant_id = $1 and id = 'stopped_sub'`, [tenantId]);
    const parent = dsl('calls_stopped', [node('sub', 'flow', { targetId: 'stopped_sub' })]);
    await insertChain(parent);
    expect((await run(parent, {})).result.error).toEqual({
      nodeId: 'sub',
      message: 'sub-chain stopped_sub: rule chain stopped_sub is stopped',
    });
  });
});
