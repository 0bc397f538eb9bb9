// Add-sign (before / after / parallel) and reduce-sign (removed / kept) at the workflow level.
import { describe, expect, it } from 'vitest';
import { addSign, refusalType, useHarness, m, type Harness } from './support/harness.js';
import { oneStep, users } from './support/dsl.js';

const h = useHarness('signers');

const state = (h: Harness, instanceId: string) =>
  h.projection.tasks(instanceId).map((t) => `${t.assignee}:${t.status}${t.result ? `:${t.result}` : ''}`);

describe.concurrent('add-sign', () => {
  it('before: the added signer signs first, then the original approver; then the node passes', async () => {
    const { instanceId } = await h.start(oneStep('s_before', users('bob')));
    const task = h.projection.taskOf(instanceId, 'bob');
    expect(await addSign(h, instanceId, 'bob', task.id, ['carol'], 'before')).toEqual({
      taskId: task.id,
      instanceStatus: 'active',
    });
    expect(state(h, instanceId)).toEqual(['bob:waiting', 'carol:active']);
    const sub = h.projection.taskOf(instanceId, 'carol');
    expect(sub).toMatchObject({ parentTaskId: task.id, addedBy: 'bob', position: 'before' });
    expect(await refusalType(h, instanceId, m.approve, 'bob', task.id)).toBe('INVALID_STATE');

    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'active' });
    expect(state(h, instanceId)).toEqual(['bob:active', 'carol:completed:approved']);
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
    expect(h.projection.trailTypes(instanceId)).toEqual(['start', 'assign', 'add_sign', 'approve', 'approve']);
    expect(h.projection.of(instanceId).trail.find((e) => e.type === 'add_sign')!.detail).toMatchObject({
      assigneeUserIds: ['carol'],
      position: 'before',
      subTaskIds: [sub.id],
    });
  });

  it('after: the added signer waits until the original approves, and the node waits for them', async () => {
    const { instanceId } = await h.start(oneStep('s_after', users('bob')));
    const task = h.projection.taskOf(instanceId, 'bob');
    await addSign(h, instanceId, 'bob', task.id, ['carol', 'erin'], 'after');
    expect(state(h, instanceId)).toEqual(['bob:active', 'carol:waiting', 'erin:waiting']);
    expect(h.projection.notified(instanceId, 'task_added_after')).toEqual(['carol', 'erin']);

    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'active' });
    expect(state(h, instanceId)).toEqual(['bob:completed:approved', 'carol:active', 'erin:active']);
    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'active' });
    expect(await h.decide(instanceId, 'erin')).toMatchObject({ instanceStatus: 'completed' });
  });

  it('parallel: both sign at once; a rejection by the added signer rejects the node', async () => {
    const { instanceId } = await h.start(oneStep('s_parallel', users('bob')));
    const task = h.projection.taskOf(instanceId, 'bob');
    await addSign(h, instanceId, 'bob', task.id, ['carol'], 'parallel');
    expect(state(h, instanceId)).toEqual(['bob:active', 'carol:active']);
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'active' });
    expect(await h.decide(instanceId, 'carol', 'reject')).toMatchObject({ instanceStatus: 'rejected' });
    expect(h.projection.of(instanceId).instance.status).toBe('rejected');
  });

  it('refusals: yourself, nobody, someone already on the node, not the assignee', async () => {
    const { instanceId } = await h.start(oneStep('s_refused', { ...users('bob', 'carol'), approveMode: 'all' }));
    const task = h.projection.taskOf(instanceId, 'bob');
    expect(await refusalType(h, instanceId, m.addSign, 'bob', task.id, { assigneeUserIds: ['bob'] })).toBe(
      'INVALID_TARGET',
    );
    expect(await refusalType(h, instanceId, m.addSign, 'bob', task.id, { assigneeUserIds: [] })).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      await h.refused(instanceId, m.addSign, { actor: h.actor('bob'), taskId: task.id, assigneeUserIds: ['carol'] }),
    ).toMatchObject({ type: 'INVALID_TARGET', data: { userIds: ['carol'] } });
    expect(await refusalType(h, instanceId, m.addSign, 'erin', task.id, { assigneeUserIds: ['frank'] })).toBe(
      'NOT_ASSIGNEE',
    );
    expect(h.projection.trailTypes(instanceId)).not.toContain('add_sign');
  });
});

describe.concurrent('reduce-sign', () => {
  it('removes an open added signer and reports one who already signed as kept', async () => {
    const { instanceId } = await h.start(oneStep('s_reduce', users('bob')));
    const task = h.projection.taskOf(instanceId, 'bob');
    await addSign(h, instanceId, 'bob', task.id, ['carol', 'erin'], 'before');
    await h.decide(instanceId, 'carol');
    const answer = await h.act(instanceId, m.reduceSign, {
      actor: h.actor('bob'),
      taskId: task.id,
      assigneeUserIds: ['carol', 'erin'],
      reason: 'not needed',
    });
    expect(answer).toEqual({ taskId: task.id, instanceStatus: 'active', removed: ['erin'], kept: ['carol'] });
    expect(state(h, instanceId)).toEqual(['bob:active', 'carol:completed:approved', 'erin:cancelled:cancelled']);
    expect(h.projection.tasks(instanceId).find((t) => t.assignee === 'erin')).toMatchObject({
      removed: true,
      comment: 'not needed',
    });
    expect(h.projection.of(instanceId).trail.find((e) => e.type === 'reduce_sign')!.detail).toMatchObject({
      removed: ['erin'],
      kept: ['carol'],
    });
    expect(
      h.projection.of(instanceId).notifications.some((n) => n.kind === 'task_removed' && n.userId === 'erin'),
    ).toBe(true);
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
  });

  it('removes a ballot of an `all` node and lowers the threshold; strangers, own ballot and non-adders are refused', async () => {
    const { instanceId } = await h.start(
      oneStep('s_reduce_all', { ...users('bob', 'carol', 'erin'), approveMode: 'all' }),
    );
    const bobs = h.projection.taskOf(instanceId, 'bob');
    expect(
      await h.refused(instanceId, m.reduceSign, { actor: h.actor('bob'), taskId: bobs.id, assigneeUserIds: ['frank'] }),
    ).toMatchObject({ type: 'INVALID_TARGET', data: { userIds: ['frank'] } });
    expect(await refusalType(h, instanceId, m.reduceSign, 'bob', bobs.id, { assigneeUserIds: ['bob'] })).toBe(
      'INVALID_TARGET',
    );
    expect(
      (
        await h.refused(instanceId, m.reduceSign, {
          actor: h.actor('frank'),
          taskId: bobs.id,
          assigneeUserIds: ['erin'],
        })
      ).type,
    ).toBe('NOT_ASSIGNEE');

    expect(
      await h.act(instanceId, m.reduceSign, { actor: h.actor('bob'), taskId: bobs.id, assigneeUserIds: ['erin'] }),
    ).toMatchObject({ removed: ['erin'], kept: [] });
    expect(h.projection.of(instanceId).trail.find((e) => e.type === 'reduce_sign')!.detail).toMatchObject({
      threshold: 2,
    });
    await h.decide(instanceId, 'bob');
    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
  });

  it('only the member who added a signer may remove them', async () => {
    const { instanceId } = await h.start(oneStep('s_reduce_adder', { ...users('bob', 'carol'), approveMode: 'all' }));
    const bobs = h.projection.taskOf(instanceId, 'bob');
    const carols = h.projection.taskOf(instanceId, 'carol');
    await addSign(h, instanceId, 'bob', bobs.id, ['frank'], 'parallel');
    expect(
      (
        await h.refused(instanceId, m.reduceSign, {
          actor: h.actor('carol'),
          taskId: carols.id,
          assigneeUserIds: ['frank'],
        })
      ).type,
    ).toBe('NOT_ASSIGNEE');
    expect(
      await h.act(instanceId, m.reduceSign, { actor: h.actor('bob'), taskId: bobs.id, assigneeUserIds: ['frank'] }),
    ).toMatchObject({ removed: ['frank'] });
  });
});
