import { beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { act, actOk, deploy, instance, myTask, oneStep, start, todo } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';

let t: Record<string, string>;
let n = 0;
/** Deploys a one-step process with this userTask configuration; answers its key. */
async function proc(configuration: Record<string, unknown>, extra?: Parameters<typeof oneStep>[2]) {
  const key = `p${++n}`;
  await deploy(t.admin, oneStep(key, configuration, extra));
  return key;
}
const openTasks = async (id: string) =>
  (await api(`/api/v1/workflow/tasks?instanceId=${id}&status=pending,active,waiting`, { token: t.admin })).body.data
    .items as any[];

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('ap'));
});

describe('approve modes', () => {
  /** alice starts a vote among bob, carol and dave under `voteRule` (none: the default majority). */
  const startVote = async (voteRule?: Record<string, unknown>) =>
    start(
      t.alice,
      await proc({ ...users('bob', 'carol', 'dave'), approveMode: 'vote', ...(voteRule && { voteRule }) }),
    );

  it('any: the first decision wins and the other ballots are cancelled', async () => {
    const id = await start(t.alice, await proc({ ...users('bob', 'carol', 'dave'), approveMode: 'any' }));
    const bob = await myTask(t.bob, id);
    const res = await actOk(t.bob, bob.id, 'approve');
    expect(res.instance.status).toBe('completed');
    const all = (await api(`/api/v1/workflow/tasks?instanceId=${id}`, { token: t.admin })).body.data.items;
    expect(
      all
        .filter((x: any) => x.result === 'cancelled')
        .map((x: any) => x.assignee)
        .sort(),
    ).toEqual(['carol', 'dave']);
    expect(all.find((x: any) => x.parentTaskId === null).result).toBe('approved');
  });

  it('all: one rejection vetoes', async () => {
    const id = await start(t.alice, await proc({ ...users('bob', 'carol'), approveMode: 'all' }));
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    const res = await actOk(t.carol, (await myTask(t.carol, id)).id, 'reject', { comment: 'no' });
    expect(res.instance.status).toBe('rejected');
  });

  it('sequential: one after another in resolved order; a rejection stops', async () => {
    const id = await start(t.alice, await proc({ ...users('carol', 'bob', 'dave'), approveMode: 'sequential' }));
    expect((await todo(t.bob)).filter((x) => x.instanceId === id)).toHaveLength(0);
    const waiting = (await openTasks(id))
      .filter((x) => x.status === 'waiting' && x.parentTaskId)
      .map((x) => x.assignee);
    expect(waiting.sort()).toEqual(['bob', 'dave']);
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    const res = await actOk(t.bob, (await myTask(t.bob, id)).id, 'reject');
    expect(res.instance.status).toBe('rejected');
    expect((await todo(t.dave)).filter((x) => x.instanceId === id)).toHaveLength(0);
  });

  it('vote majority: decided as soon as the threshold is met; open ballots cancelled', async () => {
    const id = await startVote();
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    const res = await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    expect(res.instance.status).toBe('completed');
  });

  it('vote percent: rejected as soon as the threshold can no longer be met', async () => {
    // 3 voters at 60% need 2 approvals; two rejections make it impossible.
    const id = await startVote({ type: 'percent', value: 60 });
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'reject');
    expect((await instance(t.alice, id)).status).toBe('active');
    const res = await actOk(t.carol, (await myTask(t.carol, id)).id, 'reject');
    expect(res.instance.status).toBe('rejected');
  });

  it('vote count: one approval is enough with count 1', async () => {
    const id = await startVote({ type: 'count', value: 1 });
    const res = await actOk(t.dave, (await myTask(t.dave, id)).id, 'approve');
    expect(res.instance.status).toBe('completed');
  });
});

describe('approver types', () => {
  it('manager levels 2 is the manager of the manager', async () => {
    const id = await start(t.alice, await proc({ approver: { type: 'manager', levels: 2 } }));
    const task = await myTask(t.carol, id);
    const trail = (await instance(t.alice, id)).trail;
    expect(trail.find((e: any) => e.type === 'assign' && e.taskId === task.id).detail.reason).toBe(
      'manager: level 2 manager of alice',
    );
  });

  it('multiLevelManager to the top gives every manager', async () => {
    const id = await start(
      t.alice,
      await proc({ approver: { type: 'multiLevelManager', levels: -1 }, approveMode: 'sequential' }),
    );
    const assignees = (await openTasks(id)).filter((x) => x.assignee).map((x) => x.assignee);
    expect(assignees).toEqual(expect.arrayContaining(['bob', 'carol', 'dave']));
  });

  it('role: one pending task claimable by the role members', async () => {
    const id = await start(t.alice, await proc({ approver: { type: 'role', roleIds: ['finance'] } }));
    const [task] = await openTasks(id);
    expect(task).toMatchObject({ status: 'pending', assignee: null, candidates: { roleIds: ['finance'] } });
    expect((await todo(t.grace)).map((x) => x.id)).toContain(task.id);
    expect((await todo(t.frank)).map((x) => x.id)).toContain(task.id);
    expect((await todo(t.bob)).map((x) => x.id)).not.toContain(task.id);
    const r = await act(t.grace, task.id, 'approve');
    expect(r.status).toBe(409);
    expect(r.body.message).toContain('claim');
  });

  it('dept: a pending pool of the department members', async () => {
    const id = await start(t.alice, await proc({ approver: { type: 'dept', deptIds: ['hr'] } }));
    const [task] = await openTasks(id);
    expect(task.candidates.deptIds).toEqual(['hr']);
    expect((await todo(t.erin)).map((x) => x.id)).toContain(task.id);
  });

  it('initiatorSelect takes the people the initiator picked', async () => {
    const id = await start(
      t.alice,
      await proc({ approver: { type: 'initiatorSelect', expression: '${msg.approvers}' }, approveMode: 'all' }),
      { approvers: ['erin', 'frank'] },
    );
    expect(
      (await openTasks(id))
        .filter((x) => x.assignee)
        .map((x) => x.assignee)
        .sort(),
    ).toEqual(['erin', 'frank']);
  });

  it('initiatorSelf gives the initiator the task', async () => {
    const id = await start(t.alice, await proc({ approver: { type: 'initiatorSelf' }, kind: 'handle' }));
    const task = await myTask(t.alice, id);
    expect(task.kind).toBe('handle');
    expect((await act(t.alice, task.id, 'reject')).status).toBe(409);
    const res = await actOk(t.alice, task.id, 'complete');
    expect(res.task.result).toBe('completed');
    expect(res.instance.status).toBe('completed');
  });
});

describe('self-approval and empty approvers', () => {
  it('skip removes the initiator from the approvers', async () => {
    const id = await start(t.bob, await proc({ ...users('bob', 'carol'), approveMode: 'all', selfApproval: 'skip' }));
    expect((await openTasks(id)).map((x) => x.assignee)).toEqual(['carol']);
  });

  it("autoApprove approves the initiator's ballot with a system comment", async () => {
    const id = await start(
      t.bob,
      await proc({ ...users('bob', 'carol'), approveMode: 'all', selfApproval: 'autoApprove' }),
    );
    const trail = (await instance(t.bob, id)).trail;
    expect(trail.find((e: any) => e.type === 'auto_approve').comment).toContain('initiator');
    const res = await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    expect(res.instance.status).toBe('completed');
  });

  it("delegateToManager hands the initiator's ballot to their manager", async () => {
    const id = await start(t.bob, await proc({ ...users('bob'), selfApproval: 'delegateToManager' }));
    await myTask(t.carol, id);
  });

  it('delegateToDeptManager hands it to the department leader', async () => {
    const id = await start(t.grace, await proc({ ...users('grace'), selfApproval: 'delegateToDeptManager' }));
    await myTask(t.frank, id);
  });

  it('tenant_admin: the admin gets the task and the fallback is recorded', async () => {
    const id = await start(t.dave, await proc({ approver: { type: 'manager' } }));
    const task = await myTask(t.admin, id);
    const full = (await api(`/api/v1/workflow/tasks/${task.id}`, { token: t.admin })).body.data;
    expect(full.assignee).toBe('admin');
    const trail = (await instance(t.dave, id)).trail;
    expect(trail.find((e: any) => e.type === 'assign').detail).toMatchObject({
      fallback_policy: 'tenant_admin',
      fallback_from: 'manager:dave',
    });
  });

  it('auto_approve: the system approves with a reason', async () => {
    const id = await start(t.dave, await proc({ approver: { type: 'manager' }, emptyApproverPolicy: 'auto_approve' }));
    const inst = await instance(t.dave, id);
    expect(inst.status).toBe('completed');
    expect(inst.trail.find((e: any) => e.type === 'auto_approve').comment).toContain('has no manager');
  });

  it('park: a pending task with no candidates waits for an admin', async () => {
    const id = await start(t.dave, await proc({ ...users('ghost'), emptyApproverPolicy: 'park' }));
    const [task] = await openTasks(id);
    expect(task).toMatchObject({
      status: 'pending',
      assignee: null,
      candidates: { userIds: [], roleIds: [], deptIds: [] },
    });
    const trail = (await instance(t.dave, id)).trail;
    expect(trail.find((e: any) => e.type === 'assign').detail).toMatchObject({
      fallback_policy: 'park',
      fallback_from: 'user:ghost',
      fallback_reason: 'not active users: ghost',
    });
  });

  it('park: a role or department nobody is in becomes the candidates, so fixing the directory lets a member claim', async () => {
    const roleDoc = await proc({ approver: { type: 'role', roleIds: ['treasurer'] }, emptyApproverPolicy: 'park' });
    const id = await start(t.dave, roleDoc);
    const [task] = await openTasks(id);
    expect(task).toMatchObject({ status: 'pending', candidates: { userIds: [], roleIds: ['treasurer'], deptIds: [] } });
    const assign = (await instance(t.dave, id)).trail.find((e: any) => e.type === 'assign').detail;
    expect(assign).toMatchObject({
      fallback_policy: 'park',
      fallback_from: 'role:treasurer',
      fallback_reason: 'role treasurer has no active members',
    });
    // Nobody may claim yet: erin is not in the role.
    expect((await act(t.erin, task.id, 'claim')).status).toBe(404);
    await api('/api/v1/roles', { token: t.admin, body: { code: 'treasurer', permissions: ['approval:operate'] } });
    expect(
      (await api('/api/v1/users/erin', { method: 'PATCH', token: t.admin, body: { roles: ['employee', 'treasurer'] } }))
        .status,
    ).toBe(200);
    await actOk(t.erin, task.id, 'claim');
    expect((await actOk(t.erin, task.id, 'approve')).instance.status).toBe('completed');
    await api('/api/v1/users/erin', { method: 'PATCH', token: t.admin, body: { roles: ['employee'] } });

    const deptId = await start(
      t.dave,
      await proc({ approver: { type: 'dept', deptIds: ['nowhere'] }, emptyApproverPolicy: 'park' }),
    );
    const [deptTask] = await openTasks(deptId);
    expect(deptTask.candidates).toEqual({ userIds: [], roleIds: [], deptIds: ['nowhere'] });
  });
});

describe('rules of acting', () => {
  it('someone who is not the assignee gets 409; without approval:operate 403', async () => {
    const id = await start(t.alice, await proc(users('bob')));
    const task = await myTask(t.bob, id);
    const r = await act(t.carol, task.id, 'approve');
    expect(r.status).toBe(404); // carol does not take part: the task does not exist for her
    const r2 = await act(t.alice, task.id, 'approve');
    expect(r2.status).toBe(409);
    expect(r2.body.code).toBe(40902);
    await api('/api/v1/roles', { token: t.admin, body: { code: 'viewer', permissions: ['workflow:definition:read'] } });
    await api('/api/v1/users/bob', { method: 'PATCH', token: t.admin, body: { roles: ['viewer'] } });
    const r3 = await act(t.bob, task.id, 'approve');
    expect(r3.status).toBe(403);
    await api('/api/v1/users/bob', { method: 'PATCH', token: t.admin, body: { roles: ['employee'] } });
  });

  it('a retried request with the same Idempotency-Key has one effect; a different approval races to 409', async () => {
    const id = await start(t.alice, await proc({ ...users('bob', 'carol'), approveMode: 'all' }));
    const task = await myTask(t.bob, id);
    const headers = { 'Idempotency-Key': `k-${id}` };
    const [a, b] = await Promise.all([
      act(t.bob, task.id, 'approve', { comment: 'one' }, headers),
      act(t.bob, task.id, 'approve', { comment: 'one' }, headers),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const approvals = (await instance(t.alice, id)).trail.filter((e: any) => e.type === 'approve');
    expect(approvals).toHaveLength(1);
    const carol = await myTask(t.carol, id);
    const [x, y] = await Promise.all([act(t.carol, carol.id, 'approve'), act(t.carol, carol.id, 'reject')]);
    expect([x.status, y.status].sort()).toEqual([200, 409]);
  });
});

describe('why am I the approver (assignmentReason)', () => {
  const reasonOf = async (token: string, taskId: string) => {
    const res = await api(`/api/v1/workflow/tasks/${taskId}`, { token });
    expect(res.status).toBe(200);
    return res.body.data.assignmentReason;
  };

  it('user list, in GET /tasks/{id} and in the to-do item', async () => {
    const id = await start(t.alice, await proc(users('bob')));
    const item = await myTask(t.bob, id);
    expect(item.assignmentReason).toEqual({
      kind: 'user',
      text: 'user list',
      ids: ['bob'],
      count: 1,
      level: null,
      by: null,
      rule: null,
    });
    expect(await reasonOf(t.bob, item.id)).toEqual(item.assignmentReason);
  });

  it('role pool with its member count', async () => {
    const id = await start(t.alice, await proc({ approver: { type: 'role', roleIds: ['finance'] } }));
    const [task] = await openTasks(id);
    const reason = await reasonOf(t.admin, task.id);
    expect(reason).toMatchObject({ kind: 'role', ids: ['finance'] });
    expect(reason.count).toBeGreaterThan(0);
    expect(reason.text).toBe(`role finance (${reason.count} member${reason.count === 1 ? '' : 's'})`);
  });

  it('manager of the initiator with the level; a multi-level chain says each level', async () => {
    const id = await start(t.alice, await proc({ approver: { type: 'manager', levels: 1 } }));
    const [task] = await openTasks(id);
    expect(await reasonOf(t.admin, task.id)).toMatchObject({
      kind: 'manager',
      text: 'manager of alice (level 1)',
      ids: ['alice'],
      level: 1,
    });
    const chain = await start(
      t.alice,
      await proc({ approver: { type: 'multiLevelManager', levels: 2 }, approveMode: 'all' }),
    );
    const texts = (await openTasks(chain))
      .filter((x) => x.parentTaskId)
      .map((x) => x.assignmentReason.text)
      .sort();
    expect(texts).toEqual(['manager of alice (level 1)', 'manager of alice (level 2)']);
  });

  it('delegated, transferred and added by add-sign name who did it', async () => {
    const id = await start(t.alice, await proc(users('bob')));
    const task = await myTask(t.bob, id);
    await actOk(t.bob, task.id, 'delegate', { assigneeUserId: 'erin' });
    expect((await myTask(t.erin, id)).assignmentReason).toMatchObject({
      kind: 'delegated',
      text: 'delegated by bob',
      by: 'bob',
    });
    await actOk(t.erin, task.id, 'resolve');
    expect((await reasonOf(t.bob, task.id)).text).toBe('user list'); // back with the owner
    await actOk(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol'], position: 'parallel' });
    const added = await myTask(t.carol, id);
    expect(added.assignmentReason).toMatchObject({ kind: 'addSign', text: 'added by bob (add-sign)', by: 'bob' });
    await actOk(t.bob, task.id, 'transfer', { assigneeUserId: 'dave' });
    expect(await reasonOf(t.dave, task.id)).toMatchObject({
      kind: 'transferred',
      text: 'transferred by bob',
      by: 'bob',
    });
  });

  it('a selfApproval substitute says whom it stands in for; an admin reassignment names the admin', async () => {
    const id = await start(t.bob, await proc({ ...users('bob'), selfApproval: 'delegateToManager' }));
    const task = await myTask(t.carol, id);
    expect(task.assignmentReason).toMatchObject({
      kind: 'selfApproval',
      text: 'stands in for the initiator bob (delegateToManager)',
      by: 'bob',
      rule: 'delegateToManager',
    });
    await actOk(t.admin, task.id, 'reassign', { assigneeUserId: 'erin' });
    expect((await myTask(t.erin, id)).assignmentReason).toMatchObject({
      kind: 'reassigned',
      text: 'reassigned by admin',
      by: 'admin',
    });
  });

  it('initiatorSelect and initiatorSelf', async () => {
    const picked = await start(
      t.alice,
      await proc({ approver: { type: 'initiatorSelect', expression: '${msg.approvers}' } }),
      { approvers: ['dave'] },
    );
    expect((await myTask(t.dave, picked)).assignmentReason).toMatchObject({
      kind: 'initiatorSelect',
      text: 'chosen by the initiator',
      ids: ['dave'],
    });
    const self = await start(t.alice, await proc({ approver: { type: 'initiatorSelf' } }));
    expect((await myTask(t.alice, self)).assignmentReason).toMatchObject({
      kind: 'initiatorSelf',
      text: 'the initiator',
      ids: ['alice'],
    });
  });

  it('fallback: the tenant admin because the rule resolved to nobody, naming the rule', async () => {
    const id = await start(t.dave, await proc({ approver: { type: 'manager' } }));
    const task = await myTask(t.admin, id);
    expect(task.assignmentReason).toMatchObject({
      kind: 'fallback',
      text: 'fallback: tenant admin because dave has no manager at level 1',
      rule: 'manager:dave',
      ids: ['admin'],
    });
    const parked = await start(
      t.dave,
      await proc({ approver: { type: 'role', roleIds: ['nobody-role'] }, emptyApproverPolicy: 'park' }),
    );
    const [p] = await openTasks(parked);
    expect(await reasonOf(t.admin, p.id)).toMatchObject({
      kind: 'fallback',
      text: 'fallback: parked for an admin because role nobody-role has no active members',
      rule: 'role:nobody-role',
      ids: ['nobody-role'],
    });
  });
});
