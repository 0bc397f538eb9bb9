// Handing over a leaver's work over real HTTP (docs/task-actions.md#handing-over-a-leavers-work):
// tasks, delegations, pool places and started instances move as `transfer` trail entries, the
// answer counts them, a retry moves nothing twice, and deactivation waits for the handover.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant, createTenant } from '../helpers/api.js';
import { actOk, deploy, instance, myTask, oneStep, start, todo } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';

describe('user handover', () => {
  let t: Record<string, string>;
  const ids: Record<string, string> = {};
  const tasks: Record<string, any> = {};

  const handover = (from: string, body: unknown, token = t.admin) =>
    api(`/api/v1/users/${from}/handover`, { token, body });
  const refused = (res: { status: number; body: any }, status: number, code: number) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.code).toBe(code);
  };
  const tasksOf = async (instanceId: string) =>
    (await api(`/api/v1/workflow/tasks?instanceId=${instanceId}&pageSize=200`, { token: t.admin })).body.data
      .items as any[];

  beforeAll(async () => {
    ({ tokens: t } = await createDemoLikeTenant('ho'));
    await deploy(t.admin, oneStep('ho_single', users('bob')));
    await deploy(t.admin, oneStep('ho_carol', users('carol')));
    await deploy(t.admin, oneStep('ho_pool', { approver: { type: 'role', roleIds: ['finance'] } }));
    await deploy(t.admin, oneStep('ho_all', { ...users('bob', 'erin'), approveMode: 'all' }));

    ids.single = await start(t.alice, 'ho_single');
    tasks.single = await myTask(t.bob, ids.single);
    // carol delegates her task to bob: bob holds it as the delegatee
    ids.delegated = await start(t.alice, 'ho_carol');
    tasks.delegated = await myTask(t.carol, ids.delegated);
    await actOk(t.carol, tasks.delegated.id, 'delegate', { assigneeUserId: 'bob' });
    // a finance pool with bob added as a candidate user
    ids.pool = await start(t.alice, 'ho_pool');
    tasks.pool = (await tasksOf(ids.pool))[0];
    await actOk(t.admin, tasks.pool.id, 'candidates', { userIds: ['bob'] });
    // bob started this one
    ids.started = await start(t.bob, 'ho_carol');
    // bob and erin both hold a ballot: bob's cannot go to erin
    ids.both = await start(t.alice, 'ho_all');
  });

  it('refuses to deactivate a user with open work (409 with the counts)', async () => {
    const res = await api('/api/v1/users/bob', { method: 'PATCH', token: t.admin, body: { active: false } });
    refused(res, 409, 40970);
    expect(res.body.data).toEqual({ tasks: 2, delegated: 1, poolMemberships: 1, startedInstances: 1 });
    expect((await api('/api/v1/users/bob', { token: t.admin })).body.data.active).toBe(true);
  });

  it('refuses bad handovers and changes nothing', async () => {
    refused(await handover('bob', { toUserId: 'erin' }, t.alice), 403, 40300);
    refused(await handover('bob', { toUserId: 'nobody' }), 404, 40410);
    refused(await handover('bob', { toUserId: 'bob' }), 409, 40907);
    refused(await handover('ghost', { toUserId: 'erin' }), 404, 40400);
    refused(
      await handover('bob', { toUserId: 'erin', scope: { tasks: false, pools: false, startedInstances: false } }),
      400,
      40001,
    );
    refused(await handover('bob', { toUserId: 'erin', extra: 1 }), 400, 40003);
    refused(await handover('bob', {}), 400, 40001);
    const foreign = await createTenant('ho-x');
    refused(await handover('bob', { toUserId: 'erin' }, foreign.adminToken), 404, 40400);
    expect((await myTask(t.bob, ids.single)).id).toBe(tasks.single.id);
  });

  it('moves tasks, delegations, pool places and started instances; answers the counts per kind', async () => {
    const res = await handover('bob', {
      toUserId: 'erin',
      reason: 'bob left',
      scope: { startedInstances: true },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data.counts).toEqual({ tasks: 1, delegated: 1, poolMemberships: 1, instances: 1 });
    expect(data.scope).toEqual({ tasks: true, pools: true, startedInstances: true });
    expect(data.failures).toEqual([]);
    expect(data.skipped).toEqual([
      expect.objectContaining({ instanceId: ids.both, reason: expect.stringContaining('erin already holds') }),
    ]);
    expect(data.perInstance.map((p: any) => p.instanceId).sort()).toEqual(
      [ids.single, ids.delegated, ids.pool, ids.started, ids.both].sort(),
    );

    // the read model has it at the answer
    const single = await myTask(t.erin, ids.single);
    expect(single).toMatchObject({ id: tasks.single.id, assignee: 'erin', status: 'active' });
    const delegated = await myTask(t.erin, ids.delegated);
    expect(delegated).toMatchObject({ id: tasks.delegated.id, assignee: 'erin', owner: 'carol' });
    const pool = (await tasksOf(ids.pool))[0];
    expect(pool.candidates.userIds).toEqual(['erin']);
    expect((await instance(t.admin, ids.started)).initiatorId).toBe('erin');
    const applications = await api('/api/v1/workflow/process-instances/applications?pageSize=200', { token: t.erin });
    expect(applications.body.data.items.map((i: any) => i.id)).toContain(ids.started);
    const carols = (await tasksOf(ids.started))[0];
    expect(carols.initiatorId).toBe('erin');
    expect((await todo(t.bob)).filter((x) => x.instanceId !== ids.both)).toEqual([]);

    const transfer = (await instance(t.admin, ids.single)).trail.find((e: any) => e.type === 'transfer');
    expect(transfer).toMatchObject({
      userId: 'admin',
      comment: 'bob left',
      detail: { handover: true, kind: 'task', from: 'bob', to: 'erin' },
    });
    const initiator = (await instance(t.admin, ids.started)).trail.find((e: any) => e.type === 'transfer');
    expect(initiator.detail).toMatchObject({ kind: 'initiator', from: 'bob', to: 'erin' });

    const notes = await api('/api/v1/notifications?pageSize=200', { token: t.erin });
    expect(notes.body.data.items.filter((n: any) => n.kind === 'work_handed_over').length).toBe(4);

    // the receiver acts on what they received; the delegation returns to its owner
    await actOk(t.erin, single.id, 'approve', { comment: 'ok' });
    expect((await instance(t.admin, ids.single)).status).toBe('completed');
    await actOk(t.erin, delegated.id, 'approve');
    expect((await myTask(t.carol, ids.delegated)).id).toBe(delegated.id);
  });

  it('a retried handover moves nothing twice', async () => {
    const again = await handover('bob', { toUserId: 'erin', reason: 'bob left', scope: { startedInstances: true } });
    expect(again.status).toBe(200);
    expect(again.body.data.counts).toEqual({ tasks: 0, delegated: 0, poolMemberships: 0, instances: 0 });
    expect(again.body.data.skipped).toHaveLength(1);
    const transfers = (await instance(t.admin, ids.started)).trail.filter((e: any) => e.type === 'transfer');
    expect(transfers).toHaveLength(1);
  });

  it('deactivation still waits for the skipped ballot; another receiver takes it, then bob is deactivated', async () => {
    const still = await api('/api/v1/users/bob', { method: 'PATCH', token: t.admin, body: { active: false } });
    refused(still, 409, 40970);
    expect(still.body.data).toMatchObject({ tasks: 1, delegated: 0, poolMemberships: 0, startedInstances: 0 });
    const res = await handover('bob', { toUserId: 'frank', scope: { pools: false } });
    expect(res.body.data.counts).toEqual({ tasks: 1, delegated: 0, poolMemberships: 0, instances: 0 });
    expect((await myTask(t.frank, ids.both)).assignee).toBe('frank');
    const off = await api('/api/v1/users/bob', { method: 'PATCH', token: t.admin, body: { active: false } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.data.active).toBe(false);
  });

  it('refuses a deactivated receiver', async () => {
    refused(await handover('erin', { toUserId: 'bob' }), 409, 40909); // bob is deactivated
  });
});
