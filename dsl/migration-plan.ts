// What migrating a running instance to another version of its process would do: for each active
// path (its node) and open task, kept / moved / cancelled, and why a migration is refused. Pure:
// the HTTP side computes it for a dry run from the workflow's state, the workflow's `migrate`
// Update computes it again (validator and handler), so a dry run and the real thing always agree.
import { graphIndex } from './graph.js';
import { branchConnections, regionOf } from './regions.js';
import type { DslNode, ProcessDocument } from './types.js';

/** What a path waits on, from the node it stands at and its state. */
export type WaitKind = 'task' | 'resubmit' | 'delay' | 'join' | 'child' | 'call' | 'failed' | 'running';

export interface MigrationToken {
  id: string;
  nodeId: string;
  regionId: string | null;
  parked: boolean;
  failed: boolean;
}

export interface MigrationRun {
  id: string;
  nodeId: string;
  tokenId: string;
}

export interface MigrationTask {
  id: string;
  activityId: string;
  name: string;
  kind: string;
  status: string;
  assignee: string | null;
  runId: string;
}

export interface MigrationRegion {
  id: string;
  forkId: string;
  joinId: string | null;
}

/** The part of an instance's state a migration looks at (open runs, open tasks, open regions). */
export interface MigrationState {
  tokens: MigrationToken[];
  runs: MigrationRun[];
  tasks: MigrationTask[];
  regions: MigrationRegion[];
  completedApprovals: string[];
}

export type NodeOutcome = 'kept' | 'moved' | 'restarted' | 'refused';
export type TaskOutcome = 'kept' | 'moved' | 'cancelled' | 'refused';

export interface NodeMove {
  tokenId: string;
  nodeId: string;
  type: string;
  wait: WaitKind;
  outcome: NodeOutcome;
  /** The node the path stands at afterwards (null when refused). */
  to: string | null;
  reason: string;
}

export interface TaskMove {
  taskId: string;
  activityId: string;
  name: string;
  assignee: string | null;
  status: string;
  outcome: TaskOutcome;
  to: string | null;
  /** The task's name afterwards. */
  toName: string;
  reason: string;
}

export interface MigrationRefusal {
  nodeId: string | null;
  reason: string;
}

export interface MigrationPlan {
  /** True when nothing refuses (and the mapping is valid). */
  ok: boolean;
  /** Mapping entries that name nodes the source or target does not have (a 422, not a state refusal). */
  mappingProblems: string[];
  refusals: MigrationRefusal[];
  nodes: NodeMove[];
  tasks: TaskMove[];
  /** The approval history `return` and `toPrev` use, in target node ids (nodes the target lacks dropped). */
  completedApprovals: string[];
  /** Open parallel regions with their fork and join in target node ids. */
  regions: Array<{ regionId: string; forkId: string; joinId: string }>;
}

export type NodeMapping = Record<string, string>;

/** Waits a path can only keep at the same node: why it stays there, and why anything else is refused. */
const STAY_ONLY = {
  resubmit: {
    kept: "the initiator's resubmit task stays at the first node",
    refused: "the initiator's resubmit task waits at the first node, which must stay the same",
  },
  child: {
    kept: 'keeps waiting for its sub-process or rule chain run (the child keeps the version it runs)',
    refused: 'a sub-process or rule chain run is running here; the parent can only keep waiting at the same node',
  },
  call: {
    kept: 'keeps waiting for its HTTP call',
    refused: 'an HTTP call is in flight here; it can only keep waiting at the same node',
  },
} as const;

const label = (node: DslNode | undefined, id: string) => `${id} (${node?.type ?? 'unknown'})`;

/** The name a task of this node gets (as user-task.ts names it). */
function taskName(node: DslNode | undefined, id: string): string {
  const cfg = (node?.configuration ?? {}) as { taskName?: string };
  return cfg.taskName || node?.name || id;
}

function waitOf(token: MigrationToken, node: DslNode | undefined, hasRun: boolean, inRegion: boolean): WaitKind {
  if (token.failed) return 'failed';
  if (!token.parked || !node) return 'running';
  if (node.type === 'userTask' && hasRun) return 'task';
  if (node.type === 'startTask' && hasRun) return 'resubmit';
  if (node.type === 'delay' && hasRun) return 'delay';
  if (node.type === 'join' && inRegion) return 'join';
  if (node.type === 'subProcess' || node.type === 'automation') return 'child';
  if (node.type === 'httpCall') return 'call';
  return 'running';
}

/** Mapping entries must name a node of the source (key) and of the target (value). */
export function mappingProblems(source: ProcessDocument, target: ProcessDocument, mapping: NodeMapping): string[] {
  const from = graphIndex(source).byId;
  const to = graphIndex(target).byId;
  const problems: string[] = [];
  for (const [key, value] of Object.entries(mapping)) {
    if (!from.has(key)) problems.push(`nodeMapping: ${key} is not a node of the instance's current version`);
    if (!to.has(value)) problems.push(`nodeMapping: ${key} → ${value}: ${value} is not a node of the target version`);
  }
  return problems;
}

/**
 * The plan for moving `state` from `source` to `target`. A path's counterpart is its mapping
 * entry, else the node of the same id in the target; a userTask, delay or in-flight call keeps
 * its work when the counterpart is of the same type; an open task whose counterpart is of another
 * type is cancelled and the path runs the counterpart afresh. Parallel regions must keep their
 * fork, join and branches.
 */
export function planMigration(
  state: MigrationState,
  source: ProcessDocument,
  target: ProcessDocument,
  mapping: NodeMapping = {},
): MigrationPlan {
  const from = graphIndex(source).byId;
  const to = graphIndex(target).byId;
  const problems = mappingProblems(source, target, mapping);
  const refusals: MigrationRefusal[] = [];
  // Where an active path goes: its mapping entry first (a mapping may move it elsewhere).
  const counterpart = (id: string): string | null =>
    Object.hasOwn(mapping, id) ? mapping[id] : to.has(id) ? id : null;
  // What a node of the graph is in the target (fork, join, branch entries, approval history): itself
  // while the target has it, else its mapping entry (a renamed node).
  const same = (id: string): string | null => (to.has(id) ? id : Object.hasOwn(mapping, id) ? mapping[id] : null);

  // Open parallel regions: the same fork, join and branch entries in the target.
  const regionOk = new Map<string, { forkId: string; joinId: string; nodeIds: Set<string> } | null>();
  for (const region of state.regions) {
    const fork = same(region.forkId);
    const join = region.joinId ? same(region.joinId) : null;
    const forkNode = fork ? to.get(fork) : undefined;
    const why = (text: string) => {
      refusals.push({ nodeId: region.joinId ?? region.forkId, reason: text });
      regionOk.set(region.id, null);
    };
    if (!fork || !forkNode || forkNode.type !== from.get(region.forkId)?.type) {
      why(`the parallel region of ${region.forkId} is active and its fork has no counterpart of the same type`);
      continue;
    }
    const targetRegion = regionOf(target, fork);
    if (!region.joinId || !join || targetRegion.joinId !== join) {
      why(
        `join ${region.joinId ?? '(none)'}: its branches change (in the target, ${fork} meets at ${targetRegion.joinId ?? 'no single join'})`,
      );
      continue;
    }
    const before = branchConnections(source, region.forkId)
      .map((c) => same(c.toId) ?? `${c.toId}?`)
      .sort();
    const after = branchConnections(target, fork)
      .map((c) => c.toId)
      .sort();
    if (before.join('\u0000') !== after.join('\u0000')) {
      why(`join ${region.joinId}: its branches change (${before.join(', ')} → ${after.join(', ')})`);
      continue;
    }
    regionOk.set(region.id, { forkId: fork, joinId: join, nodeIds: targetRegion.nodeIds });
  }
  // Nodes the target puts inside a parallel region (a path outside one may not move into it).
  const regional = new Set<string>();
  for (const n of target.metadata.nodes)
    if (n.type === 'fork' || n.type === 'inclusive') {
      const r = regionOf(target, n.id);
      for (const id of r.nodeIds) regional.add(id);
      if (r.joinId) regional.add(r.joinId);
    }

  const nodes: NodeMove[] = [];
  for (const token of state.tokens) {
    const node = from.get(token.nodeId);
    const runs = state.runs.filter((r) => r.tokenId === token.id && r.nodeId === token.nodeId);
    const region = token.regionId ? state.regions.find((r) => r.id === token.regionId) : undefined;
    const wait = waitOf(token, node, runs.length > 0, !!region);
    const at = label(node, token.nodeId);
    const move = (outcome: NodeOutcome, dest: string | null, reason: string) => {
      nodes.push({
        tokenId: token.id,
        nodeId: token.nodeId,
        type: node?.type ?? 'unknown',
        wait,
        outcome,
        to: dest,
        reason,
      });
      if (outcome === 'refused') refusals.push({ nodeId: token.nodeId, reason: `${at}: ${reason}` });
    };
    const c = counterpart(token.nodeId);
    if (wait === 'running') {
      move('refused', null, 'an automatic step is running; try again once the instance waits');
      continue;
    }
    if (c === null) {
      move('refused', null, 'is active and has no counterpart in the target version; map it with nodeMapping');
      continue;
    }
    const dest = to.get(c);
    if (!dest) continue; // a mapping problem, reported above
    if (region) {
      const ok = regionOk.get(region.id);
      if (ok === null) {
        move('refused', null, `stands in a parallel region that cannot be migrated`);
        continue;
      }
      if (ok && !ok.nodeIds.has(c) && c !== ok.joinId) {
        move('refused', null, `${c} is not inside the parallel region of ${ok.forkId} in the target`);
        continue;
      }
    } else if (regional.has(c)) {
      move('refused', null, `${c} lies inside a parallel region in the target; a path outside one cannot move into it`);
      continue;
    }
    const how = c === token.nodeId ? 'kept' : 'moved';
    const mapped = Object.hasOwn(mapping, token.nodeId) ? ' (nodeMapping)' : '';
    const sameType = dest.type === node!.type;
    switch (wait) {
      case 'task':
        if (sameType) move(how, c, how === 'kept' ? 'same userTask in the target' : `mapped to userTask ${c}${mapped}`);
        else
          move(
            'restarted',
            c,
            `${c} is a ${dest.type} in the target: the open tasks are cancelled and the path runs ${c}`,
          );
        break;
      case 'delay':
        if (sameType) move(how, c, how === 'kept' ? 'same delay in the target' : `mapped to delay ${c}${mapped}`);
        else move('refused', null, `a waiting delay can only be kept or moved to a delay (${c} is a ${dest.type})`);
        break;
      case 'resubmit':
      case 'child':
      case 'call':
        if (how === 'kept' && sameType) move('kept', c, STAY_ONLY[wait].kept);
        else move('refused', null, STAY_ONLY[wait].refused);
        break;
      case 'join':
        if (how === 'kept' && sameType) move('kept', c, 'keeps waiting for the other branches');
        else if (sameType && regionOk.get(region!.id)?.joinId === c)
          move('moved', c, `waits at ${c} for the other branches`);
        else move('refused', null, 'a path waiting at a join can only stay at that join');
        break;
      case 'failed':
        move(how, c, `failed; a re-drive runs ${c}${how === 'moved' ? mapped : ''}`);
        break;
    }
  }

  const tasks: TaskMove[] = state.tasks.map((task) => {
    const run = state.runs.find((r) => r.id === task.runId);
    const path = run ? nodes.find((n) => n.tokenId === run.tokenId) : undefined;
    const base = {
      taskId: task.id,
      activityId: task.activityId,
      name: task.name,
      assignee: task.assignee,
      status: task.status,
    };
    if (!path) {
      if (to.has(task.activityId))
        return {
          ...base,
          outcome: 'kept' as const,
          to: task.activityId,
          toName: task.name,
          reason: 'not tied to a path',
        };
      refusals.push({
        nodeId: task.activityId,
        reason: `task ${task.id} at ${task.activityId} is open and its node is not in the target`,
      });
      return {
        ...base,
        outcome: 'refused' as const,
        to: null,
        toName: task.name,
        reason: 'its node is not in the target',
      };
    }
    const outcome: TaskOutcome =
      path.outcome === 'restarted' ? 'cancelled' : path.outcome === 'refused' ? 'refused' : path.outcome;
    // A task named after its node takes the target node's name.
    const renamed =
      (outcome === 'kept' || outcome === 'moved') &&
      task.name === taskName(from.get(task.activityId), task.activityId) &&
      task.kind !== 'resubmit'
        ? taskName(to.get(path.to!), path.to!)
        : task.name;
    return { ...base, outcome, to: path.to, toName: renamed, reason: path.reason };
  });

  const completedApprovals = state.completedApprovals
    .map((id) => same(id))
    .filter((id): id is string => id !== null && to.get(id)?.type === 'userTask');

  return {
    ok: problems.length === 0 && refusals.length === 0,
    mappingProblems: problems,
    refusals,
    nodes,
    tasks,
    completedApprovals,
    regions: [...regionOk].flatMap(([regionId, r]) => (r ? [{ regionId, forkId: r.forkId, joinId: r.joinId }] : [])),
  };
}
