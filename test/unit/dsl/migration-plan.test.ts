// The pure migration planner (dsl/migration-plan.ts): the dry run and the workflow's `migrate`
// Update both use it, so each rule is pinned here on small documents.
import { describe, expect, it } from 'vitest';
import { planMigration, type MigrationState, type ProcessDocument } from '../../../dsl/index.js';

type N = [id: string, type: string];
const doc = (nodes: N[], edges: Array<[string, string, string?]>): ProcessDocument => ({
  ruleChain: { id: 'p', name: 'P' },
  metadata: {
    firstNodeIndex: 0,
    nodes: nodes.map(([id, type]) => ({ id, type: type as never, name: id })),
    connections: edges.map(([fromId, toId, type = 'Success']) => ({ fromId, toId, type })),
  },
});
const line = (...ids: N[]) =>
  doc(
    [['s', 'startTask'], ...ids, ['end', 'end']],
    ['s', ...ids.map(([id]) => id), 'end'].slice(1).map((to, i, all): [string, string] => [i ? all[i - 1] : 's', to]),
  );

/** One path parked at `nodeId` with an open run and one task (none for a failed path). */
function at(nodeId: string, extra: Partial<MigrationState> = {}, failed = false): MigrationState {
  return {
    tokens: [{ id: 'k1', nodeId, regionId: null, parked: true, failed }],
    runs: failed ? [] : [{ id: 'r1', nodeId, tokenId: 'k1' }],
    tasks: failed
      ? []
      : [
          {
            id: 't1',
            activityId: nodeId,
            name: nodeId,
            kind: 'approval',
            status: 'active',
            assignee: 'bob',
            runId: 'r1',
          },
        ],
    regions: [],
    completedApprovals: [],
    ...extra,
  };
}

const v1 = line(['a', 'userTask'], ['b', 'userTask']);

describe('planMigration', () => {
  it('keeps a node of the same id and type', () => {
    const plan = planMigration(at('b'), v1, line(['a', 'userTask'], ['b', 'userTask'], ['c', 'userTask']));
    expect(plan.ok).toBe(true);
    expect(plan.nodes).toMatchObject([{ nodeId: 'b', wait: 'task', outcome: 'kept', to: 'b' }]);
    expect(plan.tasks).toMatchObject([{ taskId: 't1', outcome: 'kept', to: 'b', toName: 'b' }]);
  });

  it('moves a mapped node, renaming a task named after its node', () => {
    const plan = planMigration(at('b'), v1, line(['a', 'userTask'], ['review', 'userTask']), { b: 'review' });
    expect(plan.ok).toBe(true);
    expect(plan.tasks).toMatchObject([{ outcome: 'moved', to: 'review', toName: 'review' }]);
  });

  it('refuses an active node with no counterpart, naming nodeMapping', () => {
    const plan = planMigration(at('b'), v1, line(['a', 'userTask']));
    expect(plan.ok).toBe(false);
    expect(plan.refusals[0]).toMatchObject({ nodeId: 'b' });
    expect(plan.refusals[0].reason).toContain('nodeMapping');
    expect(plan.tasks[0].outcome).toBe('refused');
  });

  it('cancels the tasks and restarts the path when the counterpart is another kind of node', () => {
    const plan = planMigration(at('b'), v1, line(['a', 'userTask'], ['svc', 'serviceTask']), { b: 'svc' });
    expect(plan.nodes[0]).toMatchObject({ outcome: 'restarted', to: 'svc' });
    expect(plan.tasks[0]).toMatchObject({ outcome: 'cancelled', to: 'svc' });
  });

  it('reports mapping entries naming unknown nodes', () => {
    const plan = planMigration(at('b'), v1, v1, { b: 'zz', ghost: 'a' });
    expect(plan.ok).toBe(false);
    expect(plan.mappingProblems).toHaveLength(2);
  });

  it('refuses a path that is running, and moving a delay to a userTask; moves a delay to a delay', () => {
    const running = at('b');
    running.tokens[0].parked = false;
    expect(planMigration(running, v1, v1).refusals[0].reason).toContain('running');
    const d1 = line(['d', 'delay']);
    const waiting = { ...at('d'), tasks: [] };
    expect(planMigration(waiting, d1, line(['d2', 'delay']), { d: 'd2' }).nodes[0]).toMatchObject({ outcome: 'moved' });
    expect(planMigration(waiting, d1, line(['u', 'userTask']), { d: 'u' }).ok).toBe(false);
  });

  it('moves a failed path anywhere outside a region (a re-drive runs it)', () => {
    const plan = planMigration(at('b', {}, true), v1, line(['a', 'userTask'], ['c', 'userTask']), { b: 'c' });
    expect(plan.nodes[0]).toMatchObject({ wait: 'failed', outcome: 'moved', to: 'c' });
  });

  it('keeps a sub-process or http call only where it is', () => {
    const sub = line(['x', 'subProcess']);
    const state: MigrationState = { ...at('x'), runs: [], tasks: [] };
    expect(planMigration(state, sub, sub).nodes[0]).toMatchObject({ wait: 'child', outcome: 'kept' });
    expect(planMigration(state, sub, line(['y', 'subProcess']), { x: 'y' }).ok).toBe(false);
    const call = line(['h', 'httpCall']);
    expect(planMigration(state, sub, call, { x: 'h' }).ok).toBe(false);
  });

  const fork = (branches: string[][]) =>
    doc(
      [
        ['s', 'startTask'],
        ['f', 'fork'],
        ...branches.flat().map((id): N => [id, 'userTask']),
        ['j', 'join'],
        ['after', 'userTask'],
        ['end', 'end'],
      ],
      [
        ['s', 'f'],
        ...branches.flatMap((b) => [['f', b[0]], ...b.slice(1).map((id, i) => [b[i], id]), [b[b.length - 1], 'j']]),
        ['j', 'after'],
        ['after', 'end'],
      ] as Array<[string, string]>,
    );
  const inRegion = (nodeId: string): MigrationState => {
    const s = at(nodeId);
    s.tokens[0].regionId = 'g';
    s.regions = [{ id: 'g', forkId: 'f', joinId: 'j' }];
    return s;
  };

  it('keeps a parallel region whose fork, join and branches stay', () => {
    const f = fork([['x1', 'x2'], ['y']]);
    expect(planMigration(inRegion('x1'), f, f).ok).toBe(true);
    expect(planMigration(inRegion('x1'), f, f, { x1: 'x2' }).nodes[0]).toMatchObject({ outcome: 'moved', to: 'x2' });
  });

  it('refuses a join whose branches change, and moving a path out of its region', () => {
    const f = fork([['x1', 'x2'], ['y']]);
    const changed = planMigration(inRegion('y'), f, fork([['x1', 'x2'], ['y'], ['z']]));
    expect(changed.ok).toBe(false);
    expect(changed.refusals[0].reason).toContain('join j: its branches change');
    const out = planMigration(inRegion('x2'), f, f, { x2: 'after' });
    expect(out.refusals[0].reason).toContain('not inside the parallel region');
  });

  it('refuses moving a path outside a region into one', () => {
    const f = fork([['x1'], ['y']]);
    const plan = planMigration(at('after'), f, f, { after: 'y' });
    expect(plan.refusals[0].reason).toContain('inside a parallel region');
  });

  it('maps the approval history and drops nodes the target lacks', () => {
    const state = at('b', { completedApprovals: ['a', 'gone', 'b'] });
    const v0 = line(['a', 'userTask'], ['gone', 'userTask'], ['b', 'userTask']);
    const plan = planMigration(state, v0, line(['a2', 'userTask'], ['b', 'userTask']), { a: 'a2' });
    expect(plan.completedApprovals).toEqual(['a2', 'b']);
  });
});
