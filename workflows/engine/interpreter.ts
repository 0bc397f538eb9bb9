// Runs the DSL graph: each path of execution is a coroutine that walks nodes until it waits.
import type { DslNode } from '../../dsl/index.js';
import { evaluateCondition } from '../../dsl/expressions.js';
import { previousApprovalNode } from '../../dsl/graph.js';
import { matchingJoin } from '../../dsl/regions.js';
import { type Engine, Halt, type NodeRun, type Region, type Token } from './engine.js';
import { startUserTask } from './user-task.js';
import { config, templateContext } from './user-task/config.js';
import { watchDue } from './user-task/ballots.js';
import { edges, hasEdge, NodeFailure, type Step } from './flow.js';
import { delay, delayWait, httpCall, serviceTask, subProcess } from './system-nodes.js';
import { nodeName } from './details.js';
import { said } from '../../dsl/history.js';
import { aiAgent } from './ai-agent.js';
import { automation } from './automation.js';
import { resubmit, resubmitWait } from './resubmit.js';
import { ending } from '../../dsl/ending.js';

/**
 * Node steps the instance may take without any path really waiting (a park for a person, a
 * timer, branches or a re-drive). Deploy refuses loops that never wait (dsl/cycles.ts); this
 * budget catches whatever still runs away (a document that bypassed deploy, a userTask that
 * approves itself in a loop, a zero delay): the path fails the instance instead of spinning.
 */
export const STEP_BUDGET = 1000;

/** Starts a new path at `nodeId`. */
export function spawn(engine: Engine, nodeId: string, regionId: string | null): Token {
  const token: Token = { id: engine.newId(), nodeId, regionId, parked: false, wakeAt: null };
  engine.tokens[token.id] = token;
  engine.paths.hold();
  void runPath(engine, token);
  return token;
}

async function runPath(engine: Engine, token: Token, first?: () => Promise<Step>): Promise<void> {
  let steps = 0;
  let waits = engine.paths.waits;
  const trace: string[] = [];
  try {
    for (let resumeStep = first; ; resumeStep = undefined) {
      const node = engine.node(token.nodeId);
      if (engine.paths.waits !== waits) {
        waits = engine.paths.waits;
        steps = 0;
        trace.length = 0;
      }
      if (++steps > STEP_BUDGET) {
        const loop = [...new Set(trace.slice(-50))].join(', ');
        await fail(
          engine,
          token,
          node,
          `step budget exceeded: ${STEP_BUDGET} node steps without reaching a wait (a loop that never waits through ${loop})`,
        );
        if (token.abandoned) return;
        steps = 0;
        waits = engine.paths.waits;
        trace.length = 0;
        continue; // re-driven: run the node again
      }
      trace.push(node.id);
      if (trace.length > 100) trace.splice(0, 50);
      let step: Step;
      try {
        step = resumeStep ? await resumeStep() : await execute(engine, token, node);
      } catch (err) {
        if (!(err instanceof NodeFailure)) throw err;
        await fail(engine, token, node, err.message);
        if (token.abandoned) return; // force-resumed past its join: this branch was given up
        continue; // re-driven: run the node again
      }
      if (token.abandoned || 'stop' in step) return;
      if ('jump' in step) {
        token.nodeId = step.jump;
        engine.touch();
        continue;
      }
      // The node the path stands at now: a migration may have moved it while it waited.
      const at = token.nodeId === node.id ? node : engine.node(token.nodeId);
      const targets = edges(engine, at.id, step.follow);
      if (targets.length === 0) {
        await fail(engine, token, at, `node ${at.id} (${at.type}) has no outgoing ${step.follow} connection`);
        if (token.abandoned) return;
        continue;
      }
      // Several connections of one relation run in parallel, like a fork without a join.
      for (const extra of targets.slice(1)) spawn(engine, extra, token.regionId);
      token.nodeId = targets[0];
      engine.touch();
    }
  } catch (err) {
    if (!(err instanceof Halt)) {
      if (!engine.offline) throw err;
      engine.offline.failed(err);
    }
  } finally {
    engine.paths.release();
    delete engine.tokens[token.id];
    engine.touch();
  }
}

/**
 * A node's outcome has nowhere to go, or a system step failed: the instance becomes `failed`
 * and this path waits until an admin re-drives it, then runs the node again.
 */
export async function fail(engine: Engine, token: Token, node: DslNode, reason: string) {
  engine.detail = { failedNode: node.id, nodeType: node.type, reason, at: engine.now() };
  engine.setInstanceStatus('failed');
  engine.trail('system', { activityId: node.id, ...said('instance.failed', { reason }), detail: engine.detail });
  token.parked = true;
  token.failed = true;
  engine.touch();
  await waitForRedrive(engine, token);
}

async function waitForRedrive(engine: Engine, token: Token) {
  await engine.paths.park(() => engine.status !== 'failed');
  token.parked = false;
  token.failed = false;
  engine.detail = null;
  engine.touch();
}

type NodeStep = (engine: Engine, token: Token, node: DslNode) => Step | Promise<Step>;

/** What a path does at each node type. */
const nodeSteps: Record<string, NodeStep> = {
  startTask: () => ({ follow: 'Success' }),
  end: (engine) => {
    engine.end('completed', null);
    throw new Halt();
  },
  userTask,
  ccTask: (engine, _token, node) => ccTask(engine, node),
  switch: (engine, _token, node) => switchNode(engine, node),
  inclusive,
  fork,
  join,
  delay,
  serviceTask,
  httpCall,
  subProcess,
  aiAgent,
  automation,
};

async function execute(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  if (Object.hasOwn(nodeSteps, node.type)) return nodeSteps[node.type](engine, token, node);
  await fail(engine, token, node, `unsupported node type ${node.type}`);
  return { jump: node.id };
}

// ---------- userTask ----------

async function userTask(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  // Back here through a recall: the re-opened run is awaited again, no new tasks.
  const recalled = token.resumeRun ? engine.runs[token.resumeRun] : undefined;
  token.resumeRun = undefined;
  if (recalled && recalled.nodeId === node.id && !recalled.outcome) return awaitRun(engine, token, node, recalled);
  const run = await startUserTask(engine, token.id, node);
  return awaitRun(engine, token, node, run);
}

/** Waits for a userTask run to be decided, then routes by its outcome. */
export async function awaitRun(engine: Engine, token: Token, node: DslNode, run: NodeRun): Promise<Step> {
  token.parked = true;
  engine.touch();
  await engine.paths.park(() => run.outcome !== null);
  token.parked = false;
  // An admin re-drive (resolve the approvers again), or a migration that gave the path another node.
  if (run.redriven) return { jump: token.nodeId };
  if (run.recalledTo) return { jump: engine.runs[run.recalledTo]!.nodeId }; // the decision before was recalled
  // A migration may have moved the run to another node of the new version.
  const at = run.nodeId === node.id ? node : engine.node(run.nodeId);
  // Only an approval carries on as "the previous node" (a rejection or return going back does not).
  if (run.outcome !== 'approved' && run.outcome !== 'completed') token.lastApprovedRun = undefined;
  switch (run.outcome) {
    case 'approved':
    case 'completed':
      engine.completedApprovals.push(at.id);
      token.lastApprovedRun = run.id;
      return { follow: 'Success' };
    case 'returned':
      return jumpBack(engine, run.returnTarget!);
    case 'rejected':
      return onReject(engine, token, at, run);
    default:
      return { stop: true };
  }
}

function jumpBack(engine: Engine, target: string): Step {
  const at = engine.completedApprovals.lastIndexOf(target);
  if (at >= 0) engine.completedApprovals = engine.completedApprovals.slice(0, at);
  return { jump: target };
}

async function onReject(engine: Engine, token: Token, node: DslNode, run: NodeRun): Promise<Step> {
  const cfg = config(node);
  const strategy = cfg.reject?.strategy ?? 'terminate';
  let target: string | null = null;
  if (strategy === 'toPrev') target = previousApprovalNode(engine.doc, node.id, engine.completedApprovals)?.id ?? null;
  else if (strategy === 'toNode') target = cfg.reject?.target ?? null;
  else if (strategy === 'toStarter') {
    const first = engine.doc.metadata.nodes[engine.doc.metadata.firstNodeIndex ?? 0];
    // A userTask first gets fresh tasks; any other first node waits for the initiator to resubmit.
    if (first.type === 'userTask') target = first.id === node.id ? null : first.id;
    else return resubmit(engine, token, first, run);
  }
  if (target) {
    engine.trail('system', {
      activityId: node.id,
      ...said('reject.backTo', { target, strategy }),
      detail: { rule: `reject: ${strategy}`, target },
    });
    return jumpBack(engine, target);
  }
  if (hasEdge(engine, node.id, 'Reject')) return { follow: 'Reject' };
  if (strategy !== 'terminate' && hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
  engine.end(
    'rejected',
    ending('end.rejected', { nodeId: node.id, nodeName: node.name ?? null, comment: run.comment || null }),
  );
  throw new Halt();
}

// ---------- simple nodes ----------

function ccTask(engine: Engine, node: DslNode): Step {
  const cfg = (node.configuration ?? {}) as { ccUserIds?: string[]; selfSelect?: boolean };
  let users = cfg.ccUserIds ?? [];
  if (cfg.selfSelect) {
    const picked = engine.variables[`ccUserIds_${node.id}`];
    users = Array.isArray(picked)
      ? picked.map(String)
      : typeof picked === 'string'
        ? picked
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
        : [];
  }
  users = [...new Set(users)];
  for (const userId of users) engine.cc(node.id, userId);
  engine.trail('cc', { activityId: node.id, detail: { userIds: users } });
  return { follow: 'Success' };
}

type Case = { case: string; then: string };

function conditionError(engine: Engine, node: DslNode, err: unknown): Step | null {
  engine.variables.__lastError = undefined;
  const message = err instanceof Error ? err.message : String(err);
  engine.trail('system', { activityId: node.id, ...said('condition.error', { message }) });
  return hasEdge(engine, node.id, 'Failure') ? { follow: 'Failure' } : null;
}

async function switchNode(engine: Engine, node: DslNode): Promise<Step> {
  const cases = ((node.configuration ?? {}) as { cases?: Case[] }).cases ?? [];
  try {
    for (const c of cases) if (evaluateCondition(c.case, templateContext(engine))) return { follow: c.then };
  } catch (err) {
    const step = conditionError(engine, node, err);
    if (step) return step;
    throw new NodeFailure(`condition failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (hasEdge(engine, node.id, 'Default')) return { follow: 'Default' };
  if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
  throw new NodeFailure('no case matched and there is no Default connection');
}

function openRegion(engine: Engine, node: DslNode, branches: number): Region {
  const region: Region = {
    id: engine.newId(),
    forkId: node.id,
    joinId: matchingJoin(engine.doc, node.id)?.id ?? null,
    expected: branches,
    arrived: [],
    fired: false,
  };
  engine.regions[region.id] = region;
  return region;
}

async function inclusive(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  const cases = ((node.configuration ?? {}) as { cases?: Case[] }).cases ?? [];
  let taken: string[];
  try {
    taken = [...new Set(cases.filter((c) => evaluateCondition(c.case, templateContext(engine))).map((c) => c.then))];
  } catch (err) {
    const step = conditionError(engine, node, err);
    if (step) return step;
    throw new NodeFailure(`condition failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (taken.length === 0) {
    if (hasEdge(engine, node.id, 'Default')) taken = ['Default'];
    else if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
    else throw new NodeFailure('no case matched and there is no Default connection');
  }
  const targets = taken.flatMap((rel) => edges(engine, node.id, rel));
  return branch(engine, token, node, targets);
}

function fork(engine: Engine, token: Token, node: DslNode): Step {
  const targets = engine.doc.metadata.connections.filter((c) => c.fromId === node.id).map((c) => c.toId);
  return branch(engine, token, node, targets);
}

function branch(engine: Engine, token: Token, node: DslNode, targets: string[]): Step {
  const region = openRegion(engine, node, targets.length);
  engine.trail('system', {
    activityId: node.id,
    ...said('fork.branches', { branches: targets }),
    detail: { branches: targets },
  });
  for (const target of targets) spawn(engine, target, region.id);
  void token;
  return { stop: true };
}

async function join(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  const region = token.regionId ? engine.regions[token.regionId] : undefined;
  if (!region || region.fired) return region ? { stop: true } : { follow: 'Success' };
  region.arrived.push(token.id);
  engine.touch();
  const leave = (): Step => {
    region.fired = true;
    token.regionId = null;
    delete engine.regions[region.id];
    return { follow: 'Success' };
  };
  if (region.arrived.length >= region.expected) return leave();
  const timeoutSec = Number(((node.configuration ?? {}) as { timeout?: number }).timeout ?? 0);
  if (region.arrived.length > 1 || !(timeoutSec > 0)) return { stop: true };
  // The first arrival keeps the join's timer.
  token.wakeAt = new Date(Date.parse(engine.now()) + timeoutSec * 1000).toISOString();
  return joinWait(engine, token, node, region);
}

async function joinWait(engine: Engine, token: Token, node: DslNode, region: Region): Promise<Step> {
  const timeoutSec = Number(((node.configuration ?? {}) as { timeout?: number }).timeout ?? 0);
  token.parked = true;
  engine.touch();
  const all = await engine.paths.park(
    () => region.fired || region.arrived.length >= region.expected,
    Math.max(0, Date.parse(token.wakeAt!) - Date.parse(engine.now())),
    `join timeout at ${nodeName(node)} (${timeoutSec}s)`,
  );
  token.parked = false;
  token.wakeAt = null;
  if (all || region.fired) return { stop: true };
  // Timed out: the other branches are abandoned and the flow takes Failure.
  region.fired = true;
  for (const other of Object.values(engine.tokens)) {
    if (other.regionId !== region.id || other.id === token.id) continue;
    for (const run of Object.values(engine.runs))
      if (run.tokenId === other.id && !run.outcome) {
        engine.cancelRun(run);
        run.outcome = 'cancelled';
      }
    other.regionId = null;
    other.abandoned = true;
  }
  token.regionId = null;
  delete engine.regions[region.id];
  engine.trail('system', {
    activityId: node.id,
    ...said('join.timedOut', { seconds: timeoutSec }),
    detail: { rule: 'join timeout' },
  });
  if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
  throw new NodeFailure(`join timed out after ${timeoutSec}s and there is no Failure connection`);
}

// ---------- continue-as-new ----------

const resumable = new Set(['userTask', 'startTask', 'delay', 'join']);

/** Whether every path waits somewhere a new run can pick it up (not in an activity or child). */
export function canCarry(engine: Engine): boolean {
  return Object.values(engine.tokens).every((t) => t.parked && (t.failed || resumable.has(engine.node(t.nodeId).type)));
}

/** Restarts the paths and due-date timers of a carried instance. */
export function resumeAll(engine: Engine) {
  for (const task of Object.values(engine.tasks)) {
    const run = engine.runs[task.runId];
    if (run && !run.outcome && engine.isOpen(task) && task.dueDate && task.kind === 'approval')
      watchDue(engine, run, task, config(engine.node(run.nodeId)));
  }
  for (const token of Object.values(engine.tokens)) {
    engine.paths.hold();
    void runPath(engine, token, () => resumeStep(engine, token));
  }
}

async function resumeStep(engine: Engine, token: Token): Promise<Step> {
  const node = engine.node(token.nodeId);
  if (token.failed) {
    await waitForRedrive(engine, token);
    return { jump: token.nodeId }; // a migration may have moved the failed path
  }
  const run = Object.values(engine.runs).find((r) => r.tokenId === token.id && !r.outcome && r.nodeId === node.id);
  if (node.type === 'userTask' && run) return awaitRun(engine, token, node, run);
  if (node.type === 'startTask' && run) return resubmitWait(engine, token, node, run, engine.tasks[run.taskIds[0]]);
  if (node.type === 'delay' && run) return delayWait(engine, token, run, engine.tasks[run.taskIds[0]]);
  if (node.type === 'join' && token.regionId && engine.regions[token.regionId])
    return joinWait(engine, token, node, engine.regions[token.regionId]);
  return { jump: node.id };
}
