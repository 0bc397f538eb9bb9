// Admin repairs (docs/monitoring.md, workflow:admin): re-drive runs the current node of a failed or
// stuck path again; force-resume moves a parallel region past a join that will never fire.
// Validators only read; handlers answer once the instance is settled (next tasks exist).
import type { DslNode } from '../../dsl/index.js';
import * as m from '../messages.js';
import type { Engine, NodeRun, Region, Token } from './engine.js';
import { onUpdate } from './handlers.js';
import { fault, settle } from './actions.js';
import { spawn } from './interpreter.js';
import { said } from '../../dsl/history.js';
import type { TaskState } from './types.js';

/** Where a path stands: failed (waits for a re-drive), stuck (nobody can act), or busy (someone or something will move it). */
interface PathWait {
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

const waits = (engine: Engine) => Object.values(engine.tokens).map((t) => waitOf(engine, t));

/** Paths a re-drive runs again: failed ones, and userTasks nobody can act on. */
const redrivable = (w: PathWait) => w.state === 'failed' || (w.state === 'stuck' && w.node.type === 'userTask');

function requireAdminOnRunning(engine: Engine, input: m.InstanceReasonInput) {
  if (!input.actor.admin) fault('FORBIDDEN', 'Permission required: workflow:admin');
  if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
  if (engine.status === 'suspended') fault('INVALID_STATE', 'The instance is suspended: activate it first');
}

type RegionPlan = { ok: true; region: Region; branches: PathWait[] } | { ok: false; why: string };

/** A region can move past its join when every branch that has not arrived is stuck or failed. */
function planRegion(engine: Engine, region: Region): RegionPlan {
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

const openRegions = (engine: Engine) => Object.values(engine.regions).filter((r) => !r.fired);

export function registerAdminActions(engine: Engine) {
  onUpdate(
    engine,
    m.reDrive,
    (input) => {
      const targets = waits(engine).filter(redrivable);
      const failed = targets.filter((w) => w.state === 'failed').map((w) => w.node.id);
      const stuck = targets.filter((w) => w.state === 'stuck');
      // A repair runs nodes against the directory as it is now (an admin may have just fixed it).
      engine.approversAhead = null;
      for (const w of stuck) {
        // The path wakes from its userTask and runs the node again: approvers are resolved afresh.
        engine.cancelRun(w.run!);
        w.run!.outcome = 'cancelled';
        w.run!.redriven = true;
      }
      const nodes = [...new Set(targets.map((w) => w.node.id))];
      engine.trail('system', {
        activityId: nodes[0] ?? null,
        userId: input.actor.userId,
        ...said('instance.redriven', { actor: input.actor.userId, nodes, reason: input.reason ?? null }),
        detail: {
          action: 're_drive',
          failedNodes: failed,
          stuckNodes: stuck.map((w) => w.node.id),
          reason: input.reason ?? null,
        },
      });
      // Failed paths wait for the status to leave `failed`, then run their node again.
      if (engine.status === 'failed') engine.setInstanceStatus('active');
      return settle(engine, null);
    },
    {
      validator: (input) => {
        requireAdminOnRunning(engine, input);
        if (engine.status === 'failed') return;
        const all = waits(engine);
        if (all.some(redrivable)) return;
        const busy = all.filter((w) => w.state === 'busy').map((w) => w.why);
        if (busy.length) fault('INVALID_STATE', `The instance is not stuck: ${busy.join('; ')}`);
        const region = openRegions(engine).find((r) => r.joinId);
        if (region)
          fault(
            'INVALID_STATE',
            `Nothing to re-drive: join ${region.joinId} waits for branches that will not arrive; use force-resume`,
          );
        fault('INVALID_STATE', 'Nothing to re-drive: no failed or stuck node');
      },
    },
  );

  onUpdate(
    engine,
    m.forceResume,
    (input) => {
      engine.approversAhead = null; // as for a re-drive

      for (const plan of openRegions(engine).map((r) => planRegion(engine, r))) {
        if (!plan.ok) continue;
        const { region, branches } = plan;
        for (const b of branches) {
          if (b.run) {
            engine.cancelRun(b.run);
            b.run.outcome = 'cancelled';
          }
          // A failed branch stays parked until the instance leaves `failed`, then ends quietly.
          b.token.abandoned = true;
          b.token.regionId = null;
        }
        region.fired = true;
        delete engine.regions[region.id];
        const given = [...new Set(branches.map((b) => b.node.id))];
        engine.trail('system', {
          activityId: region.joinId,
          userId: input.actor.userId,
          ...said('instance.forceResumed', {
            actor: input.actor.userId,
            joinId: region.joinId ?? '',
            branches: given,
            reason: input.reason ?? null,
          }),
          detail: {
            action: 'force_resume',
            forkId: region.forkId,
            joinId: region.joinId,
            arrived: region.arrived.length,
            expected: region.expected,
            abandoned: given,
            reason: input.reason ?? null,
          },
        });
        // A path without a region passes the join and follows its Success connection.
        spawn(engine, region.joinId!, null);
      }
      if (engine.status === 'failed' && !Object.values(engine.tokens).some((t) => t.failed && !t.abandoned)) {
        engine.detail = null;
        engine.setInstanceStatus('active');
      }
      return settle(engine, null);
    },
    {
      validator: (input) => {
        requireAdminOnRunning(engine, input);
        const regions = openRegions(engine);
        if (!regions.length)
          fault('INVALID_STATE', 'No open parallel region: force-resume applies to a fork/join whose join never fired');
        const plans = regions.map((r) => planRegion(engine, r));
        if (!plans.some((p) => p.ok))
          fault('INVALID_STATE', `Cannot force-resume: ${plans.map((p) => (p.ok ? '' : p.why)).join('; ')}`);
      },
    },
  );
}
