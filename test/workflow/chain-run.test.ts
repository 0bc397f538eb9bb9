// The chain-run workflow on the test Temporal server: routing by relation, parallel branches and
// joins, durable delays, sub-chains, and the activity nodes. Scripts run in the real QuickJS
// sandbox; HTTP, the run row, look-ups and startProcess are in-memory fakes of the activities.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { Context } from '@temporalio/activity';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { createWorkflowWorker } from '../../src/main/workflow-worker.js';
import { runScript } from '../../src/rule-chains/sandbox.js';
import type { ChainScriptInput, ChainRestInput } from '../../activities/chains.js';
import type { RunBegin, RunFinish } from '../../src/rule-chains/runs.js';
import type { FunctionTarget, DeployedChain } from '../../src/rule-chains/load.js';
import { runServiceFunction } from '../../activities/engine-support.js';
import type { WebhookCallInput } from '../../activities/service-function-calls.js';
import {
  CHAIN_RUN_WORKFLOW,
  LOG_BUDGET_CHARS,
  LOG_TAIL_CHARS,
  LOGGED_DATA_CHARS,
  MAX_FLOW_DEPTH,
  MAX_NODE_VISITS,
  chainRunWorkflowId,
  type ChainRunInput,
  type ChainRunResult,
  type NodeConnection,
  type RuleChainDsl,
  type RuleNode,
} from '../../chains/types.js';
import { chainRunState } from '../../workflows/chain/messages.js';

const TENANT = 'tenant-chains';
const rows = new Map<string, { begun: RunBegin; finished?: RunFinish; begins: number }>();
const chains = new Map<string, DeployedChain>();
const httpCalls: ChainRestInput[] = [];
const httpAttempts = new Map<string, number>();
const webhookCalls: WebhookCallInput[] = [];
const processStarts: unknown[] = [];

const activities = {
  async beginChainRun(run: RunBegin) {
    const row = rows.get(run.runId);
    if (row) row.begins++;
    else rows.set(run.runId, { begun: run, begins: 1 });
  },
  async finishChainRun(run: RunFinish) {
    rows.get(run.runId)!.finished = run;
  },
  async runChainScript(input: ChainScriptInput) {
    const data = input.msg.dataType === 'JSON' ? JSON.parse(input.msg.data) : input.msg.data;
    const out = await runScript(
      input.kind,
      input.body,
      { msg: data, metadata: input.msg.metadata, msgType: input.msg.type, dataType: input.msg.dataType },
      input.timeoutMs,
    );
    if (!out.ok) throw ApplicationFailure.nonRetryable(out.error, 'CHAIN_SCRIPT_FAILED', { attempt: 1 });
    return { value: out.value, logs: out.logs, attempt: Context.current().info.attempt };
  },
  /** `/flaky/...` fails its first attempt (a transport error); `/status/<n>` answers n; else an echo. */
  async chainRestApiCall(req: ChainRestInput) {
    const attempt = Context.current().info.attempt;
    httpCalls.push(req);
    httpAttempts.set(req.url, attempt);
    if (req.url.includes('/flaky/') && attempt === 1)
      throw ApplicationFailure.create({
        message: 'request failed: socket hang up',
        type: 'CHAIN_HTTP_FAILED',
        details: [{ attempt }],
      });
    if (req.url.includes('/refused/'))
      throw ApplicationFailure.nonRetryable('10.0.0.1 is a private address', 'CHAIN_HTTP_REFUSED', { attempt });
    const status = Number(/\/status\/(\d+)/.exec(req.url)?.[1] ?? 200);
    const body = JSON.stringify({ echoed: req.body ? JSON.parse(req.body) : null, method: req.method });
    return { status, statusText: `${status}`, body, attempt };
  },
  async loadFlowChain(input: { tenantId: string; chainId: string }) {
    const chain = chains.get(input.chainId);
    if (!chain) throw ApplicationFailure.nonRetryable(`no rule chain ${input.chainId}`, 'NOT_FOUND');
    return chain;
  },
  async resolveChainFunction(input: { tenantId: string; name: string }): Promise<FunctionTarget> {
    if (input.name === 'setVariables') return { kind: 'builtin' };
    if (input.name === 'Risk.score')
      return {
        kind: 'catalogue',
        binding: {
          id: 'fn-1',
          kind: 'webhook',
          url: 'https://example.test/score',
          timeoutMs: 2000,
          retry: { maximumAttempts: 1, initialIntervalMs: 100, backoffCoefficient: 1, maximumIntervalMs: null },
        },
      };
    return { kind: 'missing' };
  },
  runServiceFunction,
  async callWebhook(input: WebhookCallInput) {
    webhookCalls.push(input);
    return { score: 7 };
  },
  async chainStartProcess(input: { processKey: string }) {
    processStarts.push(input);
    return { processInstanceId: `pi-${processStarts.length}` };
  },
};

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
const taskQueue = `chain-run-${randomUUID()}`;

beforeAll(async () => {
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  env = await TestWorkflowEnvironment.createFromExistingServer({ address: inject('temporalAddress') });
  // The worker the service runs (src/main/worker.ts): the SDK's default one would install its stack-tracking
  // promise hook in this process, which other files of the project share.
  worker = await createWorkflowWorker({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities,
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

type Edge = [from: string, to: string, type?: string];
const dsl = (id: string, nodes: RuleNode[], edges: Edge[] = []): RuleChainDsl => ({
  ruleChain: { id, name: `chain ${id}` },
  metadata: {
    firstNodeIndex: 0,
    nodes,
    connections: edges.map(([fromId, toId, type]): NodeConnection => ({ fromId, toId, type: type ?? 'Success' })),
  },
});
const node = (id: string, type: string, configuration: Record<string, unknown> = {}): RuleNode => ({
  id,
  type,
  configuration,
});

function inputOf(chain: RuleChainDsl, data: unknown, extra: Partial<ChainRunInput> = {}): ChainRunInput {
  return {
    runId: randomUUID(),
    tenantId: TENANT,
    chainId: chain.ruleChain.id,
    chainVersion: 1,
    chain,
    msg: {
      id: randomUUID(),
      ts: Date.now(),
      type: 'TEST',
      dataType: 'JSON',
      data: JSON.stringify(data),
      metadata: { source: 'test' },
    },
    trigger: { kind: 'execute', userId: 'alice' },
    ...extra,
  };
}

const start = (input: ChainRunInput) =>
  env.client.workflow.start(CHAIN_RUN_WORKFLOW, {
    workflowId: chainRunWorkflowId(input.tenantId, input.runId),
    taskQueue,
    args: [input],
  });
const runChain = async (input: ChainRunInput) => (await (await start(input)).result()) as ChainRunResult;
const data = (r: ChainRunResult) => JSON.parse(r.msg.data);
const path = (r: ChainRunResult) => r.logs.map((l) => `${l.nodeId}:${l.relationType}`);

describe('routing', () => {
  const chain = dsl(
    'routing',
    [
      node('hot', 'exprFilter', { expr: 'msg.temperature > 50 && metadata.source == "test"' }),
      node('mark', 'exprTransform', { mapping: { alarm: 'true', t: 'msg.temperature', kind: 'msgType' } }),
    ],
    [['hot', 'mark', 'True']],
  );

  it('follows True to the next node; the output is where the branch ended; the row is written once', async () => {
    const input = inputOf(chain, { temperature: 60 });
    const r = await runChain(input);
    expect(r.success).toBe(true);
    expect(data(r)).toEqual({ alarm: true, t: 60, kind: 'TEST' });
    expect(path(r)).toEqual(['hot:True', 'mark:Success']);
    const row = rows.get(input.runId)!;
    expect(row.begins).toBe(1);
    expect(row.begun.chainName).toBe('chain routing');
    expect(row.finished).toMatchObject({ success: true, errorNode: null, outMsg: r.msg });
    expect(row.finished!.logs).toHaveLength(2);
    expect(r.logs[0].startTs).toBeLessThanOrEqual(r.logs[0].endTs);
  });

  it('False with no False connection ends the branch: the run succeeds with the message as it was', async () => {
    const input = inputOf(chain, { temperature: 20 });
    const r = await runChain(input);
    expect(r.success).toBe(true);
    expect(data(r)).toEqual({ temperature: 20 });
    expect(path(r)).toEqual(['hot:False']);
  });

  it('a failing node takes Failure when connected, else the run fails with the node and reason', async () => {
    const nodes = [
      node('t', 'jsTransform', { jsScript: 'throw new Error("no such order " + msg.id);' }),
      node('recover', 'exprTransform', { expr: '"recovered"' }),
    ];
    const handled = await runChain(inputOf(dsl('fail1', nodes, [['t', 'recover', 'Failure']]), { id: 7 }));
    expect(handled.success).toBe(true);
    expect(handled.msg.data).toBe('recovered');
    expect(handled.logs[0]).toMatchObject({
      nodeId: 't',
      relationType: 'Failure',
      err: 'Error: no such order 7 (line 1)',
    });

    const input = inputOf(dsl('fail2', nodes), { id: 8 });
    const unhandled = await runChain(input);
    expect(unhandled.success).toBe(false);
    expect(unhandled.error).toEqual({ nodeId: 't', message: 'Error: no such order 8 (line 1)' });
    expect(rows.get(input.runId)!.finished).toMatchObject({ success: false, errorNode: 't' });
  });

  it(`a cycle with no way out fails past ${MAX_NODE_VISITS} node visits; the log keeps ${LOGGED_DATA_CHARS} characters of a message`, async () => {
    const looping = dsl(
      'cycle',
      [node('again', 'exprFilter', { expr: 'true' }), node('count', 'exprTransform', { expr: 'msg' })],
      [
        ['again', 'count', 'True'],
        ['count', 'again', 'Success'],
      ],
    );
    const r = await runChain(inputOf(looping, { big: 'x'.repeat(LOGGED_DATA_CHARS + 100) }));
    expect(r.success).toBe(false);
    expect(r.error?.message).toContain(`more than ${MAX_NODE_VISITS} node visits`);
    expect(r.logs).toHaveLength(MAX_NODE_VISITS);
    expect(r.logs[0].inMsg.data).toHaveLength(LOGGED_DATA_CHARS);
    // Past the run's budget, each message keeps its first characters only.
    expect(r.logs.at(-1)!.inMsg.data).toHaveLength(LOG_TAIL_CHARS);
    expect(r.logs.reduce((n, l) => n + l.inMsg.data.length + (l.outMsg?.data.length ?? 0), 0)).toBeLessThanOrEqual(
      LOG_BUDGET_CHARS + LOGGED_DATA_CHARS + 2 * MAX_NODE_VISITS * LOG_TAIL_CHARS,
    );
    expect(r.logs[0].inMsg.metadata._logTruncated).toBe(String(LOGGED_DATA_CHARS + 100 + '{"big":""}'.length));
    // The output message is whole.
    expect(JSON.parse(r.msg.data).big).toHaveLength(LOGGED_DATA_CHARS + 100);
  });

  it('switch takes the first true case, else Default; msgTypeSwitch routes by message type', async () => {
    const chain = dsl(
      'switch',
      [
        node('sw', 'switch', {
          cases: [
            { case: 'msg.no.such.field > 1', then: 'Broken' },
            { case: 'msg.amount > 1000', then: 'Big' },
            { case: 'msg.amount > 100', then: 'Medium' },
          ],
        }),
        node('big', 'exprTransform', { expr: '"big"' }),
        node('medium', 'exprTransform', { expr: '"medium"' }),
        node('other', 'exprTransform', { expr: '"other"' }),
      ],
      [
        ['sw', 'big', 'Big'],
        ['sw', 'medium', 'Medium'],
        ['sw', 'other', 'Default'],
      ],
    );
    expect((await runChain(inputOf(chain, { amount: 5000 }))).msg.data).toBe('big');
    expect((await runChain(inputOf(chain, { amount: 500 }))).msg.data).toBe('medium');
    expect((await runChain(inputOf(chain, { amount: 5 }))).msg.data).toBe('other');

    const byType = dsl(
      'types',
      [
        node('mt', 'msgTypeSwitch'),
        node('a', 'exprTransform', { expr: '"order"' }),
        node('d', 'exprTransform', { expr: '"default"' }),
      ],
      [
        ['mt', 'a', 'ORDER'],
        ['mt', 'd', 'Default'],
      ],
    );
    const order = inputOf(byType, {});
    order.msg.type = 'ORDER';
    expect((await runChain(order)).msg.data).toBe('order');
    expect((await runChain(inputOf(byType, {}))).msg.data).toBe('default');
  });

  it('jsFilter, jsSwitch (several relations in parallel), jsTransform and log run in the sandbox', async () => {
    const chain = dsl(
      'scripts',
      [
        node('f', 'jsFilter', { jsScript: 'return msg.n > 1;' }),
        node('s', 'jsSwitch', { jsScript: 'return ["A", "B"];' }),
        node('a', 'jsTransform', {
          jsScript: 'metadata.a = "1"; return {msg: {a: msg.n}, metadata: metadata, msgType: "DONE"};',
        }),
        node('b', 'log', { jsScript: 'return "n is " + msg.n;' }),
      ],
      [
        ['f', 's', 'True'],
        ['s', 'a', 'A'],
        ['s', 'b', 'B'],
      ],
    );
    const r = await runChain(inputOf(chain, { n: 2 }));
    expect(r.success).toBe(true);
    expect(path(r).sort()).toEqual(['a:Success', 'b:Success', 'f:True', 's:A,B']);
    const a = r.logs.find((l) => l.nodeId === 'a')!;
    expect(a.outMsg).toMatchObject({ type: 'DONE', data: '{"a":2}', metadata: { source: 'test', a: '1' } });
    expect(a.attempts).toBe(1);
  });
});

describe('fork and join', () => {
  const parallel = (timeout: number, slowMs: number) =>
    dsl(
      `join-${timeout}`,
      [
        node('fork', 'fork'),
        node('a', 'jsTransform', { jsScript: 'metadata.a = "A"; return {msg: {from: "a"}, metadata, msgType};' }),
        node('slow', 'delay', { delayMs: String(slowMs) }),
        node('b', 'jsTransform', { jsScript: 'metadata.b = "B"; return {msg: {from: "b"}, metadata, msgType};' }),
        node('join', 'join', { timeout }),
        node('after', 'exprTransform', { expr: 'len(msg)' }),
        node('late', 'exprTransform', { expr: '"join timed out"' }),
      ],
      [
        ['fork', 'a'],
        ['fork', 'slow'],
        ['slow', 'b'],
        ['a', 'join'],
        ['b', 'join'],
        ['join', 'after'],
        ['join', 'late', 'Failure'],
      ],
    );

  it('join waits for every branch and merges their messages and metadata', async () => {
    const r = await runChain(inputOf(parallel(10, 300), { x: 1 }));
    expect(r.success).toBe(true);
    expect(r.msg.data).toBe('2');
    const join = r.logs.find((l) => l.nodeId === 'join')!;
    expect(join.relationType).toBe('Success');
    const merged = JSON.parse(join.outMsg!.data) as Array<{ nodeId: string; msg: { data: string; metadata: object } }>;
    expect(merged.map((m) => [m.nodeId, m.msg.data, m.msg.metadata])).toEqual([
      ['a', '{"from":"a"}', {}],
      ['b', '{"from":"b"}', {}],
    ]);
    expect(join.outMsg!.metadata).toMatchObject({ a: 'A', b: 'B', source: 'test' });
    expect(r.logs.filter((l) => l.nodeId === 'after')).toHaveLength(1);
  });

  it('a run with parallel branches, a join, scripts and a delay replays from its history', async () => {
    const input = inputOf(parallel(10, 200), { x: 1 });
    const handle = await start(input);
    await handle.result();
    await Worker.runReplayHistory(
      { workflowBundle: { codePath: inject('workflowBundlePath') } },
      await handle.fetchHistory(),
      handle.workflowId,
    );
  });

  it('a join that times out takes Failure', async () => {
    const r = await runChain(inputOf(parallel(1, 4000), { x: 1 }));
    expect(r.success).toBe(true);
    expect(r.msg.data).toBe('join timed out');
    const join = r.logs.find((l) => l.nodeId === 'join')!;
    expect(join).toMatchObject({ relationType: 'Failure', err: 'join timed out after 1 s waiting for b' });
    expect(join.endTs - join.startTs).toBeGreaterThanOrEqual(1000);
    // The late branch does not go through the join again.
    expect(r.logs.filter((l) => l.nodeId === 'after' || l.nodeId === 'late')).toHaveLength(1);
  });

  it('a branch that ends before the join (filter False) releases it with what arrived', async () => {
    const chain = dsl(
      'join-partial',
      [
        node('fork', 'fork'),
        node('yes', 'exprFilter', { expr: 'true' }),
        node('no', 'exprFilter', { expr: 'false' }),
        node('join', 'join', { timeout: 30 }),
      ],
      [
        ['fork', 'yes'],
        ['fork', 'no'],
        ['yes', 'join', 'True'],
        ['no', 'join', 'True'],
      ],
    );
    const r = await runChain(inputOf(chain, {}));
    expect(r.success).toBe(true);
    expect(JSON.parse(r.msg.data).map((m: { nodeId: string }) => m.nodeId)).toEqual(['yes']);
  });
});

describe('delay', () => {
  it('is a durable timer; the run state query shows the node waiting', async () => {
    const chain = dsl(
      'delay',
      [node('wait', 'delay', { delayMs: '${metadata.wait}' }), node('done', 'exprTransform', { expr: '"done"' })],
      [['wait', 'done']],
    );
    const input = inputOf(chain, {});
    input.msg.metadata.wait = '1500';
    const began = Date.now();
    const handle = await start(input);
    let state = await handle.query(chainRunState);
    for (let i = 0; i < 20 && !state.running.length; i++) {
      await new Promise((r) => setTimeout(r, 100));
      state = await handle.query(chainRunState);
    }
    expect(state).toMatchObject({ status: 'running', running: ['wait'], logs: [] });
    const r = (await handle.result()) as ChainRunResult;
    expect(Date.now() - began).toBeGreaterThanOrEqual(1500);
    expect(r.msg.data).toBe('done');
    expect((await handle.query(chainRunState)).status).toBe('succeeded');
    const history = await handle.fetchHistory();
    expect(history.events!.some((e) => e.timerStartedEventAttributes)).toBe(true);
  });
});

describe('flow', () => {
  it('runs the sub-chain as a child workflow; its output is the node output', async () => {
    chains.set('sub', {
      chainId: 'sub',
      name: 'sub',
      version: 3,
      disabled: false,
      dsl: dsl('sub', [node('double', 'exprTransform', { mapping: { doubled: 'msg.n * 2' } })]),
    });
    const parent = dsl(
      'parent',
      [node('call', 'flow', { targetId: 'sub' }), node('missing', 'flow', { targetId: 'nope' })],
      [['call', 'missing']],
    );
    const input = inputOf(parent, { n: 21 });
    const r = await runChain(input);
    expect(r.logs[0]).toMatchObject({ nodeId: 'call', relationType: 'Success' });
    expect(JSON.parse(r.logs[0].outMsg!.data)).toEqual({ doubled: 42 });
    expect(r.success).toBe(false);
    expect(r.error).toEqual({ nodeId: 'missing', message: 'sub-chain nope: no rule chain nope' });
    const child = [...rows.values()].find(
      (row) =>
        row.begun.chainId === 'sub' && (row.begun.trigger as { parentRunId?: string }).parentRunId === input.runId,
    );
    expect(child?.begun).toMatchObject({ chainVersion: 3, trigger: { kind: 'flow', nodeId: 'call' } });
  });

  it(`a chain calling itself stops past ${MAX_FLOW_DEPTH} levels`, async () => {
    const self = dsl('self', [node('again', 'flow', { targetId: 'self' })]);
    chains.set('self', { chainId: 'self', name: 'self', version: 1, disabled: false, dsl: self });
    const r = await runChain(inputOf(self, {}));
    expect(r.success).toBe(false);
    expect(r.error!.message).toContain(`deeper than ${MAX_FLOW_DEPTH} chains`);
    expect(r.error!.message.match(/sub-chain self failed/g)).toHaveLength(MAX_FLOW_DEPTH);
  }, 60_000);
});

describe('onlyNodeId and fromNodeId', () => {
  const chain = dsl(
    'partial',
    [node('one', 'exprTransform', { expr: '"one"' }), node('two', 'exprTransform', { expr: 'data + "+two"' })],
    [['one', 'two']],
  );
  it('fromNodeId starts there; onlyNodeId runs that node alone', async () => {
    const from = await runChain(inputOf(chain, 'x', { fromNodeId: 'two' }));
    expect(path(from)).toEqual(['two:Success']);
    expect(from.msg.data).toBe('"x"+two');
    const only = await runChain(inputOf(chain, 'x', { onlyNodeId: 'one' }));
    expect(path(only)).toEqual(['one:Success']);
    expect(only.msg.data).toBe('one');
    const missing = await runChain(inputOf(chain, 'x', { fromNodeId: 'zzz' }));
    expect(missing.error).toEqual({ nodeId: null, message: 'no node zzz in the chain' });
  });
});

describe('activity nodes', () => {
  it('restApiCall: the response becomes the data, with status metadata; ≥ 400 is Failure; transport errors are retried', async () => {
    const chain = (url: string) =>
      dsl('rest', [
        node('call', 'restApiCall', {
          restEndpointUrlPattern: url,
          requestMethod: 'put',
          headers: { 'x-id': '${metadata.source}' },
        }),
      ]);
    const ok = await runChain(inputOf(chain('https://api.test/orders/${msg.id}'), { id: 5 }));
    expect(ok.success).toBe(true);
    expect(JSON.parse(ok.msg.data)).toEqual({ echoed: { id: 5 }, method: 'PUT' });
    expect(ok.msg.metadata).toMatchObject({ statusCode: '200', status: '200' });
    expect(httpCalls.find((c) => c.url === 'https://api.test/orders/5')?.headers).toEqual({ 'x-id': 'test' });

    const bad = await runChain(inputOf(chain('https://api.test/status/503'), { id: 6 }));
    expect(bad.error).toEqual({ nodeId: 'call', message: 'HTTP 503' });
    expect(bad.logs[0].outMsg!.metadata).toMatchObject({ statusCode: '503' });

    const flaky = await runChain(inputOf(chain('https://api.test/flaky/1'), { id: 7 }));
    expect(flaky.success).toBe(true);
    expect(flaky.logs[0].attempts).toBe(2);

    const refused = await runChain(inputOf(chain('http://10.0.0.1/refused/'), { id: 8 }));
    expect(refused.error).toEqual({ nodeId: 'call', message: '10.0.0.1 is a private address' });
    expect(refused.logs[0].attempts).toBe(1);
  }, 30_000);

  it('functions: a built-in or a catalogue webhook; the answer merges into the data; a missing name fails', async () => {
    const chain = dsl(
      'fns',
      [
        node('set', 'functions', { functionName: 'setVariables' }),
        node('score', 'functions', { functionName: 'Risk.score' }),
      ],
      [['set', 'score']],
    );
    const input = inputOf(chain, { a: 1 });
    const r = await runChain(input);
    expect(r.success).toBe(true);
    expect(JSON.parse(r.msg.data)).toEqual({ a: 1, score: 7 });
    const call = webhookCalls.find((c) => c.call.instanceId === input.runId)!;
    expect(call.call).toMatchObject({ nodeId: 'score', param: { a: 1 }, variables: { a: 1 } });
    expect(call.call.callId).toMatch(new RegExp(`^chain-run:${TENANT}:${input.runId}:score:\\d+$`));
    const missing = await runChain(inputOf(dsl('fn-missing', [node('x', 'functions', { functionName: 'nope' })]), {}));
    expect(missing.error).toEqual({ nodeId: 'x', message: 'no service function nope' });
  });

  it('startProcess: the instance id goes to metadata and data', async () => {
    const chain = dsl('sp', [
      node('sp', 'startProcess', {
        processKey: 'po_${msg.kind}',
        businessKey: '${msg.no}',
        variables: { amount: '${msg.amount}' },
      }),
    ]);
    const r = await runChain(inputOf(chain, { kind: 'approval', no: 'PO-1', amount: 12 }));
    expect(r.success).toBe(true);
    expect(r.msg.metadata.processInstanceId).toMatch(/^pi-/);
    expect(JSON.parse(r.msg.data).processInstanceId).toBe(r.msg.metadata.processInstanceId);
    expect(processStarts.at(-1)).toMatchObject({
      tenantId: TENANT,
      processKey: 'po_approval',
      initiator: 'alice',
      businessKey: 'PO-1',
      variables: { amount: '12' },
    });
  });
});
