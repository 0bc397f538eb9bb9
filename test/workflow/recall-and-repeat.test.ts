// Recall, approve on behalf and autoApproveRepeated at the workflow level (docs/task-actions.md#recall,
// docs/dsl.md; HTTP contract: test/integration/recall-and-behalf.test.ts).
import { describe, expect, it } from 'vitest';
import { addSign, useHarness, m } from './support/harness.js';
import { linear, steps, users } from './support/dsl.js';

const h = useHarness('recall');

/** n1 (dave) → n2 (erin) → n3 (bob) */
const chain = (key: string, processInfo: Record<string, unknown> = {}) =>
  linear(key, steps(users('dave'), users('erin'), users('bob')), processInfo);

const recall = (instanceId: string, userId: string, taskId: string, reason?: string) =>
  h.act(instanceId, m.recall, { actor: h.actor(userId), taskId, ...(reason ? { reason } : {}) });

describe.concurrent('recall', () => {
  it('after the node completed: the next tasks are cancelled, the same task opens again, the flow runs on', async () => {
    const { instanceId } = await h.start(chain('r_node'));
    const first = h.projection.taskOf(instanceId, 'dave', 'n1');
    await h.decide(instanceId, 'dave');
    const next = h.projection.taskOf(instanceId, 'erin', 'n2');
    expect(await recall(instanceId, 'dave', first.id, 'wrong amount')).toEqual({
      taskId: first.id,
      instanceStatus: 'active',
    });
    const p = h.projection.of(instanceId);
    expect(p.tasks.get(first.id)).toMatchObject({ status: 'active', result: null, assignee: 'dave' });
    expect(p.tasks.get(next.id)).toMatchObject({ status: 'cancelled', result: 'cancelled' });
    expect(p.instance.currentNodes).toEqual(['n1']);
    expect(p.trail.find((e) => e.type === 'recall')).toMatchObject({
      taskId: first.id,
      userId: 'dave',
      comment: 'wrong amount',
      detail: { scope: 'node', from: 'n2', cancelled: [next.id] },
    });
    expect(p.notifications.some((n) => n.kind === 'task_recalled' && n.userId === 'erin')).toBe(true);

    // the same task decides again; erin gets a fresh one
    await h.decide(instanceId, 'dave');
    expect(h.projection.taskOf(instanceId, 'erin', 'n2').id).not.toBe(next.id);
    await h.decide(instanceId, 'erin');
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
    expect(h.projection.actionTypes(instanceId).join(' ')).toBe('start approve recall approve approve approve');
  });

  it('refuses once the next approver acted, naming them (ALREADY_ACTED), and every other refusal', async () => {
    const { instanceId } = await h.start(chain('r_refused'));
    const first = h.projection.taskOf(instanceId, 'dave', 'n1');
    // not decided yet
    expect((await h.refused(instanceId, m.recall, { actor: h.actor('dave'), taskId: first.id })).type).toBe(
      'INVALID_STATE',
    );
    await h.decide(instanceId, 'dave');
    // only the approver
    expect((await h.refused(instanceId, m.recall, { actor: h.actor('erin'), taskId: first.id })).type).toBe(
      'NOT_ASSIGNEE',
    );
    await h.decide(instanceId, 'erin');
    expect(await h.refused(instanceId, m.recall, { actor: h.actor('dave'), taskId: first.id })).toMatchObject({
      type: 'ALREADY_ACTED',
      data: { actedBy: ['erin'] },
      message: expect.stringContaining('erin'),
    });
    // erin may still recall hers (bob has not acted)
    const second = h.projection.tasks(instanceId).find((t) => t.activityId === 'n2')!;
    await recall(instanceId, 'erin', second.id);
    expect(h.projection.taskOf(instanceId, 'erin', 'n2').id).toBe(second.id);
    // a claim is acting too: here a rejection ends the instance, and recall needs it running
    await h.decide(instanceId, 'erin', 'reject');
    expect((await h.refused(instanceId, m.recall, { actor: h.actor('dave'), taskId: first.id })).type).toBe(
      'INVALID_STATE',
    );
  });

  it('a countersign ballot is recalled while the node is open; sequential: the next turn waits again', async () => {
    const { instanceId } = await h.start(
      linear('r_seq', [{ id: 's', configuration: { ...users('dave', 'erin', 'bob'), approveMode: 'sequential' } }]),
    );
    const daves = h.projection.taskOf(instanceId, 'dave', 's');
    await h.decide(instanceId, 'dave');
    const erins = h.projection.taskOf(instanceId, 'erin', 's');
    await recall(instanceId, 'dave', daves.id);
    const p = h.projection.of(instanceId);
    expect(p.tasks.get(daves.id)).toMatchObject({ status: 'active', result: null });
    expect(p.tasks.get(erins.id)).toMatchObject({ status: 'waiting' });
    expect(p.trail.find((e) => e.type === 'recall')!.detail).toMatchObject({ scope: 'ballot', waiting: [erins.id] });
    // once erin approved, dave's recall names her
    await h.decide(instanceId, 'dave');
    await h.decide(instanceId, 'erin');
    expect(await h.refused(instanceId, m.recall, { actor: h.actor('dave'), taskId: daves.id })).toMatchObject({
      type: 'ALREADY_ACTED',
      data: { actedBy: ['erin'] },
    });
    await h.decide(instanceId, 'bob');
    expect(h.projection.of(instanceId).instance.status).toBe('completed');
  });

  it('all-mode: a ballot recalled while others are open; after completion only the deciding approver', async () => {
    const { instanceId } = await h.start(
      linear('r_all', [
        { id: 'c', configuration: { ...users('dave', 'erin'), approveMode: 'all' } },
        { id: 'z', configuration: users('bob') },
      ]),
    );
    const daves = h.projection.taskOf(instanceId, 'dave', 'c');
    await h.decide(instanceId, 'dave');
    await recall(instanceId, 'dave', daves.id);
    expect(h.projection.of(instanceId).tasks.get(daves.id)).toMatchObject({ status: 'active' });
    await h.decide(instanceId, 'dave');
    const erins = h.projection.taskOf(instanceId, 'erin', 'c');
    await h.decide(instanceId, 'erin');
    // erin's approval completed the node: dave's recall names her; erin's re-opens the node
    expect(await h.refused(instanceId, m.recall, { actor: h.actor('dave'), taskId: daves.id })).toMatchObject({
      type: 'ALREADY_ACTED',
      data: { actedBy: ['erin'] },
    });
    await recall(instanceId, 'erin', erins.id);
    const p = h.projection.of(instanceId);
    expect(p.tasks.get(erins.id)).toMatchObject({ status: 'active' });
    expect(p.tasks.get(daves.id)).toMatchObject({ result: 'approved' });
    expect(h.projection.openTasks(instanceId, 'z')).toEqual([]);
    await h.decide(instanceId, 'erin');
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
  });

  it('refuses on a suspended instance, after a rejection, with added signers, and once the flow moved past', async () => {
    const { instanceId } = await h.start(chain('r_more'));
    const first = h.projection.taskOf(instanceId, 'dave', 'n1');
    await h.decide(instanceId, 'dave');
    const manager = h.actor('admin', { manage: true });
    await h.act(instanceId, m.suspendInstance, { actor: manager });
    expect(await h.refused(instanceId, m.recall, { actor: h.actor('dave'), taskId: first.id })).toMatchObject({
      type: 'INVALID_STATE',
      message: expect.stringContaining('suspended'),
    });
    await h.act(instanceId, m.activateInstance, { actor: manager });
    await recall(instanceId, 'dave', first.id);

    // an approval with added signers is not recallable
    await addSign(h, instanceId, 'dave', first.id, ['carol'], 'parallel');
    await h.decide(instanceId, 'dave', 'approve', 'n1');
    expect(await h.refused(instanceId, m.recall, { actor: h.actor('dave'), taskId: first.id })).toMatchObject({
      type: 'INVALID_STATE',
      message: expect.stringContaining('added signers'),
    });

    // a rejection is not recallable
    const rejected = await h.start(chain('r_rejected'));
    const task = h.projection.taskOf(rejected.instanceId, 'dave', 'n1');
    await h.decide(rejected.instanceId, 'dave', 'reject');
    expect((await h.refused(rejected.instanceId, m.recall, { actor: h.actor('dave'), taskId: task.id })).type).toBe(
      'INVALID_STATE',
    );

    // the next node passed by itself (autoApproveRepeated): the flow moved past it
    const moved = await h.start(
      linear(
        'r_moved',
        [
          { id: 'a', configuration: users('dave') },
          { id: 'b', configuration: users('dave') },
          { id: 'c', configuration: users('erin') },
        ],
        { autoApproveRepeated: 'adjacent' },
      ),
    );
    const a = h.projection.taskOf(moved.instanceId, 'dave', 'a');
    await h.decide(moved.instanceId, 'dave');
    expect(h.projection.taskOf(moved.instanceId, 'erin', 'c')).toBeTruthy();
    expect(await h.refused(moved.instanceId, m.recall, { actor: h.actor('dave'), taskId: a.id })).toMatchObject({
      type: 'INVALID_STATE',
      message: expect.stringContaining('b, the node this approval led to, has already passed'),
    });
  });

  it('switch recall=false refuses (ACTION_DISABLED)', async () => {
    const { instanceId } = await h.start(chain('r_switch', { actionPermissions: { recall: false } }));
    const first = h.projection.taskOf(instanceId, 'dave', 'n1');
    await h.decide(instanceId, 'dave');
    expect((await h.refused(instanceId, m.recall, { actor: h.actor('dave'), taskId: first.id })).type).toBe(
      'ACTION_DISABLED',
    );
  });

  it('recall racing the next approval: exactly one wins', async () => {
    for (let round = 0; round < 5; round++) {
      const { instanceId } = await h.start(chain(`r_race_${round}`));
      const first = h.projection.taskOf(instanceId, 'dave', 'n1');
      await h.decide(instanceId, 'dave');
      const next = h.projection.taskOf(instanceId, 'erin', 'n2');
      const outcomes = await Promise.allSettled([
        recall(instanceId, 'dave', first.id),
        h.act(instanceId, m.approve, { actor: h.actor('erin'), taskId: next.id }),
      ]);
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const recalled = outcomes[0].status === 'fulfilled';
      const p = h.projection.of(instanceId);
      expect(p.tasks.get(next.id)!.result).toBe(recalled ? 'cancelled' : 'approved');
      expect(p.tasks.get(first.id)!.status).toBe(recalled ? 'active' : 'completed');
    }
  });
});

describe.concurrent('approve on behalf', () => {
  it('an admin decides for the assignee: the trail names both and the reason, the assignee is notified', async () => {
    const { instanceId } = await h.start(chain('b_ok'));
    const task = h.projection.taskOf(instanceId, 'dave', 'n1');
    await h.act(instanceId, m.approve, {
      actor: h.actor('admin', { admin: true }),
      taskId: task.id,
      onBehalfOf: true,
      reason: 'dave is on leave',
    });
    const p = h.projection.of(instanceId);
    expect(p.tasks.get(task.id)).toMatchObject({ result: 'approved', assignee: 'dave' });
    expect(p.trail.find((e) => e.type === 'approve')).toMatchObject({
      userId: 'admin',
      detail: { onBehalfOf: 'dave', admin: 'admin', reason: 'dave is on leave' },
    });
    expect(
      p.notifications.find((n) => n.kind === 'task_decided_on_behalf' && n.userId === 'dave')?.payload,
    ).toMatchObject({ decision: 'approved', by: 'admin', reason: 'dave is on leave' });
    // the ballot stays dave's: he may recall it
    await recall(instanceId, 'dave', task.id);
    await h.act(instanceId, m.reject, {
      actor: h.actor('admin', { admin: true }),
      taskId: task.id,
      onBehalfOf: true,
      reason: 'policy',
    });
    expect(h.projection.of(instanceId).instance.status).toBe('rejected');
  });

  it('refuses without workflow:admin, without a reason, on a pool task', async () => {
    const { instanceId } = await h.start(chain('b_refused'));
    const task = h.projection.taskOf(instanceId, 'dave', 'n1');
    const base = { taskId: task.id, onBehalfOf: true as const };
    expect((await h.refused(instanceId, m.approve, { ...base, actor: h.actor('erin'), reason: 'x' })).type).toBe(
      'FORBIDDEN',
    );
    expect((await h.refused(instanceId, m.approve, { ...base, actor: h.actor('admin', { admin: true }) })).type).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      (await h.refused(instanceId, m.approve, { ...base, actor: h.actor('admin', { admin: true }), reason: '  ' }))
        .type,
    ).toBe('VALIDATION_FAILED');
    const pool = await h.start(linear('b_pool', [{ id: 'p', configuration: users('dave', 'erin') }]));
    const poolTask = h.projection.openTasks(pool.instanceId, 'p')[0];
    expect(
      (
        await h.refused(pool.instanceId, m.approve, {
          taskId: poolTask.id,
          onBehalfOf: true,
          actor: h.actor('admin', { admin: true }),
          reason: 'x',
        })
      ).type,
    ).toBe('INVALID_STATE');
    expect(h.projection.trailTypes(instanceId)).not.toContain('approve');
  });

  it('refuses a waiting ballot and a delegated task (INVALID_STATE)', async () => {
    const admin = h.actor('admin', { admin: true });
    const seq = await h.start(
      linear('b_waiting', [{ id: 's', configuration: { ...users('dave', 'erin'), approveMode: 'sequential' } }]),
    );
    const waiting = h.projection.openTasks(seq.instanceId, 's').find((t) => t.assignee === 'erin')!;
    expect(waiting.status).toBe('waiting');
    expect(
      await h.refused(seq.instanceId, m.approve, { actor: admin, taskId: waiting.id, onBehalfOf: true, reason: 'x' }),
    ).toMatchObject({ type: 'INVALID_STATE', message: expect.stringContaining('turn') });

    const { instanceId } = await h.start(chain('b_delegated'));
    const task = h.projection.taskOf(instanceId, 'dave', 'n1');
    await h.act(instanceId, m.delegate, { actor: h.actor('dave'), taskId: task.id, assigneeUserId: 'carol' });
    expect(
      await h.refused(instanceId, m.reject, { actor: admin, taskId: task.id, onBehalfOf: true, reason: 'x' }),
    ).toMatchObject({ type: 'INVALID_STATE', message: expect.stringContaining('delegated') });
  });
});

describe.concurrent('autoApproveRepeated', () => {
  const repeated = (key: string, setting: string) =>
    linear(
      key,
      [
        { id: 'a', configuration: users('dave') },
        { id: 'b', configuration: users('erin') },
        { id: 'c', configuration: { ...users('dave', 'bob'), approveMode: 'all' } },
        { id: 'd', configuration: users('bob') },
      ],
      { autoApproveRepeated: setting },
    );

  it('all: a person who approved anywhere earlier is approved automatically, per ballot', async () => {
    const { instanceId } = await h.start(repeated('aa_all', 'all'));
    await h.decide(instanceId, 'dave');
    await h.decide(instanceId, 'erin');
    const daves = h.projection.tasks(instanceId).find((t) => t.activityId === 'c' && t.assignee === 'dave')!;
    expect(daves).toMatchObject({ status: 'completed', result: 'auto_approved' });
    const auto = h.projection.of(instanceId).trail.find((e) => e.type === 'auto_approve')!;
    expect(auto).toMatchObject({
      userId: 'dave',
      comment: expect.stringContaining('already approved'),
      detail: { rule: 'autoApproveRepeated: all', approvedAt: 'a' },
    });
    // bob still signs c; at d bob (who just approved c) is approved automatically: the instance ends
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
    expect(h.projection.tasks(instanceId).find((t) => t.activityId === 'd')!.result).toBe('auto_approved');
  });

  it('adjacent: only the previous node counts; none (default) approves nobody automatically', async () => {
    const { instanceId } = await h.start(repeated('aa_adj', 'adjacent'));
    await h.decide(instanceId, 'dave');
    await h.decide(instanceId, 'erin');
    // dave approved a, not b: he signs c himself
    expect(h.projection.taskOf(instanceId, 'dave', 'c').status).toBe('active');
    await h.decide(instanceId, 'dave', 'approve', 'c');
    expect(await h.decide(instanceId, 'bob', 'approve', 'c')).toMatchObject({ instanceStatus: 'completed' });
    expect(h.projection.tasks(instanceId).find((t) => t.activityId === 'd')!.result).toBe('auto_approved');

    const none = await h.start(repeated('aa_none', 'none'));
    await h.decide(none.instanceId, 'dave');
    await h.decide(none.instanceId, 'erin');
    await h.decide(none.instanceId, 'dave', 'approve', 'c');
    await h.decide(none.instanceId, 'bob', 'approve', 'c');
    expect(h.projection.taskOf(none.instanceId, 'bob', 'd').status).toBe('active');
    expect(h.projection.trailTypes(none.instanceId)).not.toContain('auto_approve');
  });
});
