// userTask: resolve approvers, create ballots, apply decisions by approve mode and threshold.
import { condition } from '@temporalio/workflow';
import { autoApproveRepeated } from './features.js';
import type { DslNode } from '../../dsl/index.js';
import { resolveTemplateValue } from '../../dsl/templates.js';
import { walk } from '../../dsl/graph.js';
import type { ApproverInput } from '../../activities/approvers.js';
import { aheadKey, approversAheadOrInFlight, type AheadInput } from './approvers-ahead.js';
import { type Engine, emptyCandidates, type ApproveMode, type NodeRun } from './engine.js';
import { local } from './activities.js';
import { nodeName, shortTime } from './details.js';
import { said } from '../../dsl/history.js';
import type { AssignWhy, Candidates, ResolvedApprovers, TaskKind, TaskResult, TaskState } from './types.js';

export interface UserTaskConfig {
  approver?: {
    type: string;
    userIds?: string[];
    roleIds?: string[];
    deptIds?: string[];
    levels?: number;
    expression?: string;
  };
  approveMode?: ApproveMode;
  voteRule?: { type: 'majority' | 'percent' | 'count'; value?: number };
  sequential?: boolean;
  selfApproval?: 'none' | 'skip' | 'autoApprove' | 'delegateToManager' | 'delegateToDeptManager';
  emptyApproverPolicy?: 'tenant_admin' | 'auto_approve' | 'park';
  timeout?: { dueInMinutes?: number; action?: 'remind' | 'autoApprove' | 'autoReject' };
  dueDate?: string;
  reject?: { strategy?: 'terminate' | 'toStarter' | 'toPrev' | 'toNode'; target?: string | null };
  taskName?: string;
  kind?: 'approval' | 'handle';
}

export const config = (node: DslNode): UserTaskConfig => (node.configuration ?? {}) as UserTaskConfig;

type Approver = NonNullable<UserTaskConfig['approver']>;

/** The ids an approver rule names: its users, roles or departments; the initiator for manager rules. */
function ruleIds(approver: Approver, initiatorId: string): string[] {
  switch (approver.type) {
    case 'role':
      return approver.roleIds ?? [];
    case 'dept':
      return approver.deptIds ?? [];
    case 'user':
    case 'initiatorSelect':
      return approver.userIds ?? [];
    default:
      return [initiatorId];
  }
}

/** The rule and its ids as one name, e.g. `role:finance-director` (fallback_from). */
export const ruleName = (approver: Approver, initiatorId: string) =>
  `${approver.type}:${ruleIds(approver, initiatorId).join(',')}`;

export function assignWhy(kind: string, fields: Partial<AssignWhy> = {}): AssignWhy {
  return { kind, ids: [], count: null, level: null, by: null, rule: null, policy: null, reason: null, ...fields };
}

/** Why the rule chose this person (a substitute says whom it stands in for). */
function userWhy(approver: Approver, initiatorId: string, u: { reason: string; level?: number }, self: string) {
  if (u.reason.startsWith(`${self}:`)) return assignWhy('selfApproval', { by: initiatorId, rule: self });
  const level = u.level ?? Number(/level (\d+)/.exec(u.reason)?.[1] ?? NaN);
  return assignWhy(approver.type, {
    ids: ruleIds(approver, initiatorId),
    count: approver.type === 'user' || approver.type === 'initiatorSelect' ? (approver.userIds ?? []).length : null,
    level: Number.isFinite(level) ? level : null,
  });
}

export function templateContext(engine: Engine) {
  return {
    msg: engine.variables,
    metadata: {
      instance_id: engine.info.id,
      process_key: engine.info.processKey,
      business_key: engine.info.businessKey,
      owner: engine.info.initiatorId,
      tenant_id: engine.info.tenantId,
    },
  };
}

/** Approvals needed for the node to pass. */
export function thresholdFor(mode: ApproveMode, n: number, rule?: UserTaskConfig['voteRule']): number {
  switch (mode) {
    case 'any':
    case 'single':
      return 1;
    case 'all':
    case 'sequential':
      return n;
    case 'vote': {
      const type = rule?.type ?? 'majority';
      if (type === 'percent') return Math.max(1, Math.ceil((n * (rule?.value ?? 50)) / 100));
      if (type === 'count') return Math.min(n, Math.max(1, rule?.value ?? 1));
      return Math.floor(n / 2) + 1;
    }
  }
}

export function dueDateFor(engine: Engine, cfg: UserTaskConfig): string | null {
  if (cfg.timeout?.dueInMinutes && cfg.timeout.dueInMinutes > 0) {
    return new Date(Date.parse(engine.now()) + cfg.timeout.dueInMinutes * 60_000).toISOString();
  }
  return cfg.dueDate ?? null;
}

function initiatorSelection(engine: Engine, expression: string | undefined): string[] {
  if (!expression) return [];
  const value = resolveTemplateValue(expression, templateContext(engine));
  if (Array.isArray(value)) return value.map(String).filter(Boolean);
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}

/** What a userTask's approver rule asks the directory, with the variables of this moment. */
export function approverInput(engine: Engine, node: DslNode): ApproverInput {
  const approver = { ...(config(node).approver ?? { type: 'user' }) };
  if (approver.type === 'initiatorSelect') approver.userIds = initiatorSelection(engine, approver.expression);
  return { tenantId: engine.info.tenantId, initiatorId: engine.info.initiatorId, approver };
}

/** At most this many nodes per projection (a wide fork looks the rest up when they start). */
const MAX_AHEAD = 4;

/**
 * The look-up inputs of the userTasks reachable from the nodes whose tasks a snapshot opened,
 * through anything but another userTask (approvers-ahead.ts).
 */
export function inputsAhead(engine: Engine, openedNodes: string[]): ApproverInput[] {
  if (!openedNodes.length) return [];
  const isUserTask = (id: string) => engine.node(id).type === 'userTask';
  const ahead = walk(engine.doc, openedNodes, 'forward', undefined, (id) => !isUserTask(id)).filter(isUserTask);
  return ahead.slice(0, MAX_AHEAD).map((id) => approverInput(engine, engine.node(id)));
}

/**
 * The look-up inputs ahead of every node with an open task: kept on the instance row, so the
 * server resolves them with the next decision and sends them with its Update (docs/engine.md
 * "Approvers ahead of a decision").
 */
export function inputsAheadOfOpen(engine: Engine): AheadInput[] {
  return inputsAhead(engine, [...new Set(engine.openTasks().map((t) => t.activityId))]).map((input) => ({
    key: aheadKey(input),
    input,
  }));
}

/** The look-up inputs of the userTasks a new instance may open first (looked up by whoever starts it). */
export function inputsAtStart(engine: Engine): ApproverInput[] {
  const first = engine.doc.metadata.nodes[engine.doc.metadata.firstNodeIndex ?? 0];
  return first.type === 'userTask' ? [approverInput(engine, first)] : inputsAhead(engine, [first.id]);
}

/** A person a userTask's rule gives a ballot to; `auto` when the ballot decides itself. */
export interface Ballot {
  userId: string;
  reason: string;
  level?: number;
  auto: AutoApproval | null;
}

/**
 * Whom a userTask's tasks go to, from its look-up: a claim pool of the rule's members, a pool of
 * several people of which the first to claim decides, one ballot per person, or nobody (the
 * emptyApproverPolicy decides). Pure: the server's prediction and simulation share it
 * (src/services/prediction.ts).
 */
export type Assignment =
  | { to: 'pool'; candidates: Candidates; members: string[]; reason: string; why: AssignWhy }
  | { to: 'claim'; candidates: Candidates; users: Ballot[]; why: AssignWhy }
  | { to: 'users'; users: Ballot[] }
  | { to: 'nobody'; problem: string };

export function assignmentOf(cfg: UserTaskConfig, input: ApproverInput, resolved: ResolvedApprovers): Assignment {
  const { approver, initiatorId: initiator } = input;
  // Pools: role and department approvers give one pending task; members claim it.
  if (resolved.pool) {
    if (resolved.poolSize > 0)
      return {
        to: 'pool',
        candidates: resolved.pool,
        members: resolved.poolMembers,
        reason: resolved.poolReason ?? 'candidate pool',
        why: assignWhy(approver.type, { ids: ruleIds(approver, initiator), count: resolved.poolSize }),
      };
    return {
      to: 'nobody',
      problem: `${approver.type === 'role' ? 'role' : 'department'} ${ruleIds(approver, initiator).join(', ')} has no active members`,
    };
  }

  // Self-approval rules when the initiator is among the approvers.
  let users: Ballot[] = resolved.users.map((u) => ({ ...u, auto: null }));
  const self = cfg.selfApproval ?? 'none';
  if (users.some((u) => u.userId === initiator) && self !== 'none') {
    if (self === 'skip') users = users.filter((u) => u.userId !== initiator);
    else if (self === 'autoApprove')
      users = users.map((u) => (u.userId === initiator ? { ...u, auto: SELF_APPROVAL } : u));
    else {
      const substitute = self === 'delegateToManager' ? resolved.managers[initiator] : resolved.deptLeaders[initiator];
      users = users.flatMap((u) => {
        if (u.userId !== initiator) return [u];
        if (!substitute || substitute === initiator) return [];
        return [{ userId: substitute, reason: `${self}: stands in for the initiator ${initiator}`, auto: null }];
      });
    }
  }
  // The same person once.
  users = users.filter((u, i) => users.findIndex((v) => v.userId === u.userId) === i);
  if (users.length === 0) return { to: 'nobody', problem: resolved.problem ?? 'no approver resolved' };

  // Single mode with several people: a pool of them, first to claim decides.
  if ((cfg.approveMode ?? 'single') === 'single' && users.length > 1) {
    const candidates = { ...emptyCandidates(), userIds: users.map((u) => u.userId) };
    return {
      to: 'claim',
      candidates,
      users,
      why: assignWhy(approver.type, {
        ids: candidates.userIds,
        count: users.length,
        level: approver.type === 'manager' ? (users[0].level ?? null) : null,
        reason: 'first to claim decides',
      }),
    };
  }
  return { to: 'users', users };
}

/** Why the rule gave this ballot (what its `assign` trail entry records). */
export const ballotWhy = (cfg: UserTaskConfig, input: ApproverInput, u: Ballot) =>
  userWhy(input.approver, input.initiatorId, u, cfg.selfApproval ?? 'none');

/** Creates the tasks of a userTask activation. The returned run is decided by `decide`. */
export async function startUserTask(engine: Engine, tokenId: string, node: DslNode): Promise<NodeRun> {
  const cfg = config(node);
  const kind: TaskKind = cfg.kind === 'handle' ? 'handle' : 'approval';
  const input = approverInput(engine, node);
  const resolved =
    (await approversAheadOrInFlight(engine, input)) ??
    (await local.resolveApprovers.executeWithOptions({ summary: `resolve approvers for ${nodeName(node)}` }, [input]));

  const mode: ApproveMode = cfg.approveMode ?? 'single';
  const run = engine.newRun(node.id, tokenId, {
    mode,
    oneAtATime: mode === 'sequential' || (mode === 'vote' && cfg.sequential === true),
    previousRunId: engine.tokens[tokenId]?.lastApprovedRun ?? null,
  });
  const name = cfg.taskName || node.name || node.id;
  const dueDate = dueDateFor(engine, cfg);
  const base = { activityId: node.id, name, kind, runId: run.id };
  const assignment = assignmentOf(cfg, input, resolved);

  if (assignment.to === 'pool') {
    const task = engine.createTask({ ...base, status: 'pending', candidates: assignment.candidates, dueDate });
    run.taskIds.push(task.id);
    engine.trail('assign', {
      activityId: node.id,
      taskId: task.id,
      detail: { reason: assignment.reason, candidates: assignment.candidates, why: assignment.why },
    });
    for (const userId of assignment.members)
      engine.notify(userId, 'task_claimable', task.id, { activityId: node.id, name });
    watchDue(engine, run, task, cfg);
    return run;
  }
  // Nobody to ask: the emptyApproverPolicy decides what happens.
  if (assignment.to === 'nobody')
    return applyEmptyPolicy(engine, run, node, cfg, resolved, assignment.problem, base, dueDate);

  if (assignment.to === 'claim') {
    const task = engine.createTask({ ...base, status: 'pending', candidates: assignment.candidates, dueDate });
    run.taskIds.push(task.id);
    engine.trail('assign', {
      activityId: node.id,
      taskId: task.id,
      detail: {
        reason: 'single approval among several people: first to claim decides',
        approvers: assignment.users,
        why: assignment.why,
      },
    });
    watchDue(engine, run, task, cfg);
    return run;
  }

  // autoApproveRepeated: who approved before is approved again here automatically, per person.
  let users = assignment.users;
  const repeat = repeatSetting(engine);
  if (repeat !== 'none' && kind === 'approval' && autoApproveRepeated()) {
    users = users.map((u) => {
      const before = u.auto ? undefined : approvedBefore(engine, run, u.userId, repeat);
      return before ? { ...u, auto: repeatApproval(repeat, before) } : u;
    });
  }

  run.threshold = thresholdFor(mode, users.length, cfg.voteRule);
  if (users.length > 1) {
    const parent = engine.createTask({ ...base, status: 'waiting' });
    run.parentTaskId = parent.id;
  }
  users.forEach((u, i) => {
    const active = !run.oneAtATime || i === 0 || u.auto;
    const task = engine.createTask({
      ...base,
      status: active ? 'active' : 'waiting',
      assignee: u.userId,
      parentTaskId: run.parentTaskId,
      dueDate: active ? dueDate : null,
    });
    run.taskIds.push(task.id);
    engine.trail('assign', {
      activityId: node.id,
      taskId: task.id,
      userId: u.userId,
      detail: { reason: u.reason, why: ballotWhy(cfg, input, u) },
    });
    if (u.auto) {
      if (u.auto.repeat) task.repeatApproved = true;
      engine.closeTask(task, 'auto_approved', u.auto.said.comment);
      engine.trail('auto_approve', {
        activityId: node.id,
        taskId: task.id,
        userId: u.userId,
        ...u.auto.said,
        detail: u.auto.detail,
      });
    } else if (active) watchDue(engine, run, task, cfg);
  });
  evaluate(engine, run, null);
  return run;
}

interface AutoApproval {
  said: ReturnType<typeof said>;
  detail: Record<string, unknown>;
  repeat?: boolean;
}

const SELF_APPROVAL: AutoApproval = {
  said: said('autoApprove.selfApproval', {}),
  detail: { rule: 'selfApproval: autoApprove' },
};

export type RepeatSetting = 'none' | 'adjacent' | 'all';

export function repeatSetting(engine: Engine): RepeatSetting {
  const value = engine.doc.ruleChain.additionalInfo?.autoApproveRepeated;
  return value === 'adjacent' || value === 'all' ? value : 'none';
}

/**
 * An approval `userId` gave before that makes this ballot automatic: `adjacent` — at the run the
 * path left approved just before this one; `all` — at any node of this instance that still
 * stands approved (a rejection or return back past it undoes it). Automatic repeats count too.
 */
function approvedBefore(engine: Engine, run: NodeRun, userId: string, setting: RepeatSetting): TaskState | undefined {
  const approvedBy = (t: TaskState) =>
    t.assignee === userId &&
    !t.removed &&
    t.kind === 'approval' &&
    (t.result === 'approved' || (t.result === 'auto_approved' && t.repeatApproved === true));
  const passed = (r: NodeRun | undefined) => r && (r.outcome === 'approved' || r.outcome === 'completed');
  if (setting === 'adjacent') {
    const previous = run.previousRunId ? engine.runs[run.previousRunId] : undefined;
    if (!passed(previous)) return undefined;
    return Object.values(engine.tasks).find((t) => t.runId === previous!.id && approvedBy(t));
  }
  const standing = new Set(engine.completedApprovals);
  return Object.values(engine.tasks).find(
    (t) => t.runId !== run.id && approvedBy(t) && passed(engine.runs[t.runId]) && standing.has(t.activityId),
  );
}

function repeatApproval(setting: RepeatSetting, before: TaskState): AutoApproval {
  return {
    said: said('autoApprove.repeated', { nodeId: before.activityId, nodeName: before.name, setting }),
    detail: { rule: `autoApproveRepeated: ${setting}`, approvedAt: before.activityId, approvedTask: before.id },
    repeat: true,
  };
}

/**
 * What the emptyApproverPolicy does when a rule finds nobody: the policy that applies (tenant_admin
 * without another admin parks), the admins it would ask, a parked pool's roles and departments,
 * and the reason recorded. Pure: the prediction shares it.
 */
export function fallbackOf(
  cfg: UserTaskConfig,
  initiatorId: string,
  resolved: { admins: string[]; pool: Candidates | null },
  problem: string,
) {
  let policy = cfg.emptyApproverPolicy ?? 'tenant_admin';
  const admins = resolved.admins.filter((a) => a !== initiatorId);
  if (policy === 'tenant_admin' && admins.length === 0) policy = 'park';
  const from = ruleName(cfg.approver ?? { type: 'user' }, initiatorId);
  // A parked pool lists the roles/departments it waits for: once the directory has members, they may claim.
  const parked = resolved.pool
    ? { ...emptyCandidates(), roleIds: resolved.pool.roleIds, deptIds: resolved.pool.deptIds }
    : emptyCandidates();
  const why = assignWhy('fallback', { policy, rule: from, reason: problem });
  return {
    policy,
    admins,
    parked,
    fields: { fallback_policy: policy, fallback_from: from, fallback_reason: problem },
    why:
      policy === 'tenant_admin'
        ? { ...why, ids: admins, count: admins.length }
        : policy === 'park'
          ? { ...why, ids: [...parked.roleIds, ...parked.deptIds] }
          : why,
  };
}

function applyEmptyPolicy(
  engine: Engine,
  run: NodeRun,
  node: DslNode,
  cfg: UserTaskConfig,
  resolved: { admins: string[]; pool: Candidates | null },
  why: string,
  base: { activityId: string; name: string; kind: TaskKind; runId: string },
  dueDate: string | null,
): NodeRun {
  const {
    policy,
    admins,
    parked: candidates,
    fields: fallback,
    why: fallbackWhy,
  } = fallbackOf(cfg, engine.info.initiatorId, resolved, why);
  if (policy === 'auto_approve') {
    const task = engine.createTask({ ...base, status: 'active', variables: fallback });
    run.taskIds.push(task.id);
    const words = said('autoApprove.noApprover', { problem: why });
    engine.closeTask(task, 'auto_approved', words.comment);
    engine.trail('auto_approve', {
      activityId: node.id,
      taskId: task.id,
      ...words,
      detail: { rule: 'emptyApproverPolicy: auto_approve', ...fallback },
    });
    run.outcome = 'approved';
    return run;
  }
  if (policy === 'tenant_admin') {
    const single = admins.length === 1;
    const task = engine.createTask({
      ...base,
      status: single ? 'active' : 'pending',
      assignee: single ? admins[0] : null,
      candidates: single ? emptyCandidates() : { ...emptyCandidates(), userIds: admins },
      variables: fallback,
      dueDate,
    });
    run.taskIds.push(task.id);
    engine.trail('assign', {
      activityId: node.id,
      taskId: task.id,
      userId: single ? admins[0] : null,
      detail: { reason: `emptyApproverPolicy tenant_admin: ${why}`, ...fallback, why: fallbackWhy },
    });
    watchDue(engine, run, task, cfg);
    return run;
  }
  const task = engine.createTask({ ...base, status: 'pending', candidates, variables: fallback, dueDate });
  run.taskIds.push(task.id);
  engine.trail('assign', {
    activityId: node.id,
    taskId: task.id,
    detail: {
      reason: `emptyApproverPolicy park: ${why}; waits for an admin to add candidates or reassign`,
      ...fallback,
      candidates,
      why: fallbackWhy,
    },
  });
  return run;
}

/** Records one ballot and decides the node when its outcome is known. */
export function decide(
  engine: Engine,
  task: TaskState,
  result: TaskResult,
  actorId: string | null,
  comment: string | null,
  /** The trail entry's user when it is not the ballot's owner (a decision on behalf), and its detail. */
  trail?: { userId?: string; detail?: Record<string, unknown> },
) {
  const run = engine.runs[task.runId];
  engine.closeTask(task, result, comment);
  const type =
    result === 'approved' ? 'approve' : result === 'rejected' ? 'reject' : result === 'completed' ? 'complete' : result;
  engine.trail(type, {
    activityId: task.activityId,
    taskId: task.id,
    userId: trail?.userId ?? actorId,
    comment,
    ...(trail?.detail ? { detail: trail.detail } : {}),
  });
  if (run) evaluate(engine, run, actorId);
}

const approvedResults: Array<TaskResult | null> = ['approved', 'auto_approved', 'completed'];
const rejectedResults: Array<TaskResult | null> = ['rejected', 'auto_rejected'];

/** The add-sign sub-tasks of a task (removed ones only when asked). */
export function addedSigners(engine: Engine, taskId: string, withRemoved = false): TaskState[] {
  return Object.values(engine.tasks).filter(
    (t) => t.parentTaskId === taskId && t.position && (withRemoved || !t.removed),
  );
}

export type BallotState = 'approved' | 'rejected' | 'open' | 'void';

/** A ballot together with its added signers: approved once they all approved too. */
export function ballotState(engine: Engine, task: TaskState): BallotState {
  if (task.removed) return 'void';
  const signers = addedSigners(engine, task.id).map((s) => ballotState(engine, s));
  if (rejectedResults.includes(task.result) || signers.includes('rejected')) return 'rejected';
  if (engine.isOpen(task)) return 'open';
  if (!approvedResults.includes(task.result)) return 'void';
  return signers.includes('open') ? 'open' : 'approved';
}

/** Add-sign turns: `before` signers done → the original approver's turn; original approved → `after` signers' turn. */
function advanceAddSigns(engine: Engine, run: NodeRun) {
  for (const task of Object.values(engine.tasks)) {
    if (task.runId !== run.id) continue;
    const signers = addedSigners(engine, task.id, true);
    if (!signers.length) continue;
    if (engine.isOpen(task)) {
      const before = signers.filter((s) => s.position === 'before');
      if (
        task.status === 'waiting' &&
        before.length &&
        !before.some((s) => engine.isOpen(s) || rejectedResults.includes(s.result))
      )
        engine.setStatus(task, 'active');
    } else if (approvedResults.includes(task.result)) {
      const cfg = config(engine.node(run.nodeId));
      for (const s of signers) {
        if (s.position !== 'after' || s.status !== 'waiting') continue;
        s.dueDate = dueDateFor(engine, cfg);
        engine.setStatus(s, 'active');
        watchDue(engine, run, s, cfg);
      }
    } else for (const s of signers) engine.closeTask(s, 'cancelled');
  }
}

/** Applies the approve mode: opens the next sequential ballot, or decides the run. */
export function evaluate(engine: Engine, run: NodeRun, actorId: string | null) {
  if (run.outcome) return;
  advanceAddSigns(engine, run);
  const ballots = engine.tasksOfRun(run).filter((t) => !t.removed);
  const states = ballots.map((t) => ballotState(engine, t));
  const approvals = states.filter((s) => s === 'approved').length;
  const rejections = states.filter((s) => s === 'rejected').length;
  const open = states.filter((s) => s === 'open').length;
  // A rejection by an added signer is the node's rejection, whatever the approve mode.
  const signerRejected = Object.values(engine.tasks).some(
    (t) => t.runId === run.id && t.position && !t.removed && rejectedResults.includes(t.result),
  );
  let outcome: 'approved' | 'rejected' | null = null;
  if (signerRejected) outcome = 'rejected';
  else if (run.mode === 'vote') {
    if (approvals >= run.threshold) outcome = 'approved';
    else if (approvals + open < run.threshold) outcome = 'rejected';
  } else if (rejections > 0) outcome = 'rejected';
  else if (run.mode === 'any' || run.mode === 'single') outcome = approvals > 0 ? 'approved' : null;
  else if (open === 0 && approvals >= Math.max(1, run.threshold)) outcome = 'approved';

  if (!outcome) {
    // A ballot not started yet: waiting for its turn, with no added signers of its own.
    const notStarted = (t: TaskState) =>
      (t.status === 'waiting' || (t.status === 'suspended' && t.suspendedFrom === 'waiting')) &&
      addedSigners(engine, t.id, true).length === 0;
    if (run.oneAtATime && !ballots.some((t, i) => states[i] === 'open' && !notStarted(t))) {
      const next = ballots.find(notStarted);
      if (next && next.status === 'waiting') {
        const cfg = config(engine.node(run.nodeId));
        next.dueDate = dueDateFor(engine, cfg);
        engine.setStatus(next, 'active');
        watchDue(engine, run, next, cfg);
      }
    }
    return;
  }
  run.outcome = outcome;
  run.decidedBy = actorId;
  run.closedByOutcome = [];
  for (const t of Object.values(engine.tasks))
    if (t.runId === run.id && t.id !== run.parentTaskId && engine.isOpen(t)) {
      run.closedByOutcome.push({ id: t.id, status: t.status });
      engine.closeTask(t, 'cancelled');
    }
  if (run.parentTaskId)
    engine.closeTask(engine.tasks[run.parentTaskId], outcome === 'approved' ? 'approved' : 'rejected');
}

/** A durable timer per task with a due date: remind, or decide for the approver. */
export function watchDue(engine: Engine, run: NodeRun, task: TaskState, cfg: UserTaskConfig) {
  if (!task.dueDate) return;
  const action = cfg.timeout?.action ?? 'remind';
  void (async () => {
    const ms = Math.max(0, Date.parse(task.dueDate!) - Date.parse(engine.now()));
    const whom = task.assignee ?? (task.candidates.userIds.join(', ') || 'the pool');
    const what =
      action === 'remind'
        ? `remind ${whom}`
        : action === 'autoApprove'
          ? `auto-approve for ${whom}`
          : `auto-reject for ${whom}`;
    const summary = `${what} at ${task.name} (due ${shortTime(task.dueDate)})`;
    const closed = await condition(() => engine.ended || !engine.isOpen(task) || run.outcome !== null, ms, { summary });
    if (closed) return;
    // Suspended instances are left out of overdue handling until they are active again.
    await condition(() => engine.ended || !engine.isOpen(task) || engine.status === 'active');
    if (engine.ended || !engine.isOpen(task) || run.outcome !== null) return;
    if (action === 'remind' || task.status !== 'active') {
      const who = task.assignee ? [task.assignee] : task.candidates.userIds;
      for (const userId of who)
        engine.notify(userId, 'task_overdue', task.id, {
          activityId: task.activityId,
          name: task.name,
          dueDate: task.dueDate,
        });
      engine.trail('system', {
        activityId: task.activityId,
        taskId: task.id,
        ...said('task.overdue', {}),
        detail: { rule: 'timeout: remind', dueDate: task.dueDate },
      });
      return;
    }
    const approved = action === 'autoApprove';
    const words = said(approved ? 'autoApprove.timeout' : 'autoReject.timeout', {});
    engine.closeTask(task, approved ? 'auto_approved' : 'auto_rejected', words.comment);
    engine.trail(approved ? 'auto_approve' : 'auto_reject', {
      activityId: task.activityId,
      taskId: task.id,
      userId: task.assignee,
      ...words,
      detail: { rule: `timeout: ${action}` },
    });
    evaluate(engine, run, null);
  })();
}
