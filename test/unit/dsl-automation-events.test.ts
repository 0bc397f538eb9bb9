// The other way round from the automation node: an approval's written state as process events for
// chains (src/rule-chains/process-events.ts) — which events a state carries, and the run each one
// gets (its id derived from the chain, the endpoint and the event, so a state written twice starts
// it once).
import { describe, expect, it } from 'vitest';
import { eventRun, eventsOf, subscriptionOf } from '../../src/rule-chains/process-events.js';
import type { ProjectionSnapshot, TaskState } from '../../workflows/engine/types.js';
import type { RuleChainDsl } from '../../chains/types.js';

const none = { userIds: [], roleIds: [], deptIds: [] };
const task = (id: string, fields: Partial<TaskState> = {}): TaskState => ({
  id,
  activityId: 'review',
  name: 'Review',
  kind: 'approval',
  assignee: 'bob',
  candidates: none,
  status: 'active',
  result: null,
  parentTaskId: null,
  owner: null,
  addedBy: null,
  dueDate: null,
  createTime: '2026-11-29T09:00:00.000Z',
  endTime: null,
  comment: null,
  variables: {},
  runId: 'r1',
  suspendedFrom: null,
  seq: 3,
  ...fields,
});

function snapshot(fields: Partial<ProjectionSnapshot> = {}, status = 'active'): ProjectionSnapshot {
  return {
    seq: 5,
    instance: {
      id: 'i1',
      tenantId: 't1',
      workflowId: 'w',
      definitionId: 'd',
      processKey: 'orders',
      processVersion: 2,
      processName: 'Orders',
      businessKey: 'PO-1',
      status: status as never,
      initiatorId: 'alice',
      variables: { amount: 5 },
      currentNodes: [],
      startTime: '2026-11-29T09:00:00.000Z',
      endTime: null,
      endReason: null,
      detail: null,
    },
    tasks: [],
    formPermissions: {},
    actionPermissions: {},
    trail: [],
    cc: [],
    notifications: [],
    ended: false,
    ...fields,
  };
}

const start = {
  id: 'i1-1',
  type: 'start',
  activityId: null,
  taskId: null,
  userId: 'alice',
  comment: null,
  time: '',
  detail: null,
  seq: 1,
};

describe('eventsOf', () => {
  it('a start: instanceStarted with the variables, and the first task created', () => {
    const events = eventsOf(snapshot({ trail: [start], tasks: [task('t1')] }));
    expect(events.map((e) => [e.name, e.key])).toEqual([
      ['instanceStarted', 'instanceStarted'],
      ['taskCreated', 'taskCreated:t1'],
    ]);
    expect(events[0]!.data).toMatchObject({
      instanceId: 'i1',
      processKey: 'orders',
      businessKey: 'PO-1',
      variables: { amount: 5 },
    });
    expect(events[1]!.data).toMatchObject({ taskId: 't1', nodeId: 'review', assignee: 'bob' });
  });

  it('a decision and the end: taskDecided with the decision, instanceEnded with the outcome', () => {
    const decided = task('t1', { status: 'completed', result: 'rejected', comment: 'no', endTime: 'x' });
    const cancelled = task('t2', { status: 'completed', result: 'cancelled' });
    const events = eventsOf(snapshot({ tasks: [decided, cancelled], ended: true }, 'rejected'));
    expect(events.filter((e) => e.name !== 'taskCreated').map((e) => [e.name, e.key])).toEqual([
      ['taskDecided', 'taskDecided:t1'],
      ['instanceEnded', 'instanceEnded'],
    ]);
    expect(events.find((e) => e.name === 'taskDecided')!.data).toMatchObject({ decision: 'rejected', comment: 'no' });
    expect(events.at(-1)!.data).toMatchObject({ outcome: 'rejected' });
  });

  it('no events for delays, resubmits or the parent of several ballots', () => {
    const tasks = [
      task('d', { kind: 'delay', assignee: null }),
      task('r', { kind: 'resubmit' }),
      task('parent', { assignee: null, status: 'waiting' }),
      task('pool', { assignee: null, status: 'pending', candidates: { ...none, roleIds: ['finance'] } }),
    ];
    expect(eventsOf(snapshot({ tasks })).map((e) => e.key)).toEqual(['taskCreated:pool']);
  });
});

describe('subscriptions and runs', () => {
  const dsl = { ruleChain: { id: 'audit', name: 'Audit' }, metadata: { nodes: [] } } as RuleChainDsl;
  const endpoint = (configuration: Record<string, unknown>) => ({
    id: 'ev',
    type: 'endpoint/processEvent',
    configuration,
  });

  it('reads processKey (empty or * = all) and events (unknown names dropped, none = all)', () => {
    expect(
      subscriptionOf('audit', 4, dsl, endpoint({ processKey: 'orders', events: ['instanceEnded', 'bogus'] })),
    ).toMatchObject({
      processKey: 'orders',
      events: ['instanceEnded'],
      version: 4,
    });
    expect(subscriptionOf('audit', 4, dsl, endpoint({ processKey: '*', events: [] }))).toMatchObject({
      processKey: null,
      events: null,
    });
  });

  it('one run id per chain, endpoint and event: the same event gives the same run', () => {
    const sub = subscriptionOf('audit', 4, dsl, endpoint({}));
    const [ended] = eventsOf(snapshot({ ended: true }, 'completed'));
    const run = eventRun('t1', sub, ended!);
    expect(run).toMatchObject({
      runId: 'event:audit:ev:i1:instanceEnded',
      chainId: 'audit',
      chainVersion: 4,
      trigger: { kind: 'event', endpointId: 'ev', event: 'instanceEnded', instanceId: 'i1' },
      msg: {
        type: 'instanceEnded',
        dataType: 'JSON',
        metadata: { instanceId: 'i1', processKey: 'orders', tenant_id: 't1' },
      },
    });
    expect(JSON.parse(run.msg.data)).toMatchObject({ outcome: 'completed', businessKey: 'PO-1' });
    expect(eventRun('t1', sub, ended!).runId).toBe(run.runId);
  });
});
