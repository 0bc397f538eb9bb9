// The automation node at the workflow level (docs/rule-chains.md "Approvals and chains"): the
// approval runs a rule chain as a child `chainRun` workflow — the real interpreter of the bundle,
// with the chain's run-row activities as in-memory stand-ins — and merges its output, goes on at
// once when not waiting, takes Failure for a failed, stopped or missing chain, and replays.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { compileProcess } from '../../dsl/index.js';
import type { Config } from '../../src/config.js';
import { runUpdate, startInstanceWorkflow, workflowIdOf, type EngineAccess } from '../../src/temporal/engine-client.js';
import * as m from '../../workflows/messages.js';
import { createWorkflowWorker } from '../../src/main/workflow-worker.js';
import type { StartInput } from '../../workflows/engine/types.js';
import { chainRunWorkflowId, type RuleChainDsl, type RuleNode } from '../../chains/types.js';
import type { ChainForRun } from '../../src/rule-chains/start-process.js';
import type { RunFinish } from '../../src/rule-chains/runs.js';
import { createFakeActivities, type Fakes } from './support/fakes.js';
import { processDoc, testChain, users } from '../helpers/dsl.js';

const TENANT = 'tenant-auto';
const chains = new Map<string, ChainForRun>();
const finished: RunFinish[] = [];
let env: TestWorkflowEnvironment;
let fakes: Fakes;
let worker: Worker;
let running: Promise<void>;
let engine: EngineAccess;
const taskQueue = `workflow-test-automation-${randomUUID()}`;

beforeAll(async () => {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // installed by an earlier file in this process
  }
  env = await TestWorkflowEnvironment.createFromExistingServer({ address: inject('temporalAddress') });
  fakes = createFakeActivities();
  worker = await createWorkflowWorker(
    {
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: inject('workflowBundlePath') },
      activities: {
        ...fakes.activities,
        // The chain's head, from this file's table instead of PostgreSQL.
        loadChainForAutomation: async ({ chainId }: { chainId: string }) =>
          chains.get(chainId) ?? { status: 'missing' },
        beginChainRun: async () => {},
        finishChainRun: async (run: RunFinish) => {
          finished.push(run);
        },
      },
    },
    {},
  );
  running = worker.run();
  engine = {
    temporal: env.client,
    writeState: async (state) => fakes.projection.apply(state),
    intents: { record: async () => {}, drop: async () => {} },
  };
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

function saveChain(id: string, nodes: RuleNode[], status: 'ok' | 'stopped' = 'ok') {
  const dsl: RuleChainDsl = {
    ruleChain: { id, name: id },
    metadata: {
      nodes,
      connections: nodes.slice(1).map((to, i) => ({ fromId: nodes[i]!.id, toId: to.id, type: 'Success' })),
    },
  };
  chains.set(id, status === 'ok' ? { status, version: 3, dsl } : { status });
}

/** start → auto (Failure → carol's fallback, when asked) → bob → end */
function process(key: string, config: Record<string, unknown>, failure = true) {
  const doc = processDoc(
    testChain(key),
    [
      { id: 'auto', type: 'automation', name: 'Enrich', configuration: config },
      { id: 'review', type: 'userTask', name: 'Review', configuration: users('bob') },
      ...(failure ? [{ id: 'fallback', type: 'userTask', name: 'Fallback', configuration: users('carol') }] : []),
    ],
    [
      ['start', 'auto'],
      ['auto', 'review'],
      ['review', 'end'],
      ...(failure
        ? ([
            ['auto', 'fallback', 'Failure'],
            ['fallback', 'end'],
          ] as Array<[string, string, string]>)
        : []),
    ],
  );
  const compiled = compileProcess(doc);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
  return compiled.doc;
}

async function start(doc: ReturnType<typeof process>, variables: Record<string, unknown>) {
  const id = randomUUID();
  const input: StartInput = {
    instance: {
      id,
      tenantId: TENANT,
      definitionId: `def-${doc.ruleChain.id}`,
      processKey: doc.ruleChain.id,
      processVersion: 1,
      processName: doc.ruleChain.id,
      businessKey: 'BK-1',
      initiatorId: 'alice',
      startTime: new Date().toISOString(),
    },
    doc,
    variables,
  };
  await startInstanceWorkflow(engine, { TEMPORAL_TASK_QUEUE: taskQueue } as Config, input);
  return id;
}

/** Waits until the projected instance satisfies `check`. */
async function until(id: string, check: (p: ReturnType<Fakes['projection']['of']>) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const p = fakes.projection.instances.get(id);
    if (p && check(p)) return p;
    if (Date.now() > deadline) throw new Error(`not reached: ${JSON.stringify(p?.instance)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The instance's recorded history replays with the bundle's code. */
async function replays(id: string) {
  const history = await env.client.workflow.getHandle(workflowIdOf(TENANT, id)).fetchHistory();
  await Worker.runReplayHistory({ workflowBundle: { codePath: inject('workflowBundlePath') } }, history);
}

const atNode = (nodeId: string) => (p: ReturnType<Fakes['projection']['of']>) =>
  p.instance.currentNodes.includes(nodeId);

describe('automation node', () => {
  it('waits for the chain and merges its output like an httpCall answer; the run is a child with its trigger', async () => {
    saveChain('enrich', [
      {
        id: 'grade',
        type: 'exprTransform',
        configuration: { mapping: { level: "msg.amount > 100 ? 'high' : 'low'", key: 'metadata.businessKey' } },
      },
    ]);
    const id = await start(process('auto_wait', { targetId: 'enrich' }), { amount: 500, note: 'x' });
    const p = await until(id, atNode('review'));
    expect(p.instance.variables).toEqual({
      amount: 500,
      note: 'x',
      level: 'high',
      key: 'BK-1',
      _automation: { level: 'high', key: 'BK-1' },
    });
    expect(fakes.projection.taskOf(id, 'bob').activityId).toBe('review');
    const started = p.trail.find((e) => e.code === 'automation.started');
    expect(started?.params).toMatchObject({ targetId: 'enrich', runId: expect.stringMatching(`^auto:${id}:auto:`) });
    const run = finished.find((r) => r.runId === started!.params!.runId);
    expect(run).toMatchObject({
      success: true,
      chainId: 'enrich',
      chainVersion: 3,
      trigger: { kind: 'automation', instanceId: id, nodeId: 'auto' },
    });
    // The chain saw the variables as JSON and the instance in the metadata.
    expect(JSON.parse(run!.inMsg.data)).toEqual({ amount: 500, note: 'x' });
    expect(run!.inMsg.metadata).toMatchObject({
      instanceId: id,
      processKey: 'auto_wait',
      nodeId: 'auto',
      tenant_id: TENANT,
    });

    await replays(id);
  });

  it('flattenOutput false and mappings: only the mapped fields and the reserved key', async () => {
    saveChain('mapped', [{ id: 'm', type: 'exprTransform', configuration: { mapping: { score: '7' } } }]);
    const id = await start(
      process('auto_map', {
        targetId: 'mapped',
        flattenOutput: false,
        reservedKey: 'chainOut',
        outputMappings: [{ from: 'score', to: 'riskScore' }],
      }),
      { amount: 1 },
    );
    const p = await until(id, atNode('review'));
    expect(p.instance.variables).toEqual({ amount: 1, chainOut: { score: 7 }, riskScore: 7 });
  });

  it('wait=false: the path goes on at once and the run outlives the instance', async () => {
    saveChain('slow', [{ id: 'nap', type: 'delay', configuration: { delayMs: 60_000 } }]);
    const id = await start(process('auto_async', { targetId: 'slow', wait: false }), { amount: 1 });
    const p = await until(id, atNode('review'), 10_000);
    expect(p.instance.variables).toEqual({ amount: 1 });
    const runId = p.trail.find((e) => e.code === 'automation.started')!.params!.runId as string;
    const decided = await runUpdate(engine, TENANT, id, m.approve, {
      actor: { userId: 'bob', admin: false, manage: false, monitor: false, roles: ['employee'], deptId: 'eng' },
      taskId: fakes.projection.taskOf(id, 'bob').id,
    });
    expect(decided).toMatchObject({ instanceStatus: 'completed' });
    // ParentClosePolicy ABANDON: the chain still runs after the approval completed.
    const child = env.client.workflow.getHandle(chainRunWorkflowId(TENANT, runId));
    expect((await child.describe()).status.name).toBe('RUNNING');
    await child.terminate('test done');
    await replays(id);
  });

  it('a run past timeoutMs is cancelled (its log says so) and the node takes Failure', async () => {
    saveChain('sluggish', [{ id: 'nap', type: 'delay', configuration: { delayMs: 60_000 } }]);
    const id = await start(process('auto_timeout', { targetId: 'sluggish', timeoutMs: 1000 }), {});
    const p = await until(id, atNode('fallback'), 15_000);
    expect(p.trail.find((e) => e.code === 'automation.failed')?.params).toEqual({
      targetId: 'sluggish',
      message: 'the run took longer than 1000 ms and was cancelled',
    });
    const runId = p.trail.find((e) => e.code === 'automation.started')!.params!.runId as string;
    const child = env.client.workflow.getHandle(chainRunWorkflowId(TENANT, runId));
    await expect(child.result()).rejects.toThrow();
    expect((await child.describe()).status.name).toBe('CANCELLED');
    expect(finished.find((r) => r.runId === runId)).toMatchObject({
      success: false,
      errorMsg: 'the run was cancelled',
    });
  });

  it('a failed run takes Failure with the node and reason in the trail', async () => {
    saveChain('broken', [{ id: 'odd', type: 'noSuchNode', configuration: {} }]);
    const id = await start(process('auto_fail', { targetId: 'broken' }), {});
    const p = await until(id, atNode('fallback'));
    const failed = p.trail.find((e) => e.code === 'automation.failed');
    expect(failed?.params).toMatchObject({ targetId: 'broken', message: expect.stringContaining('at node odd') });
    expect(p.instance.variables).not.toHaveProperty('_automation');
  });

  it('a stopped chain takes Failure; a missing chain with no Failure route fails the instance, saying why', async () => {
    saveChain('halted', [{ id: 'x', type: 'exprTransform', configuration: { expr: 'msg' } }], 'stopped');
    const stopped = await start(process('auto_stopped', { targetId: 'halted' }), {});
    const p = await until(stopped, atNode('fallback'));
    expect(p.trail.find((e) => e.code === 'automation.failed')?.params).toEqual({
      targetId: 'halted',
      message: 'rule chain halted is stopped',
    });
    const missing = await start(process('auto_missing', { targetId: 'ghost' }, false), {});
    const q = await until(missing, (x) => x.instance.status === 'failed');
    expect(q.instance.detail).toMatchObject({
      failedNode: 'auto',
      reason: 'automation ghost failed: rule chain ghost does not exist',
    });
  });
});
