// A chain run survives its worker: its own stack, the worker killed with SIGKILL mid-run (during a
// durable delay, and during a slow restApiCall). The run resumes on a new worker process and ends
// once; the receiver sees each call once unless Temporal retried it, which the node log shows.
import type http from 'node:http';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../scripts/stack.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';
import { startChainRun } from '../../src/rule-chains/runner.js';
import { chainRunState } from '../../workflows/chain/messages.js';
import {
  chainRunWorkflowId,
  type ChainRunInput,
  type ChainRunResult,
  type NodeConnection,
  type RuleChainDsl,
  type RuleNode,
} from '../../chains/types.js';

const TENANT = 'demo';
let stack: Stack;
let connection: Connection;
let temporal: Client;
let db: any;
let receiver: Receiver;
const calls: string[] = [];
/** Requests to /slow held without an answer (the first one, whose worker dies). */
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  stack = await startStack({
    name: 'chain-crash',
    logLevel: process.env.CRASH_LOG_LEVEL ?? 'error',
    env: { HTTP_CALL_ALLOW_PRIVATE_HOSTS: 'localhost' },
  });
  connection = await Connection.connect({ address: stack.temporalAddress });
  temporal = new Client({ connection, namespace: 'default' });
  db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  receiver = await startReceiver((req, _body, res) => {
    calls.push(req.url!);
    res.setHeader('content-type', 'application/json');
    if (req.url === '/slow' && calls.filter((c) => c === '/slow').length === 1) return void held.push(res);
    res.end(JSON.stringify({ ok: true, call: calls.filter((c) => c === req.url).length }));
  });
}, 240_000);

afterAll(async () => {
  for (const res of held) res.end();
  await receiver?.close();
  await db?.end();
  await connection?.close();
  await stack?.stop();
}, 60_000);

type Edge = [from: string, to: string];
const node = (id: string, type: string, configuration: Record<string, unknown> = {}): RuleNode => ({
  id,
  type,
  configuration,
});
const dsl = (id: string, nodes: RuleNode[], edges: Edge[]): RuleChainDsl => ({
  ruleChain: { id, name: id },
  metadata: {
    firstNodeIndex: 0,
    nodes,
    connections: edges.map(([fromId, toId]): NodeConnection => ({ fromId, toId, type: 'Success' })),
  },
});

async function start(chain: RuleChainDsl) {
  const input: ChainRunInput = {
    runId: randomUUID(),
    tenantId: TENANT,
    chainId: chain.ruleChain.id,
    chainVersion: 1,
    chain,
    msg: { id: randomUUID(), ts: Date.now(), type: 'T', dataType: 'JSON', data: '{"n":1}', metadata: {} },
    trigger: { kind: 'notify', userId: 'admin' },
  };
  await startChainRun({ temporal, taskQueue: stack.taskQueue }, input);
  return { input, handle: temporal.workflow.getHandle(chainRunWorkflowId(TENANT, input.runId)) };
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The run's rows (one, whatever happened) and its workflow's completions in the history (one). */
async function endedOnce(runId: string, handle: ReturnType<Client['workflow']['getHandle']>) {
  const rows = await db.query('select status, logs from rule_chain_runs where id = $1', [runId]);
  expect(rows.rows).toHaveLength(1);
  const history = await handle.fetchHistory();
  expect(history.events!.filter((e) => e.workflowExecutionCompletedEventAttributes)).toHaveLength(1);
  return rows.rows[0] as { status: string; logs: Array<{ nodeId: string; attempts?: number }> };
}

describe('a worker killed mid-run', () => {
  it('during a delay: the run resumes on a new worker, the call before it is not made again', async () => {
    const chain = dsl(
      'crash_delay',
      [
        node('post', 'restApiCall', { restEndpointUrlPattern: `http://localhost:${receiver.port}/once` }),
        node('wait', 'delay', { delayMs: '4000' }),
        node('done', 'exprTransform', { expr: '"done"' }),
      ],
      [
        ['post', 'wait'],
        ['wait', 'done'],
      ],
    );
    const began = Date.now();
    const { input, handle } = await start(chain);
    await until('the delay', async () => (await handle.query(chainRunState)).running.includes('wait'));
    const worker = await stack.crash('worker');
    await new Promise((r) => setTimeout(r, 1000));
    await worker.restart();
    const result = (await handle.result()) as ChainRunResult;
    expect(result.success).toBe(true);
    expect(result.msg.data).toBe('done');
    expect(Date.now() - began).toBeGreaterThanOrEqual(4000);
    expect(calls.filter((c) => c === '/once')).toHaveLength(1);
    expect(result.logs.map((l) => l.nodeId)).toEqual(['post', 'wait', 'done']);
    expect(result.logs[0].attempts).toBe(1);
    const row = await endedOnce(input.runId, handle);
    expect(row.status).toBe('succeeded');
    expect(row.logs.map((l) => l.nodeId)).toEqual(['post', 'wait', 'done']);
  }, 120_000);

  it('during a slow restApiCall: Temporal retries it on the new worker and the log shows two attempts', async () => {
    const chain = dsl(
      'crash_http',
      [
        node('slow', 'restApiCall', {
          restEndpointUrlPattern: `http://localhost:${receiver.port}/slow`,
          readTimeoutMs: 3000,
        }),
        node('done', 'exprTransform', { expr: '"done"' }),
      ],
      [['slow', 'done']],
    );
    const { input, handle } = await start(chain);
    await until('the first call', () => held.length === 1);
    const worker = await stack.crash('worker');
    await new Promise((r) => setTimeout(r, 1000));
    await worker.restart();
    // The lost attempt ends at its start-to-close timeout (3 s + 5 s); the retry is answered at once.
    const result = (await handle.result()) as ChainRunResult;
    expect(result.success).toBe(true);
    expect(calls.filter((c) => c === '/slow')).toHaveLength(2);
    const slow = result.logs.find((l) => l.nodeId === 'slow')!;
    expect(slow.attempts).toBe(2);
    expect(JSON.parse(slow.outMsg!.data)).toEqual({ ok: true, call: 2 });
    expect(result.logs.map((l) => l.nodeId)).toEqual(['slow', 'done']);
    const row = await endedOnce(input.runId, handle);
    expect(row.status).toBe('succeeded');
    expect(row.logs.find((l) => l.nodeId === 'slow')?.attempts).toBe(2);
  }, 120_000);
});
