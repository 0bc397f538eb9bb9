// Return, delegate/resolve and transfer at the workflow level (HTTP contract: task-actions.test.ts).
import { describe, expect, it } from 'vitest';
import { refusalType, useHarness, m } from './support/harness.js';
import { linear, steps, users } from './support/dsl.js';

const h = useHarness('handover');

/** n1 (dave) → n2 (erin) → n3 (bob) */
const chain = (key: string) => linear(key, steps(users('dave'), users('erin'), users('bob')));

describe.concurrent('return', () => {
  it('returns to the most recently completed approval node; its approver gets a fresh task', async () => {
    const { instanceId } = await h.start(chain('h_return'));
    await h.decide(instanceId, 'dave');
    await h.decide(instanceId, 'erin');
    const task = h.projection.taskOf(instanceId, 'bob', 'n3');
    const answer = await h.act(instanceId, m.returnTask, {
      actor: h.actor('bob'),
      taskId: task.id,
      targetActivityId: 'n2',
      comment: 'numbers are off',
    });
    expect(answer).toEqual({ taskId: task.id, instanceStatus: 'active' });
    expect(h.projection.of(instanceId).tasks.get(task.id)).toMatchObject({
      status: 'completed',
      result: 'returned',
      comment: 'numbers are off',
    });
    const again = h.projection.taskOf(instanceId, 'erin', 'n2');
    expect(again.id).not.toBe(h.projection.tasks(instanceId).find((t) => t.activityId === 'n2')!.id);
    expect(h.projection.of(instanceId).instance.currentNodes).toEqual(['n2']);
    const ret = h.projection.of(instanceId).trail.find((e) => e.type === 'return')!;
    expect(ret).toMatchObject({ taskId: task.id, userId: 'bob', detail: { from: 'n3', target: 'n2' } });
    expect(
      h.projection.of(instanceId).notifications.some((n) => n.kind === 'task_returned' && n.userId === 'alice'),
    ).toBe(true);

    // the flow runs on from n2 again
    await h.decide(instanceId, 'erin');
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
    expect(h.projection.actionTypes(instanceId).join(' ')).toBe('start approve approve return approve approve');
  });

  it('refuses any other target, naming the allowed one (INVALID_TARGET)', async () => {
    const { instanceId } = await h.start(chain('h_return_refused'));
    await h.decide(instanceId, 'dave');
    await h.decide(instanceId, 'erin');
    const task = h.projection.taskOf(instanceId, 'bob', 'n3');
    for (const target of ['n1', 'start', 'nowhere', undefined]) {
      const refusal = await h.refused(instanceId, m.returnTask, {
        actor: h.actor('bob'),
        taskId: task.id,
        targetActivityId: target as string,
      });
      expect(refusal, String(target)).toMatchObject({
        type: 'INVALID_TARGET',
        data: { allowedTarget: 'n2' },
        message: expect.stringContaining('only be returned to n2'),
      });
    }
    expect(await refusalType(h, instanceId, m.returnTask, 'erin', task.id, { targetActivityId: 'n2' })).toBe(
      'NOT_ASSIGNEE',
    );
    expect(h.projection.trailTypes(instanceId)).not.toContain('return');
  });

  it('the first approval node has nowhere to return to (allowedTarget null)', async () => {
    const { instanceId } = await h.start(chain('h_return_first'));
    const task = h.projection.taskOf(instanceId, 'dave', 'n1');
    expect(
      await h.refused(instanceId, m.returnTask, { actor: h.actor('dave'), taskId: task.id, targetActivityId: 'start' }),
    ).toMatchObject({ type: 'INVALID_TARGET', data: { allowedTarget: null } });
  });
});

describe.concurrent('delegate and resolve', () => {
  it('the delegatee decides; the decision goes back to the owner; the owner’s approval moves the flow', async () => {
    const { instanceId } = await h.start(chain('h_delegate'));
    const task = h.projection.taskOf(instanceId, 'dave', 'n1');
    expect(
      await h.act(instanceId, m.delegate, {
        actor: h.actor('dave'),
        taskId: task.id,
        assigneeUserId: 'carol',
        reason: 'please check',
      }),
    ).toEqual({ taskId: task.id, instanceStatus: 'active' });
    expect(h.projection.of(instanceId).tasks.get(task.id)).toMatchObject({
      status: 'active',
      assignee: 'carol',
      owner: 'dave',
    });

    // the owner may not act while it is delegated; the delegatee may not delegate further
    expect(await refusalType(h, instanceId, m.approve, 'dave', task.id)).toBe('NOT_ASSIGNEE');
    expect(await refusalType(h, instanceId, m.delegate, 'carol', task.id, { assigneeUserId: 'erin' })).toBe(
      'INVALID_STATE',
    );

    await h.act(instanceId, m.approve, { actor: h.actor('carol'), taskId: task.id, comment: 'looks fine' });
    expect(h.projection.of(instanceId).tasks.get(task.id)).toMatchObject({
      status: 'active',
      assignee: 'dave',
      owner: null,
      result: null,
    });
    expect(h.projection.of(instanceId).trail.find((e) => e.type === 'approve')).toMatchObject({
      userId: 'carol',
      detail: { delegated: true, owner: 'dave' },
    });
    expect(h.projection.openTasks(instanceId).map((t) => t.activityId)).toEqual(['n1']);

    await h.decide(instanceId, 'dave');
    expect(h.projection.taskOf(instanceId, 'erin', 'n2').status).toBe('active');
    expect(h.projection.actionTypes(instanceId)).toEqual(['start', 'delegate', 'approve', 'approve']);
  });

  it('resolve by the delegatee or the owner hands the task back; not-delegated and strangers are refused', async () => {
    const { instanceId } = await h.start(chain('h_resolve'));
    const task = h.projection.taskOf(instanceId, 'dave', 'n1');
    expect(await refusalType(h, instanceId, m.resolve, 'dave', task.id)).toBe('INVALID_STATE');
    expect(await refusalType(h, instanceId, m.delegate, 'dave', task.id, { assigneeUserId: 'dave' })).toBe(
      'INVALID_TARGET',
    );

    await h.act(instanceId, m.delegate, { actor: h.actor('dave'), taskId: task.id, assigneeUserId: 'carol' });
    expect(await refusalType(h, instanceId, m.resolve, 'erin', task.id)).toBe('NOT_ASSIGNEE');
    expect(await h.act(instanceId, m.resolve, { actor: h.actor('carol'), taskId: task.id })).toMatchObject({
      instanceStatus: 'active',
    });
    expect(h.projection.of(instanceId).tasks.get(task.id)).toMatchObject({
      assignee: 'dave',
      owner: null,
      status: 'active',
    });
    expect(h.projection.of(instanceId).trail.find((e) => e.type === 'resolve')).toMatchObject({
      userId: 'carol',
      detail: { owner: 'dave', delegatee: 'carol', by: 'delegatee' },
    });

    // delegate again and take it back as the owner
    await h.act(instanceId, m.delegate, { actor: h.actor('dave'), taskId: task.id, assigneeUserId: 'frank' });
    await h.act(instanceId, m.resolve, { actor: h.actor('dave'), taskId: task.id });
    expect(
      h.projection
        .of(instanceId)
        .trail.filter((e) => e.type === 'resolve')
        .map((e) => e.detail?.by),
    ).toEqual(['delegatee', 'owner']);
    expect(h.projection.notified(instanceId, 'task_resolved')).toEqual(['dave', 'frank']);
    expect(await h.decide(instanceId, 'dave')).toMatchObject({ instanceStatus: 'active' });
  });

  it('transfer moves the task for good; someone already on the node is refused', async () => {
    const { instanceId } = await h.start(
      linear('h_transfer', [{ id: 'n1', configuration: { ...users('bob', 'carol'), approveMode: 'all' } }]),
    );
    const task = h.projection.taskOf(instanceId, 'bob');
    expect(
      await h.refused(instanceId, m.transfer, { actor: h.actor('bob'), taskId: task.id, assigneeUserId: 'carol' }),
    ).toMatchObject({ type: 'INVALID_TARGET', data: { userIds: ['carol'] } });
    await h.act(instanceId, m.transfer, { actor: h.actor('bob'), taskId: task.id, assigneeUserId: 'erin' });
    expect(h.projection.of(instanceId).tasks.get(task.id)).toMatchObject({ assignee: 'erin', owner: null });
    await h.decide(instanceId, 'erin');
    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
  });
});
