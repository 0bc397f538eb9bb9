// Continue-as-new: with a small historyLimit the instance hands its state to fresh runs while
// approvals go on; tasks, trail and remembered Update answers survive the hand-over.
import { describe, expect, it } from 'vitest';
import { addSign, useHarness, m } from './support/harness.js';
import { oneStep, users } from './support/dsl.js';

/** Each test makes 10-15 sequential Updates, each with a projection activity: ~5 s when idle, 30 s was exceeded on a very loaded 2-core machine. */
const LONG = 120_000;
const h = useHarness('can');

describe.concurrent('continue-as-new', () => {
  it(
    'rolls over during a long sequential node; state, trail and a repeated Update id survive',
    async () => {
      const approvers = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];
      const { instanceId } = await h.start(oneStep('c_long', { ...users(...approvers), approveMode: 'sequential' }), {
        historyLimit: 20,
      });
      const handle = h.handle(instanceId);
      const runOf = async () => (await handle.describe()).runId;
      const firstRun = await runOf();
      const runs = new Set([firstRun]);

      // u1 approves with an idempotency key (the Update id the server derives from Idempotency-Key)
      const u1Task = h.projection.taskOf(instanceId, 'u1');
      const first = await h.act(
        instanceId,
        m.approve,
        { actor: h.actor('u1'), taskId: u1Task.id, comment: 'ok' },
        'key-u1',
      );
      expect(first).toEqual({ taskId: u1Task.id, instanceStatus: 'active' });
      const answeredIn = await runOf();
      runs.add(answeredIn);

      // go on until a run newer than the one that answered u1 is in charge
      let next = 1;
      while (next < approvers.length - 1 && (await runOf()) === answeredIn) {
        expect(await h.decide(instanceId, approvers[next])).toMatchObject({ instanceStatus: 'active' });
        next++;
        runs.add(await runOf());
      }
      const current = await runOf();
      expect(current, 'the instance continued as new after u1 was answered').not.toBe(answeredIn);
      expect(runs.size).toBeGreaterThanOrEqual(2);
      expect((await h.env.client.workflow.getHandle(handle.workflowId, firstRun).describe()).status.name).toBe(
        'CONTINUED_AS_NEW',
      );

      // the same Update id answers like the first time, without acting again
      const approvesBefore = h.projection.trailTypes(instanceId).filter((t) => t === 'approve').length;
      const repeated = await h.act(
        instanceId,
        m.approve,
        { actor: h.actor('u1'), taskId: u1Task.id, comment: 'ok' },
        'key-u1',
      );
      expect(repeated).toEqual(first);
      expect(h.projection.trailTypes(instanceId).filter((t) => t === 'approve')).toHaveLength(approvesBefore);
      // a new Update id on the decided task is refused by the new run, which knows the task
      expect((await h.refused(instanceId, m.approve, { actor: h.actor('u1'), taskId: u1Task.id })).type).toBe(
        'INVALID_STATE',
      );

      // the carried state: whose turn it is, what the node looks like
      const status = await handle.query(m.status);
      expect(status).toMatchObject({ status: 'active', currentNodes: ['approve'] });
      const turn = approvers[next];
      expect(h.projection.activeAssignees(instanceId)).toEqual([turn]);

      for (; next < approvers.length; next++) {
        const answer = await h.decide(instanceId, approvers[next]);
        expect(answer.instanceStatus).toBe(next === approvers.length - 1 ? 'completed' : 'active');
        runs.add(await runOf().catch(() => current));
      }
      expect(await handle.result()).toMatchObject({ status: 'completed' });

      // the read model saw one continuous instance: every ballot approved in order, trail ids without gaps
      const p = h.projection.of(instanceId);
      expect(p.instance).toMatchObject({ status: 'completed', workflowId: handle.workflowId });
      const ballots = h.projection.tasks(instanceId).filter((t) => t.parentTaskId);
      expect(ballots.map((t) => `${t.assignee}:${t.result}`)).toEqual(approvers.map((u) => `${u}:approved`));
      expect(h.projection.tasks(instanceId).find((t) => !t.parentTaskId)).toMatchObject({ result: 'approved' });
      const counters = p.trail.map((e) => Number(e.id.slice(instanceId.length + 1))).sort((a, b) => a - b);
      expect(counters).toEqual(counters.map((_, i) => i + 1));
      expect(h.projection.trailTypes(instanceId)).toEqual([
        'start',
        ...approvers.map(() => 'assign'),
        ...approvers.map(() => 'approve'),
      ]);
      const seqs = p.snapshots.map((s) => s.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    },
    LONG,
  );

  it(
    'a pending delegation and an add-sign survive the hand-over',
    async () => {
      const { instanceId } = await h.start(oneStep('c_handover', users('bob')), { historyLimit: 20 });
      const handle = h.handle(instanceId);
      const firstRun = (await handle.describe()).runId;
      const task = h.projection.taskOf(instanceId, 'bob');
      await addSign(h, instanceId, 'bob', task.id, ['carol'], 'after');
      await h.act(instanceId, m.delegate, { actor: h.actor('bob'), taskId: task.id, assigneeUserId: 'erin' });
      // a few harmless Updates to grow the history past the limit (at least one: with the projection
      // a regular activity, the add-sign and delegation alone may already have rolled the run over)
      for (let i = 0; i === 0 || (await handle.describe()).runId === firstRun; i++) {
        expect(i, 'continued as new within 10 Updates').toBeLessThan(10);
        await h.act(instanceId, m.setVariables, { actor: h.actor('admin', { admin: true }), variables: { round: i } });
      }
      expect(await h.act(instanceId, m.resolve, { actor: h.actor('erin'), taskId: task.id })).toMatchObject({
        instanceStatus: 'active',
      });
      expect(h.projection.of(instanceId).tasks.get(task.id)).toMatchObject({ assignee: 'bob', owner: null });
      await h.decide(instanceId, 'bob');
      expect(h.projection.taskOf(instanceId, 'carol')).toMatchObject({ position: 'after', parentTaskId: task.id });
      expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
      expect(h.projection.of(instanceId).instance.variables).toMatchObject({ round: expect.any(Number) });
    },
    LONG,
  );
});
