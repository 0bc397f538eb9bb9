// Update validators: illegal actions are refused with the error code the HTTP layer maps,
// before anything is written (no trail entry, no task change).
import { describe, expect, it } from 'vitest';
import { useHarness, m } from './support/harness.js';
import { linear, oneStep, users } from './support/dsl.js';

const h = useHarness('validators');

// Each test has its own instance: they run concurrently.
describe.concurrent('validators', () => {
  it('only the assignee may approve: NOT_ASSIGNEE, and nothing changes', async () => {
    const { instanceId } = await h.start(oneStep('v_single', users('bob')));
    const task = h.projection.taskOf(instanceId, 'bob');
    const before = h.projection.trailTypes(instanceId);
    const refusal = await h.refused(instanceId, m.approve, { actor: h.actor('carol'), taskId: task.id });
    expect(refusal.type).toBe('NOT_ASSIGNEE');
    expect((await h.refused(instanceId, m.reject, { actor: h.actor('alice'), taskId: task.id })).type).toBe(
      'NOT_ASSIGNEE',
    );
    expect(h.projection.trailTypes(instanceId)).toEqual(before);
    expect(h.projection.tasks(instanceId).find((t) => t.id === task.id)).toMatchObject({
      status: 'active',
      assignee: 'bob',
      result: null,
    });
    // the assignee still may
    expect(await h.decide(instanceId, 'bob')).toEqual({ taskId: task.id, instanceStatus: 'completed' });
  });

  it('a pending pool task must be claimed first (INVALID_STATE); a non-candidate may not claim it (NOT_ASSIGNEE)', async () => {
    const { instanceId } = await h.start(oneStep('v_pool', { approver: { type: 'role', roleIds: ['finance'] } }));
    const [pooled] = h.projection.openTasks(instanceId, 'approve');
    expect(pooled).toMatchObject({ status: 'pending', assignee: null, candidates: { roleIds: ['finance'] } });
    const approve = await h.refused(instanceId, m.approve, { actor: h.actor('frank'), taskId: pooled.id });
    expect(approve).toMatchObject({ type: 'INVALID_STATE', message: expect.stringContaining('claim it first') });
    expect((await h.refused(instanceId, m.claim, { actor: h.actor('bob'), taskId: pooled.id })).type).toBe(
      'NOT_ASSIGNEE',
    );

    expect(await h.act(instanceId, m.claim, { actor: h.actor('frank'), taskId: pooled.id })).toEqual({
      taskId: pooled.id,
      instanceStatus: 'active',
    });
    expect(h.projection.tasks(instanceId).find((t) => t.id === pooled.id)).toMatchObject({
      status: 'active',
      assignee: 'frank',
    });
    expect((await h.refused(instanceId, m.claim, { actor: h.actor('grace'), taskId: pooled.id })).type).toBe(
      'INVALID_STATE',
    );
    expect(await h.decide(instanceId, 'frank')).toMatchObject({ instanceStatus: 'completed' });
    expect(h.projection.trailTypes(instanceId)).toEqual(['start', 'assign', 'claim', 'approve']);
  });

  it('a sequential ballot whose turn has not come is refused (INVALID_STATE)', async () => {
    const { instanceId } = await h.start(oneStep('v_seq', { ...users('bob', 'carol'), approveMode: 'sequential' }));
    const carols = h.projection.openTasks(instanceId).find((t) => t.assignee === 'carol')!;
    expect(carols.status).toBe('waiting');
    expect(await h.refused(instanceId, m.approve, { actor: h.actor('carol'), taskId: carols.id })).toMatchObject({
      type: 'INVALID_STATE',
      message: expect.stringContaining('turn'),
    });
  });

  it('unknown tasks, rejecting a handle task, completing an approval task, withdrawing as someone else', async () => {
    const { instanceId } = await h.start(
      linear('v_misc', [
        { id: 'n1', configuration: { ...users('bob'), kind: 'handle' } },
        { id: 'n2', configuration: users('carol') },
      ]),
    );
    const handle = h.projection.taskOf(instanceId, 'bob');
    expect(handle.kind).toBe('handle');
    expect((await h.refused(instanceId, m.approve, { actor: h.actor('bob'), taskId: 'no-such-task' })).type).toBe(
      'NOT_FOUND',
    );
    expect((await h.refused(instanceId, m.reject, { actor: h.actor('bob'), taskId: handle.id })).type).toBe(
      'INVALID_STATE',
    );
    expect((await h.refused(instanceId, m.withdraw, { actor: h.actor('bob') })).type).toBe('NOT_INITIATOR');
    expect(await h.act(instanceId, m.complete, { actor: h.actor('bob'), taskId: handle.id })).toMatchObject({
      instanceStatus: 'active',
    });
    const approval = h.projection.taskOf(instanceId, 'carol', 'n2');
    expect((await h.refused(instanceId, m.complete, { actor: h.actor('carol'), taskId: approval.id })).type).toBe(
      'INVALID_STATE',
    );
    // a decided task stays decided
    expect((await h.refused(instanceId, m.approve, { actor: h.actor('bob'), taskId: handle.id })).type).toBe(
      'INVALID_STATE',
    );
    expect(h.projection.trailTypes(instanceId)).toEqual(['start', 'assign', 'complete', 'assign']);
  });

  it('designer switches refuse with ACTION_DISABLED', async () => {
    const off = { transfer: false, delegate: false, addSign: false };
    const { instanceId } = await h.start(oneStep('v_off', users('bob'), { actionPermissions: off }), {});
    const task = h.projection.taskOf(instanceId, 'bob');
    expect(h.projection.of(instanceId).snapshots.some((s) => s.actionPermissions[task.id]?.delegate === false)).toBe(
      true,
    );
    const bob = { actor: h.actor('bob'), taskId: task.id };
    const refusals = [
      await h.refused(instanceId, m.transfer, { ...bob, assigneeUserId: 'carol' }),
      await h.refused(instanceId, m.delegate, { ...bob, assigneeUserId: 'carol' }),
      await h.refused(instanceId, m.addSign, { ...bob, assigneeUserIds: ['carol'] }),
    ];
    expect(refusals.map((r) => r.type)).toEqual(['ACTION_DISABLED', 'ACTION_DISABLED', 'ACTION_DISABLED']);
  });

  it('an ended instance refuses every action (INVALID_STATE), as the server maps a closed workflow', async () => {
    const { instanceId } = await h.start(oneStep('v_end', users('bob')));
    const task = h.projection.taskOf(instanceId, 'bob');
    expect(await h.act(instanceId, m.withdraw, { actor: h.actor('alice'), reason: 'changed my mind' })).toEqual({
      taskId: null,
      instanceStatus: 'terminated',
    });
    const p = h.projection.of(instanceId);
    expect(p.archived).toBe(true);
    // The ending as a code with params (dsl/ending.ts), the English words beside it as before.
    expect(p.instance).toMatchObject({
      status: 'terminated',
      endReason: 'Withdrawn by applicant',
      endCode: 'end.withdrawn',
      endParams: {},
      currentNodes: [],
    });
    expect(p.tasks.get(task.id)).toMatchObject({ status: 'cancelled', result: 'withdrawn' });
    expect(h.projection.trailTypes(instanceId)).toEqual(['start', 'assign', 'withdraw']);
    expect(await h.handle(instanceId).result()).toMatchObject({ status: 'terminated' });

    const bob = { actor: h.actor('bob'), taskId: task.id };
    for (const def of [m.approve, m.reject])
      expect((await h.refused(instanceId, def, bob)).type, def.name).toBe('INVALID_STATE');
    expect((await h.refused(instanceId, m.delegate, { ...bob, assigneeUserId: 'carol' })).type).toBe('INVALID_STATE');
    expect((await h.refused(instanceId, m.withdraw, { actor: h.actor('alice') })).type).toBe('INVALID_STATE');
  });
});
