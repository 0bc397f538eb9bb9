// Approvals and chains together (docs/rule-chains.md "Approvals and chains"), against the real
// stack: a chain's startProcess starts an approval whose automation node runs another chain; the
// chain's output merges into the approval's variables; a wait=false automation goes on at once; a
// failing, stopped or missing chain takes the node's Failure route with the reason in the trail.
// And the aiAgent's skills: named instruction texts after the agent's system prompt.
import { randomUUID } from 'node:crypto';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { deploy, eventually, instance, myTask } from '../helpers/flow.js';
import { graphDoc as doc, node, user, wire } from '../helpers/dsl.js';
import { temporalClient } from '../helpers/temporal.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { executeChainRun } from '../../src/rule-chains/runner.js';
import type { ChainRunInput, RuleChainDsl, RuleNode } from '../../chains/types.js';
import { startProcessFromChain } from '../../src/rule-chains/start-process.js';
import { createOrm, type Orm } from '../../src/db/orm.js';
import type { Config } from '../../src/config.js';
import { writeProjection } from '../../src/read-model/writer.js';
import { pgIntentLog } from '../../src/read-model/projection-intents.js';
import type { ProjectionSnapshot } from '../../workflows/engine/types.js';

const INSTANCES = '/api/v1/workflow/process-instances';

const client = temporalClient();
let db: any;
let orm: Orm;
let t: Record<string, string>;
let tenantId: string;
let n = 0;
const key = (prefix: string) => `${prefix}${++n}`;

/** A chain of these nodes, connected in a line by Success (or by `connections` when given). */
function chain(id: string, nodes: RuleNode[], connections?: RuleChainDsl['metadata']['connections']): RuleChainDsl {
  return {
    ruleChain: { id, name: `Chain ${id}`, root: true },
    metadata: {
      firstNodeIndex: 0,
      nodes,
      connections:
        connections ?? nodes.slice(1).map((to, i) => ({ fromId: nodes[i]!.id, toId: to.id, type: 'Success' })),
    },
  };
}

/** Stored as the rule engine stores a deployed chain: its head row and its version 1. */
async function saveChain(dsl: RuleChainDsl, disabled = false) {
  const id = dsl.ruleChain.id;
  await db.query(
    `insert into rule_chains (tenant_id, id, name, root, disabled, version, dsl, hook_secret) values ($1, $2, $3, true, $4, 1, $5, $6)`,
    [tenantId, id, dsl.ruleChain.name, disabled, JSON.stringify(dsl), randomUUID()],
  );
  await db.query(`insert into rule_chain_versions (tenant_id, chain_id, version, dsl) values ($1, $2, 1, $3)`, [
    tenantId,
    id,
    JSON.stringify(dsl),
  ]);
}

/** Runs a chain as the rule engine does (one chainRun workflow) and waits for its output. */
async function runChain(dsl: RuleChainDsl, data: unknown) {
  const runId = randomUUID();
  const input: ChainRunInput = {
    runId,
    tenantId,
    chainId: dsl.ruleChain.id,
    chainVersion: 1,
    chain: dsl,
    msg: {
      id: runId,
      ts: Date.now(),
      type: 'PURCHASE_ORDER',
      dataType: 'JSON',
      data: JSON.stringify(data),
      metadata: {},
    },
    trigger: { kind: 'console', userId: 'admin' },
  };
  return executeChainRun({ temporal: client, taskQueue: inject('taskQueue') }, input);
}

/** start → automation (→ Failure: carol) → bob → end. */
function automationProcess(k: string, config: Record<string, unknown>) {
  return doc(
    k,
    [
      node('s', 'startTask'),
      node('auto', 'automation', config),
      user('review', ['bob']),
      user('fallback', ['carol']),
      node('end', 'end'),
    ],
    wire('s>auto auto>review auto>fallback:Failure review>end fallback>end'),
  );
}

const trail = async (id: string) => (await instance(t.admin, id)).trail as Array<Record<string, any>>;

beforeAll(async () => {
  ({ tenantId, tokens: t } = await createDemoLikeTenant('chn'));
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  orm = await createOrm(inject('databaseUrl'));
});
afterAll(async () => {
  await db?.end();
  await orm?.close();
});

describe('a chain starts an approval whose automation node runs another chain', () => {
  it('merges the transforming chain’s output into the approval’s variables', async () => {
    const enrich = chain(key('enrich'), [
      {
        id: 'grade',
        type: 'exprTransform',
        configuration: {
          mapping: { level: "msg.amount > 1000 ? 'high' : 'low'", vendorName: 'msg.vendor', seenBy: 'metadata.nodeId' },
        },
      },
    ]);
    await saveChain(enrich);
    const processKey = key('po');
    await deploy(t.admin, automationProcess(processKey, { targetId: enrich.ruleChain.id }));
    const intake = chain(key('intake'), [
      {
        id: 'start',
        type: 'startProcess',
        configuration: { processKey, initiator: 'alice', businessKey: '${msg.poNumber}' },
      },
    ]);
    await saveChain(intake);

    const result = await runChain(intake, { poNumber: 'PO-7', amount: 2500, vendor: 'ACME' });
    expect(result.success, JSON.stringify(result.error)).toBe(true);
    const instanceId = result.msg.metadata.processInstanceId!;
    expect(JSON.parse(result.msg.data)).toMatchObject({ poNumber: 'PO-7', processInstanceId: instanceId });

    // The approval waits at bob's review with the chain's output merged in.
    await eventually(
      () => instance(t.admin, instanceId),
      (i) => (i.currentNodes as string[]).includes('review'),
      30_000,
    );
    const started = await instance(t.admin, instanceId);
    expect(started).toMatchObject({ processKey, businessKey: 'PO-7', initiatorId: 'alice', status: 'active' });
    expect(started.variables).toMatchObject({
      poNumber: 'PO-7',
      amount: 2500,
      vendor: 'ACME',
      level: 'high',
      vendorName: 'ACME',
      seenBy: 'auto',
      _automation: { level: 'high', vendorName: 'ACME', seenBy: 'auto' },
    });
    await myTask(t.bob, instanceId, 'review');
    expect((await trail(instanceId)).some((e) => e.code === 'automation.started')).toBe(true);

    // The automation's run is logged as the rule engine logs every run, with its trigger.
    const runs = await db.query(`select status, trigger from rule_chain_runs where tenant_id = $1 and chain_id = $2`, [
      tenantId,
      enrich.ruleChain.id,
    ]);
    expect(runs.rows).toEqual([{ status: 'succeeded', trigger: { kind: 'automation', instanceId, nodeId: 'auto' } }]);
  });

  it('starts once per call: a retried call answers the instance its first attempt started', async () => {
    const processKey = key('once');
    await deploy(
      t.admin,
      doc(
        processKey,
        [node('s', 'startTask'), user('review', ['bob']), node('end', 'end')],
        wire('s>review review>end'),
      ),
    );
    const deps = {
      config: { TEMPORAL_TASK_QUEUE: inject('taskQueue'), WORKFLOW_HISTORY_LIMIT: 2000 } as Config,
      orm,
      temporal: client,
      writeState: (state: ProjectionSnapshot, intent?: string) => writeProjection(orm, state, { intent }),
      intents: pgIntentLog(orm),
    };
    const call = { tenantId, processKey, initiator: 'alice', variables: { n: 1 }, callId: `call-${randomUUID()}` };
    const first = await startProcessFromChain(deps, call);
    const again = await startProcessFromChain(deps, call);
    expect(again).toEqual(first);
    const rows = await db.query(`select count(*)::int as n from instances where tenant_id = $1 and process_key = $2`, [
      tenantId,
      processKey,
    ]);
    expect(rows.rows[0].n).toBe(1);
    // Another call is another approval.
    const other = await startProcessFromChain(deps, { ...call, callId: `call-${randomUUID()}` });
    expect(other.processInstanceId).not.toBe(first.processInstanceId);
  });

  it('refuses an initiator the tenant does not have, naming them', async () => {
    const processKey = key('nobody');
    await deploy(
      t.admin,
      doc(
        processKey,
        [node('s', 'startTask'), user('review', ['bob']), node('end', 'end')],
        wire('s>review review>end'),
      ),
    );
    const intake = chain(key('intake'), [
      { id: 'start', type: 'startProcess', configuration: { processKey, initiator: 'mallory' } },
    ]);
    await saveChain(intake);
    const result = await runChain(intake, {});
    expect(result.success).toBe(false);
    expect(result.error).toMatchObject({ nodeId: 'start', message: expect.stringContaining('mallory') });
  });
});

describe('the automation node', () => {
  it('wait=false: the approval goes on at once while the chain still runs', async () => {
    const slow = chain(key('slow'), [{ id: 'wait', type: 'delay', configuration: { delayMs: 4000 } }]);
    await saveChain(slow);
    const processKey = key('async');
    await deploy(t.admin, automationProcess(processKey, { targetId: slow.ruleChain.id, wait: false }));
    const res = await api(`${INSTANCES}/start`, { token: t.alice, body: { processKey, variables: { amount: 5 } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const instanceId = res.body.data.instanceId as string;
    const at = await eventually(
      () => instance(t.admin, instanceId),
      (i) => (i.currentNodes as string[]).includes('review'),
      15_000,
    );
    expect(at.variables).not.toHaveProperty('_automation');
    // The chain is still in its delay: the approval did not wait for it.
    const running = await db.query(`select status from rule_chain_runs where tenant_id = $1 and chain_id = $2`, [
      tenantId,
      slow.ruleChain.id,
    ]);
    expect(running.rows).toEqual([{ status: 'running' }]);
    await eventually(
      () =>
        db.query(`select status from rule_chain_runs where tenant_id = $1 and chain_id = $2`, [
          tenantId,
          slow.ruleChain.id,
        ]),
      (r: any) => r.rows[0]?.status === 'succeeded',
      20_000,
    );
  });

  it('a failing chain takes Failure, with the node and reason in the trail', async () => {
    const failing = chain(key('fail'), [
      { id: 'check', type: 'jsTransform', configuration: { jsScript: "throw new Error('no such vendor');" } },
    ]);
    await saveChain(failing);
    const processKey = key('fails');
    await deploy(t.admin, automationProcess(processKey, { targetId: failing.ruleChain.id }));
    const res = await api(`${INSTANCES}/start`, { token: t.alice, body: { processKey, variables: { vendor: 'X' } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const instanceId = res.body.data.instanceId as string;
    await eventually(
      () => instance(t.admin, instanceId),
      (i) => (i.currentNodes as string[]).includes('fallback'),
      30_000,
    );
    await myTask(t.carol, instanceId, 'fallback');
    const failed = (await trail(instanceId)).find((e) => e.code === 'automation.failed');
    expect(failed?.params).toMatchObject({
      targetId: failing.ruleChain.id,
      message: expect.stringMatching(/no such vendor.*check|check.*no such vendor/s),
    });
  });

  it('a stopped or missing chain takes Failure with a clear reason; without Failure the instance fails', async () => {
    const stopped = chain(key('stopped'), [{ id: 'x', type: 'exprTransform', configuration: { expr: 'msg' } }]);
    await saveChain(stopped, true);
    const processKey = key('stop');
    await deploy(t.admin, automationProcess(processKey, { targetId: stopped.ruleChain.id }));
    const res = await api(`${INSTANCES}/start`, { token: t.alice, body: { processKey, variables: {} } });
    const instanceId = res.body.data.instanceId as string;
    await eventually(
      () => instance(t.admin, instanceId),
      (i) => (i.currentNodes as string[]).includes('fallback'),
      30_000,
    );
    const why = (await trail(instanceId)).find((e) => e.code === 'automation.failed');
    expect(why?.params.message).toBe(`rule chain ${stopped.ruleChain.id} is stopped`);

    const bare = key('bare');
    await deploy(
      t.admin,
      doc(
        bare,
        [
          node('s', 'startTask'),
          node('auto', 'automation', { targetId: 'no-such-chain' }),
          user('review', ['bob']),
          node('end', 'end'),
        ],
        wire('s>auto auto>review review>end'),
      ),
    );
    const res2 = await api(`${INSTANCES}/start`, { token: t.alice, body: { processKey: bare, variables: {} } });
    const failedId = res2.body.data.instanceId as string;
    const failed = await eventually(
      () => instance(t.admin, failedId),
      (i) => i.status === 'failed',
      30_000,
    );
    expect(JSON.stringify(failed)).toContain('rule chain no-such-chain does not exist');
  });
});

describe('aiAgent skills', () => {
  let model: ModelServer;
  beforeAll(async () => {
    model = await startModelServer({ skills: { answers: ['Fine.'] } }, { fallback: 'skills' });
    const res = await api('/api/v1/ai-agents', {
      token: t.admin,
      body: { agentId: 'reviewer', name: 'Reviewer', baseUrl: model.baseUrl, model: 'm', systemPrompt: 'Base.' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (const [name, content] of [
      ['tone', 'Be polite.'],
      ['policy', 'At most 500.'],
    ])
      await db.query(`insert into skills (tenant_id, name, content) values ($1, $2, $3)`, [tenantId, name, content]);
  });
  afterAll(() => model?.close());

  const aiProcess = (k: string, skills: string[]) =>
    doc(
      k,
      [
        node('s', 'startTask'),
        node('ai', 'aiAgent', { agentId: 'reviewer', skills, inputAssembly: { customPrompt: 'SCENARIO:skills' } }),
        user('review', ['bob']),
        node('end', 'end'),
      ],
      wire('s>ai ai>review review>end'),
    );

  it('attaches the named skills to the system prompt in the order named', async () => {
    const k = key('skill');
    await deploy(t.admin, aiProcess(k, ['policy', 'tone']));
    const id = (await api(`${INSTANCES}/start`, { token: t.alice, body: { processKey: k, variables: {} } })).body.data
      .instanceId as string;
    await eventually(
      () => instance(t.admin, id),
      (i) => (i.currentNodes as string[]).includes('review'),
      30_000,
    );
    const system = model.received.skills!.at(-1)!.body.messages.find((m: any) => m.role === 'system');
    expect(system.content).toBe('Base.\n\nAt most 500.\n\nBe polite.');
    // While an active version names it, the skill cannot be deleted through the API.
    const inUse = await api('/api/v1/skills/tone', { method: 'DELETE', token: t.admin });
    expect(inUse.status, JSON.stringify(inUse.body)).toBe(409);
    expect(inUse.body.data.processes).toContain(k);
  });

  it('refuses at deploy a skill the tenant does not have; one deleted since fails the node, naming it', async () => {
    const refused = await api('/api/v1/workflow/process-definitions/deploy', {
      token: t.admin,
      body: { dsl: aiProcess(key('ghost'), ['tone', 'ghost']) },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.data.problems).toEqual([
      expect.objectContaining({ nodeId: 'ai', field: 'configuration.skills[1]', code: 'node.skillUnknown' }),
    ]);

    await db.query(`insert into skills (tenant_id, name, content) values ($1, 'brief', 'Be brief.')`, [tenantId]);
    const k = key('gone');
    await deploy(t.admin, aiProcess(k, ['brief']));
    await db.query(`delete from skills where tenant_id = $1 and name = 'brief'`, [tenantId]);
    const id = (await api(`${INSTANCES}/start`, { token: t.alice, body: { processKey: k, variables: {} } })).body.data
      .instanceId as string;
    const failed = await eventually(
      () => instance(t.admin, id),
      (i) => i.status === 'failed',
      30_000,
    );
    expect(JSON.stringify(failed)).toContain('skill brief not found');
  });
});
