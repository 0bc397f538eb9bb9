// Approve modes and thresholds (docs/dsl.md: approveMode, voteRule), approvers from the directory.
import { describe, expect, it } from 'vitest';
import { useHarness, m } from './support/harness.js';
import { example, oneStep, users } from './support/dsl.js';

const h = useHarness('modes');

const three = users('bob', 'carol', 'erin');

// Each test has its own instance: they run concurrently.
describe.concurrent('approve modes', () => {
  it('single with one approver: one active task; the approval completes the instance', async () => {
    const { instanceId, answer } = await h.start(oneStep('m_single', users('bob')));
    expect(answer).toEqual({ taskId: null, instanceStatus: 'active' });
    expect(h.projection.openTasks(instanceId)).toMatchObject([
      { assignee: 'bob', status: 'active', parentTaskId: null },
    ]);
    expect(h.projection.of(instanceId).instance.currentNodes).toEqual(['approve']);
    await h.decide(instanceId, 'bob');
    expect(h.projection.of(instanceId).instance).toMatchObject({ status: 'completed', currentNodes: [] });
  });

  it('single with several people: one pending task, first to claim decides', async () => {
    const { instanceId } = await h.start(oneStep('m_single_pool', users('bob', 'carol')));
    const open = h.projection.openTasks(instanceId);
    expect(open).toMatchObject([{ status: 'pending', assignee: null, candidates: { userIds: ['bob', 'carol'] } }]);
    await h.act(instanceId, m.claim, { actor: h.actor('carol'), taskId: open[0].id });
    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
  });

  it('any: the first approval decides, the other ballots are cancelled', async () => {
    const { instanceId } = await h.start(oneStep('m_any', { ...three, approveMode: 'any' }));
    const ballots = h.projection.openTasks(instanceId).filter((t) => t.parentTaskId);
    expect(ballots.map((t) => [t.assignee, t.status])).toEqual([
      ['bob', 'active'],
      ['carol', 'active'],
      ['erin', 'active'],
    ]);
    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
    const tasks = h.projection.tasks(instanceId);
    expect(tasks.filter((t) => t.parentTaskId).map((t) => [t.assignee, t.result])).toEqual([
      ['bob', 'cancelled'],
      ['carol', 'approved'],
      ['erin', 'cancelled'],
    ]);
    expect(tasks.find((t) => !t.parentTaskId)).toMatchObject({ status: 'completed', result: 'approved' });
  });

  it('all: every approval is needed; each one leaves the node open until the last', async () => {
    const { instanceId } = await h.start(oneStep('m_all', { ...three, approveMode: 'all' }));
    const parent = h.projection.openTasks(instanceId).find((t) => !t.parentTaskId)!;
    expect(parent.status).toBe('waiting');
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'active' });
    expect(await h.decide(instanceId, 'erin')).toMatchObject({ instanceStatus: 'active' });
    expect(h.projection.openTasks(instanceId).map((t) => t.assignee)).toEqual([null, 'carol']);
    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
    expect(h.projection.of(instanceId).tasks.get(parent.id)).toMatchObject({ result: 'approved' });
  });

  it('all: one rejection vetoes (reject strategy terminate ends the instance rejected)', async () => {
    const { instanceId } = await h.start(oneStep('m_all_veto', { ...three, approveMode: 'all' }));
    await h.decide(instanceId, 'bob');
    expect(await h.decide(instanceId, 'carol', 'reject')).toMatchObject({ instanceStatus: 'rejected' });
    const tasks = h.projection.tasks(instanceId).filter((t) => t.parentTaskId);
    expect(tasks.map((t) => [t.assignee, t.result])).toEqual([
      ['bob', 'approved'],
      ['carol', 'rejected'],
      ['erin', 'cancelled'],
    ]);
    // Why it ended: a code with params (dsl/ending.ts), the English words as before.
    expect(h.projection.of(instanceId).instance).toMatchObject({
      status: 'rejected',
      endCode: 'end.rejected',
      endParams: { nodeId: 'approve', nodeName: 'Node approve', comment: null },
      endReason: 'Rejected at Node approve',
    });
  });

  it('sequential: one after another in resolved order; a rejection stops', async () => {
    const { instanceId } = await h.start(oneStep('m_seq', { ...three, approveMode: 'sequential' }));
    const states = () =>
      h.projection
        .tasks(instanceId)
        .filter((t) => t.parentTaskId)
        .map((t) => `${t.assignee}:${t.status}`);
    expect(states()).toEqual(['bob:active', 'carol:waiting', 'erin:waiting']);
    await h.decide(instanceId, 'bob');
    expect(states()).toEqual(['bob:completed', 'carol:active', 'erin:waiting']);
    await h.decide(instanceId, 'carol');
    expect(states()).toEqual(['bob:completed', 'carol:completed', 'erin:active']);
    expect(await h.decide(instanceId, 'erin')).toMatchObject({ instanceStatus: 'completed' });

    const { instanceId: second } = await h.start(oneStep('m_seq_reject', { ...three, approveMode: 'sequential' }));
    expect(await h.decide(second, 'bob', 'reject')).toMatchObject({ instanceStatus: 'rejected' });
    expect(
      h.projection
        .tasks(second)
        .filter((t) => t.parentTaskId)
        .map((t) => t.result),
    ).toEqual(['rejected', 'cancelled', 'cancelled']);
  });

  describe('vote thresholds', () => {
    const five = users('u1', 'u2', 'u3', 'u4', 'u5');
    const cases = [
      { rule: undefined, approvals: 3, label: 'majority (default): floor(5/2)+1 = 3' },
      { rule: { type: 'majority' }, approvals: 3, label: 'majority: 3 of 5' },
      { rule: { type: 'percent', value: 40 }, approvals: 2, label: 'percent 40: ceil(5×0.4) = 2' },
      { rule: { type: 'percent', value: 100 }, approvals: 5, label: 'percent 100: all 5' },
      { rule: { type: 'count', value: 1 }, approvals: 1, label: 'count 1' },
      { rule: { type: 'count', value: 4 }, approvals: 4, label: 'count 4' },
    ];
    for (const c of cases) {
      it(`passes at exactly the threshold — ${c.label}`, async () => {
        const { instanceId } = await h.start(
          oneStep('m_vote', { ...five, approveMode: 'vote', ...(c.rule ? { voteRule: c.rule } : {}) }),
        );
        const voters = ['u1', 'u2', 'u3', 'u4', 'u5'];
        for (let i = 0; i < c.approvals - 1; i++)
          expect(await h.decide(instanceId, voters[i]), `vote ${i + 1}`).toMatchObject({ instanceStatus: 'active' });
        expect(await h.decide(instanceId, voters[c.approvals - 1])).toMatchObject({ instanceStatus: 'completed' });
        const ballots = h.projection.tasks(instanceId).filter((t) => t.parentTaskId);
        expect(ballots.filter((t) => t.result === 'approved')).toHaveLength(c.approvals);
        expect(ballots.filter((t) => t.result === 'cancelled')).toHaveLength(5 - c.approvals);
      });
    }

    it('is rejected as soon as the threshold can no longer be met', async () => {
      // majority of 5 = 3: after 3 rejections only 2 approvals remain possible
      const { instanceId } = await h.start(oneStep('m_vote_no', { ...five, approveMode: 'vote' }));
      await h.decide(instanceId, 'u1');
      expect(await h.decide(instanceId, 'u2', 'reject')).toMatchObject({ instanceStatus: 'active' });
      expect(await h.decide(instanceId, 'u3', 'reject')).toMatchObject({ instanceStatus: 'active' });
      expect(await h.decide(instanceId, 'u4', 'reject')).toMatchObject({ instanceStatus: 'rejected' });
      expect(h.projection.tasks(instanceId).find((t) => t.assignee === 'u5')).toMatchObject({ result: 'cancelled' });
    });

    it('sequential vote: one ballot at a time', async () => {
      const { instanceId } = await h.start(
        oneStep('m_vote_seq', {
          ...users('bob', 'carol', 'erin'),
          approveMode: 'vote',
          sequential: true,
          voteRule: { type: 'count', value: 2 },
        }),
      );
      expect(h.projection.activeAssignees(instanceId)).toEqual(['bob']);
      await h.decide(instanceId, 'bob');
      expect(h.projection.activeAssignees(instanceId)).toEqual(['carol']);
      expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
    });
  });

  describe('approvers from the directory', () => {
    it('leave-request example: short leave goes to the manager, then HR is copied', async () => {
      const { instanceId } = await h.start(example('leave-request.json'), { variables: { days: 2, reason: 'trip' } });
      expect(h.projection.openTasks(instanceId)).toMatchObject([
        { activityId: 'manager_approval', assignee: 'bob', status: 'active' },
      ]);
      await h.decide(instanceId, 'bob');
      const p = h.projection.of(instanceId);
      expect(p.instance.status).toBe('completed');
      expect(p.cc).toMatchObject([{ activityId: 'notify_hr', userId: 'erin' }]);
      expect(h.projection.trailTypes(instanceId)).toEqual(['start', 'assign', 'approve', 'cc']);
    });

    it('leave-request example: a long leave climbs the management chain one after another', async () => {
      const { instanceId } = await h.start(example('leave-request.json'), { variables: { days: 10 } });
      const chain = h.projection.tasks(instanceId).filter((t) => t.parentTaskId);
      expect(chain.map((t) => `${t.assignee}:${t.status}`)).toEqual(['bob:active', 'carol:waiting']);
      await h.decide(instanceId, 'bob');
      expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
    });

    it('a role pool lists its members; an approver nobody resolves falls back to the tenant admin', async () => {
      const { instanceId } = await h.start(oneStep('m_nobody', users('retired')));
      const [task] = h.projection.openTasks(instanceId);
      expect(task).toMatchObject({
        assignee: 'admin',
        status: 'active',
        variables: { fallback_policy: 'tenant_admin', fallback_from: 'user:retired' },
      });
      expect(await h.decide(instanceId, 'admin')).toMatchObject({ instanceStatus: 'completed' });
      expect(h.fakes.calls.filter((c) => c.name === 'resolveApprovers').length).toBeGreaterThan(0);
    });
  });
});
