// Approvers ahead of a decision (docs/engine.md "Approvers ahead of a decision"): the server resolves the next
// steps' approvers from the rows approver_directory reads in the task look-up's round trip, with
// the workflow's own rules; the step a decision opens then needs no local activity.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOrm, type Orm } from '../../src/db/orm.js';
import { pgDirectory, resolveApprovers, type ApproverInput } from '../../src/directory/approvers.js';
import { approversAheadFrom, type DirectoryRows } from '../../src/directory/approvers-ahead.js';
import { aheadKey } from '../../workflows/engine/approvers-ahead.js';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { temporalClient } from '../helpers/temporal.js';
import { act, actOk, deploy, instance, myTask, start } from '../helpers/flow.js';
import { linear, steps, users } from '../helpers/dsl.js';

let t: Record<string, string>;
let tenantId: string;
let orm: Orm;
const client = temporalClient();

beforeAll(async () => {
  ({ tokens: t, tenantId } = await createDemoLikeTenant('aa'));
  orm = await createOrm(inject('databaseUrl'));
});

afterAll(async () => {
  await orm?.close();
});

const input = (initiatorId: string, approver: ApproverInput['approver']): ApproverInput => ({
  tenantId,
  initiatorId,
  approver,
});

const keyed = (inputs: ApproverInput[]) => inputs.map((one) => ({ key: aheadKey(one), input: one }));

async function rowsFor(inputs: ApproverInput[]): Promise<DirectoryRows | null> {
  const [row] = await orm.em
    .fork()
    .execute<Array<{ d: DirectoryRows | null }>>(`select approver_directory(?, ?::jsonb) as d`, [
      tenantId,
      JSON.stringify(keyed(inputs)),
    ]);
  return row.d;
}

describe('the directory read with the look-up answers as the workflow’s own look-up does', () => {
  // The demo-like directory: alice → bob → carol → dave (managers); eng, exec, hr, finance with leaders.
  const cases: Array<[string, ApproverInput]> = [
    ['listed users', input('alice', { type: 'user', userIds: ['erin', 'frank'] })],
    ['a listed user who does not exist', input('alice', { type: 'user', userIds: ['erin', 'nobody'] })],
    [
      'the initiator among the listed (department leader read)',
      input('alice', { type: 'user', userIds: ['alice', 'erin'] }),
    ],
    ['initiatorSelect', input('grace', { type: 'initiatorSelect', userIds: ['bob'] })],
    ['a role pool', input('alice', { type: 'role', roleIds: ['finance'] })],
    ['a department pool', input('alice', { type: 'dept', deptIds: ['eng', 'hr'] })],
    ['manager', input('alice', { type: 'manager', levels: 1 })],
    ['manager level 2', input('alice', { type: 'manager', levels: 2 })],
    ['multiLevelManager to the top', input('alice', { type: 'multiLevelManager', levels: -1 })],
    ['initiatorSelf', input('erin', { type: 'initiatorSelf' })],
  ];

  it.each(cases)('%s', async (_name, one) => {
    const expected = await resolveApprovers(pgDirectory(orm.em.fork(), tenantId), one);
    const ahead = await approversAheadFrom(keyed([one]), await rowsFor([one]));
    expect(ahead?.entries).toEqual([{ key: aheadKey(one), resolved: expected }]);
  });

  it('several inputs in one read, each answered as alone', async () => {
    const list = cases.map(([, one]) => one);
    const ahead = await approversAheadFrom(keyed(list), await rowsFor(list));
    const expected = await Promise.all(list.map((one) => resolveApprovers(pgDirectory(orm.em.fork(), tenantId), one)));
    expect(ahead?.entries).toEqual(list.map((one, i) => ({ key: aheadKey(one), resolved: expected[i] })));
  });

  it('what the rows do not hold is left to the workflow: an empty pool asks for the tenant administrators', async () => {
    const empty = input('alice', { type: 'role', roleIds: ['designer'] });
    expect(await approversAheadFrom(keyed([empty]), await rowsFor([empty]))).toBeUndefined();
    const both = [empty, input('alice', { type: 'user', userIds: ['erin'] })];
    const ahead = await approversAheadFrom(keyed(both), await rowsFor(both));
    expect(ahead?.entries.map((e) => e.key)).toEqual([aheadKey(both[1])]);
  });

  it('no inputs, no read', async () => {
    expect(await rowsFor([])).toBeNull();
  });
});

describe('a decision carries the next step’s approvers', () => {
  const wfId = (id: string) => `approval-${tenantId}-${id}`;
  const markersOf = async (id: string) =>
    ((await client.workflow.getHandle(wfId(id)).fetchHistory()).events ?? []).flatMap((e) =>
      e.markerRecordedEventAttributes ? [e.markerRecordedEventAttributes.markerName] : [],
    );

  it('the step an approval opens takes its approvers from the Update: no local activity', async () => {
    const key = `ahead-${Date.now()}`;
    await deploy(t.admin, linear(key, steps(users('bob'), users('carol'), users('dave'))));
    const id = await start(t.alice, key, {});
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    await actOk(t.dave, (await myTask(t.dave, id)).id, 'approve');
    expect(await markersOf(id)).toEqual([]);
    expect((await instance(t.alice, id)).status).toBe('completed');
  });

  it('the pool is read at the decision: a member added to the role before it is among the candidates', async () => {
    const key = `ahead-pool-${Date.now()}`;
    await deploy(
      t.admin,
      linear(key, steps(users('bob'), { approver: { type: 'role', roleIds: ['finance'] }, approveMode: 'any' })),
    );
    const id = await start(t.alice, key, {});
    const task = await myTask(t.bob, id);
    // erin joins finance after the instance started (and after its first state was written).
    const patched = await api(`/api/v1/users/erin`, {
      method: 'PATCH',
      token: t.admin,
      body: { roles: ['employee', 'finance'] },
    });
    expect(patched.status).toBe(200);
    await actOk(t.bob, task.id, 'approve');
    // The pool's members are told the task is theirs to claim: erin among them.
    const members = await orm.em
      .fork()
      .execute<Array<{ user_id: string }>>(
        `select user_id from notifications where instance_id = ? and kind = 'task_claimable' order by user_id`,
        [id],
      );
    expect(members.map((r) => r.user_id)).toEqual(['erin', 'frank', 'grace']);
    expect(await markersOf(id)).toEqual([]);
  });

  it('a start takes its first step’s approvers from the rows its insert read: no local activity', async () => {
    // alice's manager is bob (the demo-like directory).
    const byManager = `ahead-start-mgr-${Date.now()}`;
    await deploy(t.admin, linear(byManager, steps({ approver: { type: 'manager', levels: 1 } })));
    const managed = await start(t.alice, byManager, {});
    expect((await myTask(t.bob, managed)).assignee).toBe('bob');
    expect(await markersOf(managed)).toEqual([]);
    const byRole = `ahead-start-role-${Date.now()}`;
    await deploy(
      t.admin,
      linear(byRole, steps({ approver: { type: 'role', roleIds: ['finance'] }, approveMode: 'any' })),
    );
    const pooled = await start(t.alice, byRole, {});
    const claimable = await orm.em
      .fork()
      .execute<Array<{ user_id: string }>>(
        `select user_id from notifications where instance_id = ? and kind = 'task_claimable' order by user_id`,
        [pooled],
      );
    const finance = await orm.em
      .fork()
      .execute<Array<{ id: string }>>(
        `select id from users where tenant_id = ? and active and jsonb_exists(roles, 'finance') order by id`,
        [tenantId],
      );
    expect(claimable.map((r) => r.user_id)).toEqual(finance.map((u) => u.id));
    expect(claimable.length).toBeGreaterThan(1);
    expect(await markersOf(pooled)).toEqual([]);
  });

  it('a body that names approvers ahead is refused: only the server sets them', async () => {
    const key = `ahead-forged-${Date.now()}`;
    await deploy(t.admin, linear(key, steps(users('bob'), users('carol'))));
    const id = await start(t.alice, key, {});
    const forged = {
      at: Date.now(),
      entries: [
        {
          key: aheadKey(input('alice', { type: 'user', userIds: ['carol'] })),
          resolved: { users: [{ userId: 'grace', reason: 'forged' }] },
        },
      ],
    };
    const bob = (await myTask(t.bob, id)).id;
    const res = await act(t.bob, bob, 'approve', { approversAhead: forged });
    // The decision bodies are strict: the field is refused, and nothing happened.
    expect(res.status).toBe(400);
    expect((await myTask(t.bob, id)).id).toBe(bob);
    await actOk(t.bob, bob, 'approve');
    const carol = await myTask(t.carol, id);
    expect(carol.assignee).toBe('carol');
  });
});
