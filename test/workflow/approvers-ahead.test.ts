// Approvers looked up ahead by the projection (workflows/engine/approvers-ahead.ts): the next
// userTask takes them instead of a local activity, only for exactly the same look-up input. Since
// engine version 4 an Update's state has no projection activity: timer and service states look ahead, and the
// server sends the next nodes' look-ups with a decision (docs/engine.md "Approvers ahead of a decision").
import { describe, expect, it, vi } from 'vitest';
import { useHarness, m } from './support/harness.js';
import { linear, steps, users } from './support/dsl.js';
import type { ResolvedApprovers } from '../../workflows/engine/types.js';

const h = useHarness('ahead');

/** The local-activity look-ups and the ahead look-ups so far (the tests run one at a time). */
function lookUps() {
  const calls = h.fakes.calls;
  return {
    own: calls.filter((c) => c.name === 'resolveApprovers'),
    ahead: calls.filter((c) => c.name === 'approversAhead'),
  };
}

// One instance at a time: the fakes' call log is shared by the file.
describe.sequential('approvers looked up ahead', () => {
  it('a 3-step chain: no projection activity at all (engine version 4); each node looks its approvers up itself', async () => {
    const before = lookUps();
    const projections = () => h.fakes.calls.filter((c) => c.name === 'project').length;
    const projected = projections();
    const { instanceId } = await h.start(linear('ahead_chain', steps(users('bob'), users('erin'), users('carol'))));
    await h.decide(instanceId, 'bob');
    await h.decide(instanceId, 'erin');
    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
    const after = lookUps();
    // Every state was answered to its caller, who wrote it: the projection activity never ran, so
    // nothing looked ahead either, and each node resolved its approvers in the Update's own task.
    expect(h.fakes.calls.filter((c) => c.name === 'project').slice(projected)).toEqual([]);
    expect(after.ahead.length - before.ahead.length).toBe(0);
    expect(after.own.slice(before.own.length).map((c) => c.input)).toMatchObject([
      { approver: { type: 'user', userIds: ['bob'] } },
      { approver: { type: 'user', userIds: ['erin'] } },
      { approver: { type: 'user', userIds: ['carol'] } },
    ]);
    expect(h.projection.tasks(instanceId).map((t) => [t.assignee, t.result])).toEqual([
      ['bob', 'approved'],
      ['erin', 'approved'],
      ['carol', 'approved'],
    ]);
    expect(h.projection.of(instanceId).archived).toBe(true);
  });

  it('an Update from the Web UI or CLI (an id the server never makes): the projection activity writes its state', async () => {
    const { instanceId } = await h.start(linear('ahead_ui', steps(users('bob'), users('erin'))));
    const projected = h.fakes.calls.filter((c) => c.name === 'project').length;
    const [task] = h.projection.openTasks(instanceId);
    // As an operator sends it: a bare UUID as the Update id; nobody writes the answer's state.
    const answer = await h.handle(instanceId).executeUpdate(m.approve, {
      args: [{ actor: h.actor('bob'), taskId: task.id }],
      updateId: crypto.randomUUID(),
    });
    expect(answer.instanceStatus).toBe('active');
    await vi.waitFor(() => expect(h.projection.openTasks(instanceId).map((t) => t.assignee)).toEqual(['erin']));
    expect(h.fakes.calls.filter((c) => c.name === 'project').length - projected).toBe(1);
  });

  it('a decision carrying the next node’s look-up (as the server sends it) opens that node without a local activity; an entry for another input is not used', async () => {
    const { instanceId } = await h.start(linear('ahead_decision', steps(users('bob'), users('erin'), users('carol'))));
    // Every answered state names the inputs ahead of its open nodes, keyed as the workflow matches them.
    const lastAhead = () => h.projection.of(instanceId).snapshots.at(-1)?.ahead ?? [];
    const [erin] = lastAhead();
    expect(erin.input).toMatchObject({ initiatorId: 'alice', approver: { type: 'user', userIds: ['erin'] } });
    const looked = (who: string): ResolvedApprovers => ({
      users: [{ userId: who, reason: `user: looked up by the server` }],
      pool: null,
      poolSize: 0,
      poolMembers: [],
      poolReason: null,
      admins: [],
      managers: { alice: 'bob' },
      deptLeaders: { alice: null },
      problem: null,
    });
    const before = lookUps();
    const [bob] = h.projection.openTasks(instanceId);
    await h.act(instanceId, m.approve, {
      actor: h.actor('bob'),
      taskId: bob.id,
      approversAhead: { at: Date.now(), entries: [{ key: erin.key, resolved: looked('erin') }] },
    });
    expect(lookUps().own.length - before.own.length).toBe(0);
    expect(h.projection.openTasks(instanceId).map((t) => t.assignee)).toEqual(['erin']);
    // The assignment's reason is the one the Update carried.
    expect(
      h.projection
        .of(instanceId)
        .trail.filter((e) => e.type === 'assign')
        .at(-1),
    ).toMatchObject({ userId: 'erin', detail: { reason: 'user: looked up by the server' } });
    // An entry whose key is not carol's node's input is not used: the node looks up itself.
    const [carol] = lastAhead();
    const [erinTask] = h.projection.openTasks(instanceId);
    await h.act(instanceId, m.approve, {
      actor: h.actor('erin'),
      taskId: erinTask.id,
      approversAhead: { at: Date.now(), entries: [{ key: `${carol.key} `, resolved: looked('grace') }] },
    });
    expect(
      lookUps()
        .own.slice(before.own.length)
        .map((c) => c.input),
    ).toMatchObject([{ approver: { type: 'user', userIds: ['carol'] } }]);
    expect(h.projection.openTasks(instanceId).map((t) => t.assignee)).toEqual(['carol']);
  });

  it('an initiatorSelect node whose variables changed since the look-up looks up its approvers itself', async () => {
    const pick = { approver: { type: 'initiatorSelect', expression: '${msg.next}' } };
    const { instanceId } = await h.start(linear('ahead_select', steps(users('bob'), pick)), {
      variables: { next: 'erin' },
    });
    const before = lookUps();
    const [task] = h.projection.openTasks(instanceId);
    // bob changes who comes next with his decision: the look-up ahead (erin) no longer applies.
    await h.act(instanceId, m.approve, { actor: h.actor('bob'), taskId: task.id, variables: { next: 'carol' } });
    const after = lookUps();
    expect(after.own.slice(before.own.length).map((c) => c.input)).toMatchObject([
      { approver: { type: 'initiatorSelect', userIds: ['carol'] } },
    ]);
    expect(h.projection.openTasks(instanceId).map((t) => t.assignee)).toEqual(['carol']);
  });
});
