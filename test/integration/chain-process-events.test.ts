// Process events as a chain trigger (`endpoint/processEvent`, docs/rule-chains.md): a started
// chain subscribed to one process key's instanceEnded gets one run per ended instance, with the
// outcome in its message; a stopped chain gets none; another process key's events do not reach it.
import { randomUUID } from 'node:crypto';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDemoLikeTenant } from '../helpers/api.js';
import { actOk, deploy, eventually, instance, myTask, start } from '../helpers/flow.js';
import { graphDoc as doc, node, user, wire } from '../helpers/dsl.js';
import type { RuleChainDsl } from '../../chains/types.js';

let db: any;
let t: Record<string, string>;
let tenantId: string;

/** A chain that passes its message on, listening to process events as configured. */
function listener(id: string, configuration: Record<string, unknown>): RuleChainDsl {
  return {
    ruleChain: { id, name: `Listener ${id}`, root: true },
    metadata: {
      firstNodeIndex: 0,
      endpoints: [{ id: 'ev', type: 'endpoint/processEvent', configuration }],
      nodes: [{ id: 'keep', type: 'exprTransform', configuration: { expr: 'msg' } }],
      connections: [],
    },
  };
}

async function saveChain(dsl: RuleChainDsl, disabled = false) {
  await db.query(
    `insert into rule_chains (tenant_id, id, name, root, disabled, version, dsl, hook_secret) values ($1, $2, $3, true, $4, 1, $5, $6)`,
    [tenantId, dsl.ruleChain.id, dsl.ruleChain.name, disabled, JSON.stringify(dsl), randomUUID()],
  );
}

const runsOf = async (chainId: string) =>
  (
    await db.query(
      `select id, status, trigger, in_msg from rule_chain_runs where tenant_id = $1 and chain_id = $2 order by started_at`,
      [tenantId, chainId],
    )
  ).rows as Array<{ id: string; status: string; trigger: any; in_msg: any }>;

/** start → bob → end */
const oneStep = (k: string) =>
  doc(k, [node('s', 'startTask'), user('review', ['bob']), node('end', 'end')], wire('s>review review>end'));

const suffix = randomUUID().slice(0, 6);
const ORDERS = `orders_${suffix}`;
const LEAVE = `leave_${suffix}`;

beforeAll(async () => {
  ({ tenantId, tokens: t } = await createDemoLikeTenant('pev'));
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  await deploy(t.admin, oneStep(ORDERS));
  await deploy(t.admin, oneStep(LEAVE));
  // Saved before any instance of the tenant exists: no cached "no subscription" answer stands in the way.
  await saveChain(listener('ended-orders', { processKey: ORDERS, events: ['instanceEnded'] }));
  await saveChain(listener('stopped-all', {}), true);
  await saveChain(listener('all-events', { processKey: ORDERS }));
});
afterAll(async () => db?.end());

describe('process events', () => {
  it('one run per ended instance of the subscribed key, with its outcome; none for a stopped chain or another key', async () => {
    const approved = await start(t.alice, ORDERS, { amount: 10 }, `A-${suffix}`);
    const rejected = await start(t.alice, ORDERS, { amount: 20 });
    const other = await start(t.alice, LEAVE, { days: 2 });
    await actOk(t.bob, (await myTask(t.bob, approved)).id, 'approve', { comment: 'ok' });
    await actOk(t.bob, (await myTask(t.bob, rejected)).id, 'reject', { comment: 'no' });
    await actOk(t.bob, (await myTask(t.bob, other)).id, 'approve', {});
    for (const id of [approved, rejected, other])
      await eventually(
        () => instance(t.admin, id),
        (i) => i.status !== 'active',
      );

    const runs = await eventually(
      () => runsOf('ended-orders'),
      (r) => r.length >= 2 && r.every((x) => x.status === 'succeeded'),
      30_000,
    );
    expect(runs).toHaveLength(2);
    const byInstance = new Map(runs.map((r) => [r.trigger.instanceId as string, r]));
    expect([...byInstance.keys()].sort()).toEqual([approved, rejected].sort());
    for (const [id, outcome] of [
      [approved, 'completed'],
      [rejected, 'rejected'],
    ] as const) {
      const run = byInstance.get(id)!;
      expect(run.trigger).toEqual({ kind: 'event', endpointId: 'ev', event: 'instanceEnded', instanceId: id });
      expect(run.in_msg.type).toBe('instanceEnded');
      expect(run.in_msg.metadata).toMatchObject({ instanceId: id, processKey: ORDERS });
      expect(JSON.parse(run.in_msg.data)).toMatchObject({ instanceId: id, processKey: ORDERS, outcome });
    }
    expect(JSON.parse(byInstance.get(approved)!.in_msg.data)).toMatchObject({ businessKey: `A-${suffix}` });

    // Every event of the orders key for the chain subscribed to all of them: started, created,
    // decided, ended for each of the two instances, each once.
    const all = await eventually(
      () => runsOf('all-events'),
      (r) => r.length >= 8,
      30_000,
    );
    const events = all.map((r) => `${r.trigger.event}:${r.trigger.instanceId === approved ? 'a' : 'r'}`).sort();
    expect(events).toEqual(
      [
        'instanceStarted:a',
        'taskCreated:a',
        'taskDecided:a',
        'instanceEnded:a',
        'instanceStarted:r',
        'taskCreated:r',
        'taskDecided:r',
        'instanceEnded:r',
      ].sort(),
    );
    const decided = all.find((r) => r.trigger.event === 'taskDecided' && r.trigger.instanceId === rejected)!;
    expect(JSON.parse(decided.in_msg.data)).toMatchObject({ nodeId: 'review', decision: 'rejected', comment: 'no' });

    // Nothing for the stopped chain, nothing from the other key.
    expect(await runsOf('stopped-all')).toEqual([]);
    expect(all.some((r) => r.trigger.instanceId === other)).toBe(false);
  });
});
