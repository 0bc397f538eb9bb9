// Where each path of the instance stands (failed, stuck or busy) and which parallel regions could move past their join: what re-drive and force-resume read.
import type { DslNode } from '../../../dsl/index.js';
import type { Engine, NodeRun, Region, Token } from '../engine.js';
import type { TaskState } from '../types.js';

/** Where a path stands: failed (waits for a re-drive), stuck (nobody can act), or busy (someone or something will move it). */
export interface PathWait {
  token: Token;
  node: DslNode;
  run: NodeRun | null;
  state: 'failed' | 'stuck' | 'busy';
  why: string;
}

/**
 * A pool nobody is in (emptyApproverPolicy `park`: it lists the roles/departments that had no
 * member, but no user), or a multi-approver parent: open, but nobody's work.
 */
function actionable(run: NodeRun, task: TaskState): boolean {
  if (task.id === run.parentTaskId) return false;
  const c = task.candidates;
  const pooled = task.status === 'pending' || task.suspendedFrom === 'pending';
  const parked = task.variables?.fallback_policy === 'park';
  return !(pooled && !task.assignee && !c.userIds.length && (parked || (!c.roleIds.length && !c.deptIds.length)));
}

function waitOf(engine: Engine, token: Token): PathWait {
  const node = engine.node(token.nodeId);
  const at = `${node.id} (${node.type})`;
  if (token.failed) return { token, node, run: null, state: 'failed', why: `${at} failed` };
  if (!token.parked) return { token, node, run: null, state: 'busy', why: `${at} is running` };
  const run =
    Object.values(engine.runs).find((r) => r.tokenId === token.id && r.nodeId === node.id && !r.outcome) ?? null;
  if (!run)
    return {
      token,
      node,
      run,
      state: 'busy',
      why: `${at} waits ${node.type === 'join' ? 'for its timeout' : 'for an external result'}`,
    };
  const open = Object.values(engine.tasks).filter((t) => t.runId === run.id && engine.isOpen(t));
  const live = open.filter((t) => actionable(run, t));
  if (live.length) return { token, node, run, state: 'busy', why: `${at} has ${live.length} open task(s)` };
  return {
    token,
    node,
    run,
    state: 'stuck',
    why: open.length ? `${at}: its open task has no candidates` : `${at} has no open task`,
  };
}

export const waits = (engine: Engine) => Object.values(engine.tokens).map((t) => waitOf(engine, t));

/** Paths a re-drive runs again: failed ones, and userTasks nobody can act on. */
export const redrivable = (w: PathWait) => w.state === 'failed' || (w.state === 'stuck' && w.node.type === 'userTask');

export type RegionPlan = { ok: true; region: Region; branches: PathWait[] } | { ok: false; why: string };

/** A region can move past its join when every branch that has not arrived is stuck or failed. */
export function planRegion(engine: Engine, region: Region): RegionPlan {
  if (!region.joinId) return { ok: false, why: `the branches of ${region.forkId} meet at no join` };
  const branches = Object.values(engine.tokens)
    .filter((t) => t.regionId === region.id && t.nodeId !== region.joinId)
    .map((t) => waitOf(engine, t));
  const busy = branches.filter((b) => b.state === 'busy');
  if (busy.length)
    return { ok: false, why: `branches of ${region.forkId} are still open: ${busy.map((b) => b.why).join(', ')}` };
  if (!branches.length)
    return {
      ok: false,
      why: `no branch of ${region.forkId} is waiting (${region.arrived.length} of ${region.expected} reached ${region.joinId})`,
    };
  return { ok: true, region, branches };
}

export const openRegions = (engine: Engine) => Object.values(engine.regions).filter((r) => !r.fired);
