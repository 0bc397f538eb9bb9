// The handoverUser Update at the workflow level (HTTP contract: test/integration/handover.test.ts):
// its refusals, a retried Update answering once, and a moved initiator surviving continue-as-new.
import { describe, expect, it } from 'vitest';
import { useHarness, m } from './support/harness.js';
import { oneStep, users } from './support/dsl.js';

const LONG = 120_000;
const h = useHarness('user-handover');
const scope = { tasks: true, pools: true, startedInstances: true };

describe.concurrent('handoverUser', () => {
  it('refuses a non-admin, a receiver equal to the leaver and an ended instance', async () => {
    const { instanceId } = await h.start(oneStep('uh_refused', users('bob')));
    const base = { fromUserId: 'bob', toUserId: 'erin', scope };
    expect(await h.refused(instanceId, m.handoverUser, { actor: h.actor('admin'), ...base })).toMatchObject({
      type: 'FORBIDDEN',
    });
    expect(
      await h.refused(instanceId, m.handoverUser, {
        actor: h.actor('admin', { admin: true }),
        ...base,
        toUserId: 'bob',
      }),
    ).toMatchObject({ type: 'INVALID_TARGET' });
    await h.decide(instanceId, 'bob');
    expect(
      await h.refused(instanceId, m.handoverUser, { actor: h.actor('admin', { admin: true }), ...base }),
    ).toMatchObject({ type: 'INVALID_STATE' });
  });

  it('a retried Update answers its first answer; a new one moves nothing twice', async () => {
    const { instanceId } = await h.start(oneStep('uh_retry', users('bob')));
    const arg = { actor: h.actor('admin', { admin: true }), fromUserId: 'bob', toUserId: 'erin', scope };
    const first = await h.act(instanceId, m.handoverUser, arg, 'retry-1');
    expect(first.handover).toEqual({ tasks: 1, delegated: 0, poolMemberships: 0, instances: 0, skipped: [] });
    expect(await h.act(instanceId, m.handoverUser, arg, 'retry-1')).toEqual(first);
    const second = await h.act(instanceId, m.handoverUser, arg);
    expect(second.handover).toEqual({ tasks: 0, delegated: 0, poolMemberships: 0, instances: 0, skipped: [] });
    expect(h.projection.trailTypes(instanceId).filter((t) => t === 'transfer')).toHaveLength(1);
    expect(h.projection.taskOf(instanceId, 'erin')).toMatchObject({ assignee: 'erin', status: 'active' });
  });

  it(
    'a moved initiator survives continue-as-new',
    async () => {
      const { instanceId } = await h.start(oneStep('uh_initiator', users('bob')), {
        initiator: 'alice',
        historyLimit: 20,
      });
      const handle = h.handle(instanceId);
      const firstRun = (await handle.describe()).runId;
      const moved = await h.act(instanceId, m.handoverUser, {
        actor: h.actor('admin', { admin: true }),
        fromUserId: 'alice',
        toUserId: 'erin',
        reason: 'alice left',
        scope,
      });
      expect(moved.handover).toMatchObject({ tasks: 0, instances: 1 });
      expect(h.projection.of(instanceId).instance.initiatorId).toBe('erin');
      for (let i = 0; (await handle.describe()).runId === firstRun; i++) {
        expect(i, 'continued as new within 15 Updates').toBeLessThan(15);
        await h.act(instanceId, m.setVariables, { actor: h.actor('admin', { admin: true }), variables: { round: i } });
      }
      expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
      expect(h.projection.of(instanceId).instance.initiatorId).toBe('erin');
      const entry = h.projection.of(instanceId).trail.find((e) => e.type === 'transfer')!;
      expect(entry).toMatchObject({
        userId: 'admin',
        comment: 'alice left',
        detail: { handover: true, kind: 'initiator', from: 'alice', to: 'erin' },
      });
    },
    LONG,
  );
});
