// The approver's toolbox over real HTTP (docs/contract.md#action-rules, docs/task-actions.md): every task action's success
// path (states, assignees, trail, list views right after the 200), its refusals, designer
// switches, tenancy and permissions, and a race between two actions on one task.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { api, createDemoLikeTenant, expectError, login, notifiedUsers } from '../helpers/api.js';
import { act, actOk, deploy, instance, myTask, oneStep, start, todo } from '../helpers/flow.js';
import { linear, processDoc, steps, testChain, users } from '../helpers/dsl.js';

const allOff = {
  transfer: false,
  delegate: false,
  return: false,
  addSign: false,
  reduceSign: false,
  addComment: false,
  terminate: false,
};

describe('task actions', () => {
  let t: Record<string, string>;
  let foreign: Record<string, string>;
  let viewer: string;
  let db: any;

  const tasksOf = async (instanceId: string, query = '') =>
    (await api(`/api/v1/workflow/tasks?instanceId=${instanceId}&pageSize=200${query}`, { token: t.admin })).body.data
      .items as any[];
  const trail = async (instanceId: string) => (await instance(t.admin, instanceId)).trail as any[];
  const trailTypes = async (instanceId: string) => (await trail(instanceId)).map((e) => e.type);
  const openIn = async (token: string, instanceId: string) =>
    (await todo(token)).filter((x) => x.instanceId === instanceId);
  const done = async (token: string) =>
    (await api('/api/v1/workflow/process-instances/done?pageSize=200', { token })).body.data.items as any[];
  const notified = (instanceId: string, kind: string) => notifiedUsers(db, instanceId, kind);
  /** alice starts `key`; the task of `user` on it. */
  const begin = async (key: string, user = 'bob', variables: Record<string, unknown> = {}) => {
    const id = await start(t.alice, key, variables);
    return { id, task: await myTask(t[user], id) };
  };

  beforeAll(async () => {
    ({ tokens: t } = await createDemoLikeTenant('ta'));
    ({ tokens: foreign } = await createDemoLikeTenant('tb'));
    // A user who may log in and read definitions, but not operate on tasks.
    const role = await api('/api/v1/roles', {
      token: t.admin,
      body: { code: 'viewer', permissions: ['workflow:definition:read', 'workflow:instance:start'] },
    });
    expect(role.status).toBe(201);
    const user = await api('/api/v1/users', {
      token: t.admin,
      body: { id: 'victor', username: 'victor', password: 'pw-victor', deptId: 'eng', roles: ['viewer'] },
    });
    expect(user.status).toBe(201);

    await deploy(t.admin, oneStep('ta_single', users('bob')));
    await deploy(t.admin, oneStep('ta_pool', { approver: { type: 'role', roleIds: ['finance'] } }));
    await deploy(t.admin, oneStep('ta_all', { ...users('bob', 'carol', 'erin'), approveMode: 'all' }));
    await deploy(
      t.admin,
      oneStep('ta_vote', {
        ...users('bob', 'carol', 'erin'),
        approveMode: 'vote',
        voteRule: { type: 'percent', value: 50 },
      }),
    );
    await deploy(
      t.admin,
      oneStep('ta_off', users('bob'), {
        nodeInfo: { actionPermissions: allOff },
        processInfo: { actionPermissions: { withdraw: false, urge: false, suspend: false } },
      }),
    );
    await deploy(
      t.admin,
      oneStep('ta_form', users('bob'), { nodeInfo: { formPermissions: { amount: 'r', secret: 'h', note: 'w' } } }),
    );
    await deploy(
      t.admin,
      linear('ta_chain', steps({ ...users('bob', 'carol'), approveMode: 'sequential' }, users('erin'), users('dave'))),
    );
    await deploy(
      t.admin,
      linear('ta_back_all', steps(users('dave'), { ...users('bob', 'carol'), approveMode: 'all' })),
    );
    await deploy(
      t.admin,
      processDoc(
        testChain('ta_fork', {}, 'Fork'),
        [
          { id: 'pre', type: 'userTask', name: 'Pre', configuration: users('dave') },
          { id: 'split', type: 'fork', name: 'Split' },
          { id: 'a', type: 'userTask', name: 'A', configuration: users('bob') },
          { id: 'b', type: 'userTask', name: 'B', configuration: users('carol') },
          { id: 'merge', type: 'join', name: 'Merge' },
        ],
        [
          ['start', 'pre'],
          ['pre', 'split'],
          ['split', 'a'],
          ['split', 'b'],
          ['a', 'merge'],
          ['b', 'merge'],
          ['merge', 'end'],
        ],
      ),
    );
    viewer = await login('victor', 'pw-victor', tenantOf(t.admin));
    db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
  });

  // ---------- claim / unclaim ----------

  describe('claim and unclaim', () => {
    it('a candidate claims a pending pool task; others lose it; unclaim puts it back in the same pool', async () => {
      const id = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.frank, id);
      expect(pooled).toMatchObject({ status: 'pending', assignee: null, candidates: { roleIds: ['finance'] } });
      expect(await openIn(t.grace, id)).toHaveLength(1);

      const claimed = await actOk(t.frank, pooled.id, 'claim');
      expect(claimed.task).toMatchObject({ id: pooled.id, status: 'active', assignee: 'frank' });
      expect(claimed.instance).toEqual({ id, status: 'active' });
      expect(await openIn(t.grace, id)).toHaveLength(0);
      expect((await myTask(t.frank, id)).status).toBe('active');
      expect((await tasksOf(id, '&status=active&assignee=frank')).map((x) => x.id)).toEqual([pooled.id]);
      expect(await tasksOf(id, '&status=pending')).toHaveLength(0);
      expect(await trailTypes(id)).toContain('claim');

      expectError(await act(t.grace, pooled.id, 'claim'), 409, 40901); // a second claim
      expectError(await act(t.grace, pooled.id, 'unclaim'), 409, 40902); // not the claimer

      const back = await actOk(t.frank, pooled.id, 'unclaim');
      expect(back.task).toMatchObject({ status: 'pending', assignee: null, candidates: { roleIds: ['finance'] } });
      expect(await openIn(t.grace, id)).toHaveLength(1);
      expect(await openIn(t.frank, id)).toHaveLength(1);
      expect(await tasksOf(id, '&status=pending')).toHaveLength(1);
      const types = await trailTypes(id);
      expect(types.indexOf('unclaim')).toBeGreaterThan(types.indexOf('claim'));
      expectError(await act(t.frank, pooled.id, 'unclaim'), 409, 40901); // pending again
    });

    it('refusals: a non-candidate, a non-pending task, approving before claiming, unknown fields', async () => {
      const { task } = await begin('ta_single');
      expectError(await act(t.bob, task.id, 'claim'), 409, 40901); // active, not a pool
      const pool = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.grace, pool);
      expectError(await act(t.alice, pooled.id, 'claim'), 409, 40902); // initiator, not a candidate
      expectError(await act(t.grace, pooled.id, 'approve'), 409, 40901);
      expectError(await act(t.grace, pooled.id, 'claim', { foo: 1 }), 400, 40003);
      expectError(await act(t.bob, task.id, 'unclaim'), 409, 40902); // assigned, never claimed
    });

    it('two candidates claiming at once: exactly one wins', async () => {
      const id = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.grace, id);
      const results = await Promise.all([act(t.frank, pooled.id, 'claim'), act(t.grace, pooled.id, 'claim')]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    });
  });

  // ---------- transfer ----------

  describe('transfer', () => {
    it('moves the same task to another user for good', async () => {
      const { id, task } = await begin('ta_single');
      const res = await actOk(t.bob, task.id, 'transfer', { assigneeUserId: 'carol', reason: 'on leave' });
      expect(res.task).toMatchObject({ id: task.id, status: 'active', assignee: 'carol', owner: null, result: null });
      expect(await openIn(t.bob, id)).toHaveLength(0);
      expect((await myTask(t.carol, id)).id).toBe(task.id);
      expect((await tasksOf(id, '&status=active&assignee=carol')).map((x) => x.id)).toEqual([task.id]);
      const entry = (await trail(id)).find((e) => e.type === 'transfer');
      expect(entry).toMatchObject({
        taskId: task.id,
        userId: 'bob',
        detail: { from: 'bob', to: 'carol', reason: 'on leave' },
      });
      expect(await notified(id, 'task_assigned')).toEqual(['bob', 'carol']);
      expectError(await act(t.bob, task.id, 'approve'), 409, 40902);
      const end = await actOk(t.carol, task.id, 'approve');
      expect(end.instance.status).toBe('completed');
      expect((await done(t.carol)).map((x) => x.id)).toContain(task.id);
    });

    it('refusals: not the assignee, to oneself, unknown user, missing or unknown fields, switch off', async () => {
      const { task } = await begin('ta_single');
      expectError(await act(t.alice, task.id, 'transfer', { assigneeUserId: 'carol' }), 409, 40902);
      expectError(await act(t.bob, task.id, 'transfer', { assigneeUserId: 'bob' }), 409, 40907);
      // A well-formed body naming a user the tenant does not have: 404 REFERENCE_NOT_FOUND (docs/http.md).
      expectError(await act(t.bob, task.id, 'transfer', { assigneeUserId: 'nobody' }), 404, 40410);
      expectError(await act(t.bob, task.id, 'transfer', {}), 400, 40001);
      expectError(await act(t.bob, task.id, 'transfer', { assigneeUserId: 'carol', extra: true }), 400, 40003);
      const off = await begin('ta_off');
      expectError(await act(t.bob, off.task.id, 'transfer', { assigneeUserId: 'carol' }), 403, 40302);
      expect((await myTask(t.bob, off.id)).assignee).toBe('bob');
    });

    it('a repeated request with the same Idempotency-Key has one effect', async () => {
      const { id, task } = await begin('ta_single');
      const headers = { 'Idempotency-Key': `transfer-${task.id}` };
      const first = await act(t.bob, task.id, 'transfer', { assigneeUserId: 'carol' }, headers);
      const again = await act(t.bob, task.id, 'transfer', { assigneeUserId: 'carol' }, headers);
      expect([first.status, again.status]).toEqual([200, 200]);
      expect((await trailTypes(id)).filter((x) => x === 'transfer')).toHaveLength(1);
    });
  });

  // ---------- delegate / resolve ----------

  describe('delegate and resolve', () => {
    it('the delegatee decides, the task returns to the owner and the flow does not move', async () => {
      const { id, task } = await begin('ta_single');
      const res = await actOk(t.bob, task.id, 'delegate', { assigneeUserId: 'erin', reason: 'please check' });
      expect(res.task).toMatchObject({ id: task.id, status: 'active', assignee: 'erin', owner: 'bob' });
      expect(await openIn(t.bob, id)).toHaveLength(0);
      expect((await myTask(t.erin, id)).owner).toBe('bob');
      expect((await trail(id)).find((e) => e.type === 'delegate')).toMatchObject({
        userId: 'bob',
        detail: { owner: 'bob', to: 'erin' },
      });
      expectError(await act(t.erin, task.id, 'delegate', { assigneeUserId: 'carol' }), 409, 40901); // already delegated
      expectError(await act(t.erin, task.id, 'transfer', { assigneeUserId: 'carol' }), 409, 40901);

      const opinion = await actOk(t.erin, task.id, 'approve', { comment: 'looks fine' });
      expect(opinion.task).toMatchObject({ id: task.id, status: 'active', assignee: 'bob', owner: null });
      expect(opinion.instance.status).toBe('active');
      expect(await openIn(t.erin, id)).toHaveLength(0);
      expect((await myTask(t.bob, id)).id).toBe(task.id);
      const approveEntry = (await trail(id)).find((e) => e.type === 'approve');
      expect(approveEntry).toMatchObject({
        userId: 'erin',
        comment: 'looks fine',
        detail: { delegated: true, owner: 'bob' },
      });
      expect((await actOk(t.bob, task.id, 'approve')).instance.status).toBe('completed');
    });

    it('resolve: the delegatee hands back, or the owner takes back; without a delegation it is 409', async () => {
      const { id, task } = await begin('ta_single');
      expectError(await act(t.bob, task.id, 'resolve'), 409, 40901);
      await actOk(t.bob, task.id, 'delegate', { assigneeUserId: 'erin' });
      expectError(await act(t.alice, task.id, 'resolve'), 409, 40902);
      const handedBack = await actOk(t.erin, task.id, 'resolve');
      expect(handedBack.task).toMatchObject({ status: 'active', assignee: 'bob', owner: null });
      expect(await openIn(t.erin, id)).toHaveLength(0);
      expect(await openIn(t.bob, id)).toHaveLength(1);
      await actOk(t.bob, task.id, 'delegate', { assigneeUserId: 'carol' });
      const takenBack = await actOk(t.bob, task.id, 'resolve');
      expect(takenBack.task).toMatchObject({ assignee: 'bob', owner: null });
      expect(await openIn(t.carol, id)).toHaveLength(0);
      const resolves = (await trail(id)).filter((e) => e.type === 'resolve');
      expect(resolves.map((e) => e.detail.by)).toEqual(['delegatee', 'owner']);
      expectError(await act(t.bob, task.id, 'resolve'), 409, 40901);
    });

    it('refusals: not the assignee, to oneself, unknown user, switch off', async () => {
      const { task } = await begin('ta_single');
      expectError(await act(t.alice, task.id, 'delegate', { assigneeUserId: 'erin' }), 409, 40902);
      expectError(await act(t.bob, task.id, 'delegate', { assigneeUserId: 'bob' }), 409, 40907);
      expectError(await act(t.bob, task.id, 'delegate', { assigneeUserId: 'ghost' }), 404, 40410);
      const off = await begin('ta_off');
      expectError(await act(t.bob, off.task.id, 'delegate', { assigneeUserId: 'erin' }), 403, 40302);
    });
  });

  // ---------- return ----------

  describe('return', () => {
    it('goes back to the most recently completed approval node only; a sequential node starts again from its first approver', async () => {
      const id = await start(t.alice, 'ta_chain');
      await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
      await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
      const erinFirst = await myTask(t.erin, id);
      await actOk(t.erin, erinFirst.id, 'approve');
      const daveTask = await myTask(t.dave, id);

      const older = await act(t.dave, daveTask.id, 'return', { targetActivityId: 'n1' });
      expectError(older, 409, 40907);
      expect(older.body.message).toContain('n2');
      expect(older.body.data).toEqual({ allowedTarget: 'n2' });
      expectError(await act(t.dave, daveTask.id, 'return', { targetActivityId: 'n3' }), 409, 40907); // itself
      expectError(await act(t.dave, daveTask.id, 'return', { targetActivityId: 'nowhere' }), 409, 40907);
      expectError(await act(t.dave, daveTask.id, 'return', {}), 400, 40001);
      expectError(await act(t.erin, daveTask.id, 'return', { targetActivityId: 'n2' }), 409, 40902);

      const res = await actOk(t.dave, daveTask.id, 'return', { targetActivityId: 'n2', reason: 'missing receipt' });
      expect(res.task).toMatchObject({ id: daveTask.id, status: 'completed', result: 'returned' });
      expect(res.instance.status).toBe('active');
      expect(await openIn(t.dave, id)).toHaveLength(0);
      expect((await done(t.dave)).map((x) => x.id)).toContain(daveTask.id);
      const erinAgain = await myTask(t.erin, id);
      expect(erinAgain.id).not.toBe(erinFirst.id);
      expect(erinAgain).toMatchObject({ activityId: 'n2', status: 'active' });
      expect((await trail(id)).find((e) => e.type === 'return')).toMatchObject({
        userId: 'dave',
        activityId: 'n3',
        detail: { target: 'n2', reason: 'missing receipt' },
      });
      expect(await notified(id, 'task_returned')).toEqual(['alice']);

      // n2 returns to n1: the sequence starts again with bob; carol waits her turn.
      await actOk(t.erin, erinAgain.id, 'return', { targetActivityId: 'n1' });
      const bobAgain = await myTask(t.bob, id);
      expect(bobAgain).toMatchObject({ activityId: 'n1', status: 'active' });
      expect(await openIn(t.carol, id)).toHaveLength(0);
      const waiting = (await tasksOf(id, '&status=waiting')).filter((x) => x.assignee); // not the node's parent task
      expect(waiting.map((x) => [x.activityId, x.assignee])).toEqual([['n1', 'carol']]);
      expect((await instance(t.admin, id)).currentNodes).toEqual(['n1']);
    });

    it('refused on the first approval node (nothing before it) and across a fork/join', async () => {
      const { task } = await begin('ta_single');
      const none = await act(t.bob, task.id, 'return', { targetActivityId: 'start' });
      expectError(none, 409, 40907);
      expect(none.body.data).toEqual({ allowedTarget: null });
      const id = await start(t.alice, 'ta_fork');
      await actOk(t.dave, (await myTask(t.dave, id)).id, 'approve');
      const branch = await myTask(t.bob, id, 'a');
      expectError(await act(t.bob, branch.id, 'return', { targetActivityId: 'pre' }), 409, 40907);
    });

    it('from a multi-approver node: the other open ballots are cancelled and the target gets a fresh task', async () => {
      const id = await start(t.alice, 'ta_back_all');
      await actOk(t.dave, (await myTask(t.dave, id)).id, 'approve');
      const bob = await myTask(t.bob, id);
      const carol = await myTask(t.carol, id);
      await actOk(t.bob, bob.id, 'return', { targetActivityId: 'n1', comment: 'wrong cost centre' });
      const byId = new Map((await tasksOf(id)).map((x) => [x.id, x]));
      expect(byId.get(bob.id)).toMatchObject({ status: 'completed', result: 'returned', comment: 'wrong cost centre' });
      expect(byId.get(carol.id)).toMatchObject({ status: 'cancelled', result: 'cancelled' });
      expect(byId.get(bob.parentTaskId)).toMatchObject({ result: 'returned' });
      expect(await openIn(t.carol, id)).toHaveLength(0);
      expect((await myTask(t.dave, id)).activityId).toBe('n1');
    });

    it('designer switch return=false → 403', async () => {
      const off = await begin('ta_off');
      expectError(await act(t.bob, off.task.id, 'return', { targetActivityId: 'start' }), 403, 40302);
    });
  });

  // ---------- add-sign ----------

  describe('add-sign', () => {
    it('before (default): the added signers sign first while the original task waits', async () => {
      const { id, task } = await begin('ta_single');
      const res = await actOk(t.bob, task.id, 'add-sign', {
        assigneeUserIds: ['carol', 'erin'],
        reason: 'second opinion',
      });
      expect(res.task).toMatchObject({ id: task.id, status: 'waiting', assignee: 'bob' });
      expect(await openIn(t.bob, id)).toHaveLength(0);
      const carol = await myTask(t.carol, id);
      const erin = await myTask(t.erin, id);
      expect(carol).toMatchObject({ parentTaskId: task.id, status: 'active', activityId: 'approve' });
      expect(erin.parentTaskId).toBe(task.id);
      expect((await trail(id)).find((e) => e.type === 'add_sign')).toMatchObject({
        userId: 'bob',
        detail: { assigneeUserIds: ['carol', 'erin'], position: 'before', reason: 'second opinion' },
      });
      expectError(await act(t.bob, task.id, 'approve'), 409, 40901);

      await actOk(t.carol, carol.id, 'approve');
      expect((await tasksOf(id, '&status=waiting')).map((x) => x.id)).toEqual([task.id]);
      const last = await actOk(t.erin, erin.id, 'approve');
      expect(last.instance.status).toBe('active');
      expect((await myTask(t.bob, id)).status).toBe('active');
      expect((await actOk(t.bob, task.id, 'approve')).instance.status).toBe('completed');
    });

    it('after: they sign after the original approver approves, before the node completes', async () => {
      const { id, task } = await begin('ta_single');
      await actOk(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol'], position: 'after' });
      expect(await openIn(t.carol, id)).toHaveLength(0);
      expect((await tasksOf(id, '&status=waiting&assignee=carol'))[0]).toMatchObject({ parentTaskId: task.id });
      const mine = await actOk(t.bob, task.id, 'approve');
      expect(mine.task).toMatchObject({ status: 'completed', result: 'approved' });
      expect(mine.instance.status).toBe('active');
      const carol = await myTask(t.carol, id);
      expect(carol.status).toBe('active');
      expect((await actOk(t.carol, carol.id, 'approve')).instance.status).toBe('completed');
    });

    it("parallel: they sign alongside; a rejection by an added signer is the node's rejection", async () => {
      const { id, task } = await begin('ta_single');
      await actOk(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol'], position: 'parallel' });
      expect((await myTask(t.bob, id)).status).toBe('active');
      const carol = await myTask(t.carol, id);
      expect((await actOk(t.bob, task.id, 'approve')).instance.status).toBe('active');
      const res = await actOk(t.carol, carol.id, 'reject', { comment: 'no budget' });
      expect(res.instance.status).toBe('rejected');
    });

    it('an added signer approving in parallel mode completes the node once the original approver did too', async () => {
      const { id, task } = await begin('ta_single');
      await actOk(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol'], position: 'parallel' });
      const carol = await myTask(t.carol, id);
      expect((await actOk(t.carol, carol.id, 'approve')).instance.status).toBe('active');
      expect((await actOk(t.bob, task.id, 'approve')).instance.status).toBe('completed');
    });

    it('before, on a sequential node: the next approver keeps waiting until the original approver decided', async () => {
      const id = await start(t.alice, 'ta_chain');
      const bob = await myTask(t.bob, id);
      await actOk(t.bob, bob.id, 'add-sign', { assigneeUserIds: ['erin'] });
      expect(await openIn(t.carol, id)).toHaveLength(0);
      await actOk(t.erin, (await myTask(t.erin, id)).id, 'approve');
      expect(await openIn(t.carol, id)).toHaveLength(0);
      expect((await myTask(t.bob, id)).status).toBe('active');
      await actOk(t.bob, bob.id, 'approve');
      expect((await myTask(t.carol, id)).activityId).toBe('n1');
    });

    it('refusals: oneself, someone already signing, not the assignee, bad body, switch off', async () => {
      const { id, task } = await begin('ta_single');
      expectError(await act(t.bob, task.id, 'add-sign', { assigneeUserIds: ['bob'] }), 409, 40907);
      expectError(await act(t.alice, task.id, 'add-sign', { assigneeUserIds: ['carol'] }), 409, 40902);
      expectError(await act(t.bob, task.id, 'add-sign', { assigneeUserIds: [] }), 400, 40001);
      expectError(
        await act(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol'], position: 'sideways' }),
        400,
        40001,
      );
      expectError(await act(t.bob, task.id, 'add-sign', { assigneeUserIds: ['nobody'] }), 404, 40410);
      await actOk(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol'], position: 'parallel' });
      expectError(await act(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol'] }), 409, 40907);
      expect(await openIn(t.carol, id)).toHaveLength(1);
      const off = await begin('ta_off');
      expectError(await act(t.bob, off.task.id, 'add-sign', { assigneeUserIds: ['carol'] }), 403, 40302);
    });
  });

  // ---------- reduce-sign ----------

  describe('reduce-sign', () => {
    it('removes added signers who have not acted; those who acted stay; the original task gets its turn', async () => {
      const { id, task } = await begin('ta_single');
      await actOk(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol', 'erin'] });
      await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
      const erinTask = await myTask(t.erin, id);
      const res = await actOk(t.bob, task.id, 'reduce-sign', { assigneeUserIds: ['carol', 'erin'], reason: 'enough' });
      expect(res.removed).toEqual(['erin']);
      expect(res.kept).toEqual(['carol']);
      expect(await notified(id, 'task_removed')).toEqual(['erin']);
      expect(res.task).toMatchObject({ id: task.id, status: 'active' });
      expect(await openIn(t.erin, id)).toHaveLength(0);
      expect((await tasksOf(id)).find((x) => x.id === erinTask.id)).toMatchObject({
        status: 'cancelled',
        result: 'cancelled',
      });
      expect((await trail(id)).find((e) => e.type === 'reduce_sign')).toMatchObject({
        userId: 'bob',
        detail: { removed: ['erin'], kept: ['carol'] },
      });
      expect((await actOk(t.bob, task.id, 'approve')).instance.status).toBe('completed');
    });

    it('only the member who added a signer may remove them', async () => {
      const { id, task } = await begin('ta_single');
      await actOk(t.bob, task.id, 'add-sign', { assigneeUserIds: ['carol', 'erin'] });
      const erinTask = await myTask(t.erin, id);
      expectError(await act(t.erin, erinTask.id, 'reduce-sign', { assigneeUserIds: ['carol'] }), 409, 40902);
      expectError(await act(t.bob, task.id, 'reduce-sign', { assigneeUserIds: ['dave'] }), 409, 40907); // not a signer
      expect(await openIn(t.carol, id)).toHaveLength(1);
    });

    it('an approver of a multi-approver node removes open ballots of others; the threshold is recomputed', async () => {
      const id = await start(t.alice, 'ta_all');
      const bob = await myTask(t.bob, id);
      const res = await actOk(t.bob, bob.id, 'reduce-sign', { assigneeUserIds: ['erin'] });
      expect(res).toMatchObject({ removed: ['erin'], kept: [] });
      expect(await openIn(t.erin, id)).toHaveLength(0);
      await actOk(t.bob, bob.id, 'approve');
      expect((await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve')).instance.status).toBe('completed');
    });

    it('vote: removing a ballot lowers the percent threshold', async () => {
      const id = await start(t.alice, 'ta_vote');
      const carol = await myTask(t.carol, id);
      await actOk(t.carol, carol.id, 'reduce-sign', { assigneeUserIds: ['erin'] }); // 50% of 3 = 2 → 50% of 2 = 1
      expect((await actOk(t.carol, carol.id, 'approve')).instance.status).toBe('completed');
    });

    it('refusals: removing every open ballot, oneself, a stranger, switch off', async () => {
      const id = await start(t.alice, 'ta_all');
      const bob = await myTask(t.bob, id);
      await actOk(t.bob, bob.id, 'approve');
      expectError(await act(t.bob, bob.id, 'reduce-sign', { assigneeUserIds: ['carol', 'erin'] }), 409, 40901);
      const carol = await myTask(t.carol, id);
      expectError(await act(t.carol, carol.id, 'reduce-sign', { assigneeUserIds: ['carol'] }), 409, 40907);
      const kept = await actOk(t.carol, carol.id, 'reduce-sign', { assigneeUserIds: ['bob'] }); // bob acted: he stays
      expect(kept).toMatchObject({ removed: [], kept: ['bob'] });
      expectError(await act(t.alice, carol.id, 'reduce-sign', { assigneeUserIds: ['erin'] }), 409, 40902); // not an approver
      expectError(await act(t.carol, carol.id, 'reduce-sign', { assigneeUserIds: [] }), 400, 40001);
      const off = await begin('ta_off');
      expectError(await act(t.bob, off.task.id, 'reduce-sign', { assigneeUserIds: ['carol'] }), 403, 40302);
    });
  });

  // ---------- withdraw ----------

  describe('withdraw (through a task)', () => {
    it('the initiator withdraws: instance terminated, open tasks cancelled as withdrawn', async () => {
      const { id, task } = await begin('ta_single');
      expectError(await act(t.bob, task.id, 'withdraw'), 403, 40304);
      const res = await actOk(t.alice, task.id, 'withdraw', { reason: 'no longer needed' });
      expect(res.task).toMatchObject({ id: task.id, status: 'cancelled', result: 'withdrawn' });
      expect(res.instance).toEqual({ id, status: 'terminated' });
      const inst = await instance(t.alice, id);
      expect(inst).toMatchObject({ endReason: 'Withdrawn by applicant', endCode: 'end.withdrawn', endParams: {} });
      expect(inst.trail.map((e: any) => e.type)).toContain('withdraw');
      expect(await openIn(t.bob, id)).toHaveLength(0);
      expect(
        (await api(`/api/v1/workflow/tasks?instanceId=${id}&status=active`, { token: t.admin })).body.data.items,
      ).toHaveLength(0);
      expect(await notified(id, 'instance_withdrawn')).toEqual(['bob']);
      expectError(await act(t.alice, task.id, 'withdraw'), 409, 40901);
    });

    it('process switch withdraw=false → 403', async () => {
      const off = await begin('ta_off');
      expectError(await act(t.alice, off.task.id, 'withdraw'), 403, 40302);
    });
  });

  // ---------- urge ----------

  describe('urge', () => {
    it('the initiator urges the current handler, at most once per task per 10 minutes', async () => {
      const { id, task } = await begin('ta_single');
      expectError(await api(`/api/v1/workflow/tasks/urge/${task.id}`, { token: t.bob, body: {} }), 403, 40304);
      const res = await api(`/api/v1/workflow/tasks/urge/${task.id}`, { token: t.alice, body: { message: 'please' } });
      expect(res.status).toBe(200);
      expect(res.body.data.task).toMatchObject({ id: task.id, status: 'active', assignee: 'bob' });
      expect((await trail(id)).find((e) => e.type === 'urge')).toMatchObject({
        userId: 'alice',
        comment: 'please',
        detail: { notified: ['bob'] },
      });
      expect(await notified(id, 'urge')).toEqual(['bob']);
      expectError(await api(`/api/v1/workflow/tasks/urge/${task.id}`, { token: t.alice, body: {} }), 429, 42900);
      expect((await trailTypes(id)).filter((x) => x === 'urge')).toHaveLength(1);
      expectError(
        await api(`/api/v1/workflow/tasks/urge/${task.id}`, { token: t.alice, body: { extra: 1 } }),
        400,
        40003,
      );
    });

    it('workflow:monitor may urge too; a pool task notifies its candidates', async () => {
      const id = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.frank, id);
      const res = await api(`/api/v1/workflow/tasks/urge/${pooled.id}`, { token: t.admin, body: {} });
      expect(res.status).toBe(200);
      expect((await trail(id)).find((e) => e.type === 'urge').detail).toMatchObject({
        candidates: { roleIds: ['finance'] },
      });
    });

    it('process switch urge=false → 403', async () => {
      const off = await begin('ta_off');
      expectError(await api(`/api/v1/workflow/tasks/urge/${off.task.id}`, { token: t.alice, body: {} }), 403, 40302);
    });
  });

  // ---------- suspend / activate ----------

  describe('suspend and activate', () => {
    it('a task: suspended and hidden from to-do, then restored', async () => {
      const { id, task } = await begin('ta_single');
      expectError(await act(t.bob, task.id, 'suspend'), 403, 40304);
      const res = await actOk(t.alice, task.id, 'suspend');
      expect(res.task).toMatchObject({ status: 'suspended', assignee: 'bob' });
      expect(await openIn(t.bob, id)).toHaveLength(0);
      expect((await tasksOf(id, '&status=suspended')).map((x) => x.id)).toEqual([task.id]);
      expectError(await act(t.bob, task.id, 'approve'), 409, 40901);
      expectError(await act(t.alice, task.id, 'suspend'), 409, 40901);
      const back = await actOk(t.alice, task.id, 'activate');
      expect(back.task.status).toBe('active');
      expect(await openIn(t.bob, id)).toHaveLength(1);
      expectError(await act(t.alice, task.id, 'activate'), 409, 40901);
      expect(
        (await trail(id)).filter((e) => ['suspend', 'activate'].includes(e.type)).map((e) => [e.type, e.detail.scope]),
      ).toEqual([
        ['suspend', 'task'],
        ['activate', 'task'],
      ]);
    });

    it('an instance: every task action is 409 while suspended; activation restores the statuses', async () => {
      const id = await start(t.alice, 'ta_chain');
      const bob = await myTask(t.bob, id);
      const path = `/api/v1/workflow/process-instances/${id}`;
      expectError(await api(`${path}/suspend`, { token: t.bob, body: {} }), 403, 40304);
      const res = await api(`${path}/suspend`, { token: t.alice, body: { reason: 'waiting for budget' } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id, status: 'suspended' });
      expect(await notified(id, 'instance_suspended')).toEqual(['bob', 'carol']);
      expect((await tasksOf(id)).filter((x) => x.status !== 'suspended')).toHaveLength(0);
      expect(await openIn(t.bob, id)).toHaveLength(0);
      for (const [action, body] of [
        ['approve', {}],
        ['transfer', { assigneeUserId: 'erin' }],
        ['add-sign', { assigneeUserIds: ['erin'] }],
        ['suspend', {}],
      ] as const) {
        expectError(await act(action === 'suspend' ? t.alice : t.bob, bob.id, action, body), 409, 40901);
      }
      expectError(await api(`/api/v1/workflow/tasks/urge/${bob.id}`, { token: t.alice, body: {} }), 409, 40901);
      expectError(await api(`${path}/suspend`, { token: t.alice, body: {} }), 409, 40901);

      const back = await api(`${path}/activate`, { token: t.admin, body: {} }); // workflow:instance:manage
      expect(back.body.data).toEqual({ id, status: 'active' });
      const statuses = (await tasksOf(id))
        .filter((x) => x.assignee)
        .map((x) => [x.assignee, x.status])
        .sort();
      expect(statuses).toEqual([
        ['bob', 'active'],
        ['carol', 'waiting'],
      ]);
      expect(await openIn(t.bob, id)).toHaveLength(1);
      expectError(await api(`${path}/activate`, { token: t.alice, body: {} }), 409, 40901);
      expect((await trailTypes(id)).filter((x) => x === 'suspend' || x === 'activate')).toEqual([
        'suspend',
        'activate',
      ]);
    });

    it('workflow:instance:manage may suspend and activate a task', async () => {
      const { id, task } = await begin('ta_single');
      expect((await actOk(t.admin, task.id, 'suspend', { reason: 'audit' })).task.status).toBe('suspended');
      expect(await openIn(t.bob, id)).toHaveLength(0);
      expect((await actOk(t.admin, task.id, 'activate')).task.status).toBe('active');
    });

    it('a task suspended on its own stays suspended when its instance is activated', async () => {
      const { id, task } = await begin('ta_single');
      await actOk(t.alice, task.id, 'suspend');
      const path = `/api/v1/workflow/process-instances/${id}`;
      expect((await api(`${path}/suspend`, { token: t.alice, body: {} })).status).toBe(200);
      expect((await api(`${path}/activate`, { token: t.alice, body: {} })).status).toBe(200);
      expect((await tasksOf(id))[0].status).toBe('suspended');
      expect((await actOk(t.alice, task.id, 'activate')).task.status).toBe('active');
    });

    it('a draft cannot be suspended (409); switch suspend=false stops the initiator, not a manager', async () => {
      const draft = await api('/api/v1/workflow/process-instances/start', {
        token: t.alice,
        body: { processKey: 'ta_single', draft: true },
      });
      expect(draft.status).toBe(201);
      expectError(
        await api(`/api/v1/workflow/process-instances/${draft.body.data.instanceId}/suspend`, {
          token: t.alice,
          body: {},
        }),
        409,
        40901,
      );
      const off = await begin('ta_off');
      expectError(
        await api(`/api/v1/workflow/process-instances/${off.id}/suspend`, { token: t.alice, body: {} }),
        403,
        40302,
      );
      expectError(await act(t.alice, off.task.id, 'suspend'), 403, 40302);
      expect(
        (await api(`/api/v1/workflow/process-instances/${off.id}/suspend`, { token: t.admin, body: {} })).body.data
          .status,
      ).toBe('suspended');
    });

    it('withdraw still works on a suspended instance', async () => {
      const { id, task } = await begin('ta_single');
      await api(`/api/v1/workflow/process-instances/${id}/suspend`, { token: t.alice, body: {} });
      const res = await actOk(t.alice, task.id, 'withdraw');
      expect(res.instance.status).toBe('terminated');
      expect(res.task.result).toBe('withdrawn');
    });
  });

  // ---------- reassign ----------

  describe('reassign (workflow:admin)', () => {
    it('moves an active task and writes a system comment', async () => {
      const { id, task } = await begin('ta_single');
      expectError(await act(t.bob, task.id, 'reassign', { assigneeUserId: 'carol' }), 403, 40300);
      const res = await actOk(t.admin, task.id, 'reassign', { assigneeUserId: 'carol', reason: 'bob left' });
      expect(res.task).toMatchObject({ id: task.id, status: 'active', assignee: 'carol' });
      expect(await openIn(t.bob, id)).toHaveLength(0);
      expect((await myTask(t.carol, id)).id).toBe(task.id);
      const entry = (await trail(id)).find((e) => e.type === 'reassign');
      expect(entry.detail).toMatchObject({ admin: expect.any(String), from: 'bob', to: 'carol', reason: 'bob left' });
      expect(await notified(id, 'task_reassigned')).toEqual(['bob']);
      const comments = await api(`/api/v1/workflow/tasks/${task.id}/comments`, { token: t.carol });
      expect(comments.body.data.items[0]).toMatchObject({
        userId: 'system',
        comment: expect.stringContaining('from bob to carol: bob left'),
      });
      expectError(await act(t.admin, task.id, 'reassign', { assigneeUserId: 'nobody' }), 404, 40410);
      expectError(await act(t.admin, task.id, 'reassign', { assigneeUserId: 'carol' }), 409, 40907);
      await actOk(t.carol, task.id, 'approve');
      expectError(await act(t.admin, task.id, 'reassign', { assigneeUserId: 'dave' }), 409, 40901);
    });

    it('moves a pending pool task to a user', async () => {
      const id = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.frank, id);
      const res = await actOk(t.admin, pooled.id, 'reassign', { assigneeUserId: 'dave' });
      expect(res.task).toMatchObject({ status: 'active', assignee: 'dave' });
      expect(await openIn(t.frank, id)).toHaveLength(0);
      expect((await myTask(t.dave, id)).id).toBe(pooled.id);
    });
  });

  // ---------- candidates ----------

  describe('candidates', () => {
    it('list, add (admin) and remove (initiator) on a pending pool', async () => {
      const id = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.frank, id);
      const url = `/api/v1/workflow/tasks/${pooled.id}/candidates`;
      /** One page of the candidate names, whose last item is the finance role. */
      const expectPage = async (
        token: string,
        query: string,
        page: { total: number; page: number; pageSize: number },
      ) => {
        const list = await api(`${url}${query}`, { token });
        expect(list.status).toBe(200);
        expect(list.body.data).toMatchObject({ ...page, items: [{ type: 'role', id: 'finance' }] });
      };
      await expectPage(t.frank, '', { total: 1, page: 1, pageSize: 20 });

      expectError(await api(url, { token: t.frank, body: { userIds: ['erin'] } }), 403, 40300);
      const added = await api(url, { token: t.admin, body: { userIds: ['erin'] } });
      expect(added.status).toBe(200);
      expect(added.body.data.task.candidates).toEqual({ userIds: ['erin'], roleIds: ['finance'], deptIds: [] });
      expect((await myTask(t.erin, id)).id).toBe(pooled.id);
      await expectPage(t.admin, '?pageSize=1&page=2', { total: 2, page: 2, pageSize: 1 });

      expectError(await api(`${url}/remove`, { token: t.frank, body: { userIds: ['erin'] } }), 403, 40300);
      const removed = await api(`${url}/remove`, { token: t.alice, body: { userIds: ['erin'] } });
      expect(removed.status).toBe(200);
      expect(removed.body.data.task.candidates.userIds).toEqual([]);
      expect(await openIn(t.erin, id)).toHaveLength(0);
      // nobody left
      expectError(await api(`${url}/remove`, { token: t.alice, body: { roleIds: ['finance'] } }), 409, 40901);
      expect(
        (await trail(id))
          .filter((e) => e.type === 'system' && e.detail?.action?.startsWith('candidates_'))
          .map((e) => e.detail.action),
      ).toEqual(['candidates_add', 'candidates_remove']);
    });

    it('refusals: bad bodies, unknown directory entries, a task that is not a pool', async () => {
      const id = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.frank, id);
      const url = `/api/v1/workflow/tasks/${pooled.id}/candidates`;
      expectError(await api(url, { token: t.admin, body: {} }), 400, 40001);
      expectError(await api(url, { token: t.admin, body: { userIds: ['erin'], groups: ['x'] } }), 400, 40003);
      expectError(await api(url, { token: t.admin, body: { roleIds: ['no-such-role'] } }), 404, 40410);
      expectError(await api(url, { token: t.admin, body: { userIds: [] } }), 400, 40001); // a list names someone
      expectError(await api(`${url}/remove`, { token: t.alice, body: { userIds: ['dave'] } }), 409, 40907);
      const { task } = await begin('ta_single');
      expectError(
        await api(`/api/v1/workflow/tasks/${task.id}/candidates`, { token: t.admin, body: { userIds: ['erin'] } }),
        409,
        40901,
      );
    });
  });

  // ---------- variables ----------

  describe('task variables', () => {
    it('merge, update and delete; fields marked r or h are refused with their names', async () => {
      const { id, task } = await begin('ta_form');
      const url = `/api/v1/workflow/tasks/${task.id}/variables`;
      const first = await api(url, { token: t.bob, body: { variables: { note: 'checked' } } });
      expect(first.status).toBe(200);
      expect(first.body.data).toEqual({ note: 'checked' });
      expect((await api(url, { token: t.bob, body: { variables: { extra: 1 } } })).body.data).toEqual({
        note: 'checked',
        extra: 1,
      });
      const denied = await api(url, { token: t.bob, body: { variables: { amount: 5, secret: 'x', note: 'y' } } });
      expectError(denied, 403, 40303);
      expect(denied.body.data.fields).toEqual(['amount', 'secret']);
      expect(denied.body.message).toContain('amount');
      expectError(await api(`${url}/amount`, { method: 'PUT', token: t.bob, body: { value: 1 } }), 403, 40303);
      expect((await api(`${url}/note`, { method: 'PUT', token: t.bob, body: { value: 'final' } })).body.data).toEqual({
        note: 'final',
        extra: 1,
      });
      expect((await api(`${url}/extra`, { method: 'DELETE', token: t.bob })).body.data).toEqual({ note: 'final' });
      expectError(await api(`${url}/extra`, { method: 'DELETE', token: t.bob }), 404, 40400);
      expect((await api(url, { token: t.alice })).body.data).toEqual({ note: 'final' });
      expectError(await api(url, { token: t.alice, body: { variables: { note: 'mine' } } }), 409, 40902);
      expectError(await api(url, { token: t.bob, body: { variables: {} } }), 400, 40001);
      expectError(await api(url, { token: t.bob, body: { note: 'x' } }), 400, 40003);
      expectError(await api(`${url}/note`, { method: 'PUT', token: t.bob, body: {} }), 400, 40001);
      expect((await trail(id)).filter((e) => e.type === 'system' && e.detail?.taskVariables)).toHaveLength(4);
      // Task variables are the task's own; the process variables are untouched.
      expect((await instance(t.alice, id)).variables).toEqual({});
    });
  });

  // ---------- comments ----------

  describe('comments', () => {
    it('participants comment (201) and list them, oldest first, paginated', async () => {
      const { task } = await begin('ta_single');
      const url = `/api/v1/workflow/tasks/${task.id}/comments`;
      const created = await api(url, { token: t.bob, body: { comment: 'Need the invoice' } });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({
        taskId: task.id,
        instanceId: task.instanceId,
        userId: 'bob',
        comment: 'Need the invoice',
      });
      expect(typeof created.body.data.id).toBe('string');
      expect(new Date(created.body.data.time).toISOString()).toBe(created.body.data.time);
      expect((await api(url, { token: t.alice, body: { comment: 'Attached' } })).status).toBe(201);
      const list = await api(`${url}?pageSize=1`, { token: t.bob });
      expect(list.body.data).toMatchObject({ total: 2, page: 1, pageSize: 1 });
      expect(list.body.data.items[0].comment).toBe('Need the invoice');
      expectError(await api(url, { token: t.dave, body: { comment: 'hi' } }), 404, 40400); // not a participant
      expectError(await api(url, { token: t.bob, body: { comment: '' } }), 400, 40001);
      expectError(await api(url, { token: t.bob, body: { comment: 'x', mood: 'ok' } }), 400, 40003);
      const off = await begin('ta_off');
      expectError(
        await api(`/api/v1/workflow/tasks/${off.task.id}/comments`, { token: t.bob, body: { comment: 'hi' } }),
        403,
        40302,
      );
    });
  });

  // ---------- delete ----------

  describe('delete a task (workflow:admin)', () => {
    it('a live task is 409; a closed one disappears (its trail stays)', async () => {
      const { id, task } = await begin('ta_single');
      expectError(await api(`/api/v1/workflow/tasks/${task.id}`, { method: 'DELETE', token: t.admin }), 409, 40901);
      await actOk(t.bob, task.id, 'approve');
      expectError(await api(`/api/v1/workflow/tasks/${task.id}`, { method: 'DELETE', token: t.bob }), 403, 40300);
      const res = await api(`/api/v1/workflow/tasks/${task.id}`, { method: 'DELETE', token: t.admin });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: task.id, deleted: true });
      expectError(await api(`/api/v1/workflow/tasks/${task.id}`, { token: t.admin }), 404, 40400);
      expect((await done(t.bob)).map((x) => x.id)).not.toContain(task.id);
      expect(await trailTypes(id)).toContain('approve');
    });
  });

  // ---------- tenancy, permissions, races ----------

  describe('tenancy, permission and races', () => {
    it("a foreign tenant's task is 404 for every endpoint", async () => {
      const pool = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.frank, pool);
      const { task } = await begin('ta_single');
      const calls: Array<Promise<{ status: number; body: any }>> = [
        act(foreign.frank, pooled.id, 'claim'),
        act(foreign.bob, task.id, 'transfer', { assigneeUserId: 'carol' }),
        act(foreign.bob, task.id, 'delegate', { assigneeUserId: 'carol' }),
        act(foreign.bob, task.id, 'return', { targetActivityId: 'start' }),
        act(foreign.bob, task.id, 'add-sign', { assigneeUserIds: ['carol'] }),
        act(foreign.bob, task.id, 'reduce-sign', { assigneeUserIds: ['carol'] }),
        act(foreign.alice, task.id, 'withdraw'),
        act(foreign.alice, task.id, 'suspend'),
        act(foreign.admin, task.id, 'reassign', { assigneeUserId: 'carol' }),
        api(`/api/v1/workflow/tasks/urge/${task.id}`, { token: foreign.alice, body: {} }),
        api(`/api/v1/workflow/tasks/${task.id}/comments`, { token: foreign.bob }),
        api(`/api/v1/workflow/tasks/${task.id}/comments`, { token: foreign.bob, body: { comment: 'x' } }),
        api(`/api/v1/workflow/tasks/${task.id}/candidates`, { token: foreign.admin }),
        api(`/api/v1/workflow/tasks/${pooled.id}/candidates`, { token: foreign.admin, body: { userIds: ['erin'] } }),
        api(`/api/v1/workflow/tasks/${task.id}/variables`, { token: foreign.bob }),
        api(`/api/v1/workflow/tasks/${task.id}/variables`, { token: foreign.bob, body: { variables: { a: 1 } } }),
        api(`/api/v1/workflow/tasks/${task.id}`, { method: 'DELETE', token: foreign.admin }),
        api(`/api/v1/workflow/process-instances/${task.instanceId}/suspend`, { token: foreign.admin, body: {} }),
      ];
      for (const res of await Promise.all(calls)) expectError(res, 404, 40400);
      expect((await myTask(t.bob, task.instanceId)).assignee).toBe('bob');
    });

    it('a user without approval:operate gets 403', async () => {
      const { task } = await begin('ta_single');
      const pool = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.frank, pool);
      const calls = [
        act(viewer, pooled.id, 'claim'),
        act(viewer, task.id, 'unclaim'),
        act(viewer, task.id, 'transfer', { assigneeUserId: 'carol' }),
        act(viewer, task.id, 'delegate', { assigneeUserId: 'carol' }),
        act(viewer, task.id, 'resolve'),
        act(viewer, task.id, 'return', { targetActivityId: 'start' }),
        act(viewer, task.id, 'add-sign', { assigneeUserIds: ['carol'] }),
        act(viewer, task.id, 'reduce-sign', { assigneeUserIds: ['carol'] }),
        act(viewer, task.id, 'withdraw'),
        act(viewer, task.id, 'suspend'),
        act(viewer, task.id, 'activate'),
        act(viewer, task.id, 'reassign', { assigneeUserId: 'carol' }),
        api(`/api/v1/workflow/tasks/urge/${task.id}`, { token: viewer, body: {} }),
        api(`/api/v1/workflow/tasks/${task.id}/comments`, { token: viewer, body: { comment: 'x' } }),
        api(`/api/v1/workflow/tasks/${task.id}/variables`, { token: viewer, body: { variables: { a: 1 } } }),
        api(`/api/v1/workflow/tasks/${task.id}/variables/a`, { method: 'PUT', token: viewer, body: { value: 1 } }),
        api(`/api/v1/workflow/tasks/${task.id}/variables/a`, { method: 'DELETE', token: viewer }),
        api(`/api/v1/workflow/tasks/${pooled.id}/candidates`, { token: viewer, body: { userIds: ['erin'] } }),
        api(`/api/v1/workflow/tasks/${pooled.id}/candidates/remove`, { token: viewer, body: { userIds: ['erin'] } }),
        api(`/api/v1/workflow/tasks/${task.id}`, { method: 'DELETE', token: viewer }),
      ];
      for (const res of await Promise.all(calls)) expectError(res, 403, 40300);
      expect((await myTask(t.bob, task.instanceId)).status).toBe('active');
    });

    it('two different actions on one task at the same time: exactly one 200 and one 409', async () => {
      const { id, task } = await begin('ta_single');
      const [approve, transfer] = await Promise.all([
        act(t.bob, task.id, 'approve'),
        act(t.bob, task.id, 'transfer', { assigneeUserId: 'carol' }),
      ]);
      expect([approve.status, transfer.status].sort()).toEqual([200, 409]);
      const status = (await instance(t.admin, id)).status;
      if (approve.status === 200) expect(status).toBe('completed');
      else expect((await myTask(t.carol, id)).id).toBe(task.id);
    });

    it('claim racing reassign on one pool task: exactly one wins', async () => {
      const id = await start(t.alice, 'ta_pool');
      const pooled = await myTask(t.frank, id);
      const [claim, reassign] = await Promise.all([
        act(t.frank, pooled.id, 'claim'),
        act(t.admin, pooled.id, 'reassign', { assigneeUserId: 'frank' }),
      ]);
      expect([claim.status, reassign.status].sort()).toEqual([200, 409]);
    });
  });
});

/** The tenant id inside a token (the JWT's `tid` claim). */
function tenantOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).tid;
}
