// The approver's toolbox beyond approve/reject: claim, return, transfer, delegate, add- and
// reduce-sign, withdraw, urge, suspend/activate, reassign, candidates and task variables.
// Each validator refuses before anything is written; each handler records its trail entry,
// notifies the people concerned and answers once the instance is settled (DESIGN.md §4.4).
import { ApplicationFailure } from '@temporalio/workflow';
import type { ErrorCode } from '../../src/errors.js';
import { previousApprovalNode } from '../../src/dsl/index.js';
import * as m from '../messages.js';
import { Engine, type NodeRun } from './engine.js';
import { onUpdate } from './handlers.js';
import { fault, findTask, requireActionable, requireRunning, requireSwitch, settle } from './actions.js';
import { ballotState, config, dueDateFor, evaluate, thresholdFor, watchDue } from './user-task.js';
import type { ActionResult, Candidates, TaskState } from './types.js';

const URGE_INTERVAL_MS = 10 * 60_000;

/** A refusal that carries data for the client (the envelope's `data`). */
function refuse(type: ErrorCode, message: string, data: Record<string, unknown>): never {
  throw ApplicationFailure.create({ type, message, details: [data], nonRetryable: true });
}

const trailOf = (task: TaskState, actor: m.Actor, comment?: string | null, detail?: Record<string, unknown>) => ({
  activityId: task.activityId,
  taskId: task.id,
  userId: actor.userId,
  comment: comment ?? null,
  detail: detail ?? null,
});

/** The assignee's own task: actionable, and not handed to a delegatee. */
function requireOwnTask(engine: Engine, input: m.TaskActionInput): TaskState {
  const task = requireActionable(engine, input);
  if (task.owner) fault('INVALID_STATE', `The task is delegated by ${task.owner}: the delegatee approves, rejects or resolves it`);
  return task;
}

/** An open, unsuspended task of a running instance (whoever holds it). */
function requireLive(engine: Engine, input: m.TaskActionInput): TaskState {
  requireRunning(engine);
  const task = findTask(engine, input.taskId);
  if (!engine.isOpen(task)) fault('INVALID_STATE', `The task is ${task.status}${task.result ? ` (${task.result})` : ''}`);
  if (task.status === 'suspended') fault('INVALID_STATE', 'The task is suspended');
  return task;
}

const isCandidate = (c: Candidates, actor: m.Actor) =>
  c.userIds.includes(actor.userId) || c.roleIds.some((r) => actor.roles.includes(r)) || (actor.deptId !== null && c.deptIds.includes(actor.deptId));

const runOf = (engine: Engine, task: TaskState): NodeRun | undefined => engine.runs[task.runId];

/** Tasks of a node activation (ballots and add-sign sub-tasks), without the multi-approver parent. */
const tasksOfActivation = (engine: Engine, run: NodeRun) => Object.values(engine.tasks).filter((t) => t.runId === run.id && t.id !== run.parentTaskId);

/** People who already hold an open task of the activation: they cannot be given another one. */
function requireNewToNode(engine: Engine, task: TaskState, userIds: string[]) {
  const run = runOf(engine, task);
  const busy = run ? tasksOfActivation(engine, run).filter((t) => engine.isOpen(t) && t.assignee && userIds.includes(t.assignee)).map((t) => t.assignee!) : [];
  if (busy.length) refuse('INVALID_TARGET', `Already an approver of this node: ${[...new Set(busy)].join(', ')}`, { userIds: [...new Set(busy)] });
}

function requireTarget(input: m.TaskActionInput, self: string): string {
  const to = input.assigneeUserId;
  if (!to) fault('VALIDATION_FAILED', 'assigneeUserId is required');
  if (to === self) fault('INVALID_TARGET', 'The task is already with this user');
  return to;
}

// ---------- return ----------

function validateReturn(engine: Engine, input: m.TaskActionInput) {
  const task = requireOwnTask(engine, input);
  if (task.kind !== 'approval' && task.kind !== 'handle') fault('INVALID_STATE', `A ${task.kind} task cannot be returned`);
  requireSwitch(engine, task, 'return');
  const allowed = previousApprovalNode(engine.doc, task.activityId, engine.completedApprovals);
  if (!allowed) refuse('INVALID_TARGET', 'There is no completed approval node before this one to return to', { allowedTarget: null });
  if (input.targetActivityId !== allowed.id) {
    refuse('INVALID_TARGET', `The task can only be returned to ${allowed.id} (${allowed.name ?? allowed.id}), the most recently completed approval node before this one`, { allowedTarget: allowed.id });
  }
}

function applyReturn(engine: Engine, input: m.TaskActionInput) {
  const task = engine.tasks[input.taskId];
  const run = runOf(engine, task)!;
  const target = input.targetActivityId!;
  const comment = input.comment ?? input.reason ?? null;
  engine.closeTask(task, 'returned', comment);
  for (const t of tasksOfActivation(engine, run)) engine.closeTask(t, 'cancelled');
  if (run.parentTaskId) engine.closeTask(engine.tasks[run.parentTaskId], 'returned');
  run.outcome = 'returned';
  run.returnTarget = target;
  run.decidedBy = input.actor.userId;
  run.comment = comment;
  engine.trail('return', trailOf(task, input.actor, comment, { from: task.activityId, target, reason: input.reason ?? null }));
  engine.notify(engine.info.initiatorId, 'task_returned', task.id, { activityId: task.activityId, target, by: input.actor.userId });
}

// ---------- reduce-sign ----------

interface ReducePlan {
  remove: TaskState[];
  kept: string[];
}

/** Who is removed and who stays; refuses when the caller may not remove someone. Pure. */
function planReduce(engine: Engine, input: m.TaskActionInput): ReducePlan {
  requireRunning(engine);
  const task = findTask(engine, input.taskId);
  const run = runOf(engine, task);
  if (!run || run.outcome || task.kind === 'delay' || task.kind === 'resubmit') fault('INVALID_STATE', 'The node of this task is decided');
  requireSwitch(engine, task, 'reduceSign');
  const members = tasksOfActivation(engine, run);
  const actor = input.actor.userId;
  const ballots = engine.tasksOfRun(run).filter((t) => !t.removed);
  const approverOfNode = ballots.some((t) => t.assignee === actor || t.owner === actor);
  const multi = ballots.length > 1;
  const remove: TaskState[] = [];
  const kept: string[] = [];
  const strangers: string[] = [];
  for (const userId of [...new Set(input.assigneeUserIds ?? [])]) {
    const theirs = members.filter((t) => !t.removed && (t.assignee === userId || t.owner === userId));
    const open = theirs.filter((t) => engine.isOpen(t));
    if (open.length === 0) {
      if (theirs.length === 0) strangers.push(userId);
      else kept.push(userId);
      continue;
    }
    for (const t of open) {
      if (t.position) {
        if (t.addedBy !== actor) fault('NOT_ASSIGNEE', `Only the member who added ${userId} (${t.addedBy}) may remove them`);
      } else {
        if (!multi) fault('INVALID_STATE', `${userId} is the approver of this node: only added signers can be removed here`);
        if (!approverOfNode) fault('NOT_ASSIGNEE', 'Only an approver of this node may remove its approvers');
        if (userId === actor) fault('INVALID_TARGET', 'You cannot remove your own ballot');
      }
      remove.push(t);
    }
  }
  if (strangers.length) refuse('INVALID_TARGET', `Not a signer of this node: ${strangers.join(', ')}`, { userIds: strangers });
  const removedBallots = remove.filter((t) => !t.position);
  if (removedBallots.length) {
    const stillOpen = ballots.filter((t) => !removedBallots.includes(t) && ballotState(engine, t) === 'open');
    if (stillOpen.length === 0) fault('INVALID_STATE', 'Removing every open ballot would leave the node with nobody to decide');
  }
  return { remove, kept };
}

function applyReduce(engine: Engine, input: m.TaskActionInput): { removed: string[]; kept: string[] } {
  const plan = planReduce(engine, input);
  const task = engine.tasks[input.taskId];
  const run = runOf(engine, task)!;
  for (const t of plan.remove) {
    t.removed = true;
    engine.closeTask(t, 'cancelled', input.reason ?? 'Removed by reduce-sign');
    if (t.assignee) engine.notify(t.assignee, 'task_removed', t.id, { activityId: t.activityId, by: input.actor.userId });
  }
  if (plan.remove.some((t) => !t.position)) {
    const remaining = engine.tasksOfRun(run).filter((t) => !t.removed).length;
    run.threshold = thresholdFor(run.mode, remaining, config(engine.node(run.nodeId)).voteRule);
  }
  const removed = [...new Set(plan.remove.map((t) => t.assignee!))];
  engine.trail('reduce_sign', trailOf(task, input.actor, input.reason, { removed, kept: plan.kept, reason: input.reason ?? null, threshold: run.threshold }));
  evaluate(engine, run, input.actor.userId);
  return { removed, kept: plan.kept };
}

// ---------- suspension ----------

/** Initiator with the process switch `suspend`, or workflow:instance:manage. */
function requireSuspender(engine: Engine, actor: m.Actor) {
  if (actor.manage) return;
  if (actor.userId !== engine.info.initiatorId) fault('NOT_INITIATOR', 'Only the initiator or workflow:instance:manage may suspend or activate');
  requireSwitch(engine, null, 'suspend');
}

const handlersOf = (task: TaskState) => (task.assignee ? [task.assignee] : task.candidates.userIds);

function suspendInstance(engine: Engine, actor: m.Actor, reason: string | null) {
  engine.setInstanceStatus('suspended');
  for (const t of engine.openTasks()) {
    if (t.status === 'suspended') continue;
    t.suspendedFrom = t.status;
    t.status = 'suspended';
    engine.changed(t);
    for (const userId of handlersOf(t)) engine.notify(userId, 'instance_suspended', t.id, { activityId: t.activityId });
  }
  engine.trail('suspend', { userId: actor.userId, comment: reason, detail: { scope: 'instance' } });
}

function activateInstance(engine: Engine, actor: m.Actor, reason: string | null) {
  engine.setInstanceStatus('active');
  for (const t of engine.openTasks()) {
    if (t.status !== 'suspended' || t.held) continue;
    t.status = t.suspendedFrom ?? 'active';
    t.suspendedFrom = null;
    engine.changed(t);
    for (const userId of handlersOf(t)) engine.notify(userId, 'instance_activated', t.id, { activityId: t.activityId });
  }
  engine.trail('activate', { userId: actor.userId, comment: reason, detail: { scope: 'instance' } });
}

// ---------- variables ----------

function requireWritable(engine: Engine, task: TaskState, names: string[]) {
  const perms = engine.node(task.activityId).additionalInfo?.formPermissions as Record<string, string> | undefined;
  const denied = names.filter((n) => perms?.[n] === 'r' || perms?.[n] === 'h');
  if (denied.length) refuse('FIELD_NOT_WRITABLE', `Not writable at this node: ${denied.join(', ')}`, { fields: denied });
}

// ---------- registration ----------

export function registerTaskActions(engine: Engine) {
  const taskAction = (
    def: typeof m.claim,
    validate: (input: m.TaskActionInput) => void,
    apply: (input: m.TaskActionInput) => Partial<ActionResult> | void,
  ) =>
    onUpdate(
      engine,
      def,
      (input) => {
        const extra = apply(input);
        return settle(engine, input.taskId, extra ?? {});
      },
      { validator: validate },
    );

  // claim / unclaim
  taskAction(
    m.claim,
    (input) => {
      requireRunning(engine);
      const task = findTask(engine, input.taskId);
      if (task.status !== 'pending') {
        fault('INVALID_STATE', task.status === 'active' && task.assignee ? `The task is already claimed by ${task.assignee}` : `The task is ${task.status}: only a pending task can be claimed`);
      }
      if (!isCandidate(task.candidates, input.actor)) fault('NOT_ASSIGNEE', 'Only a candidate of this task may claim it');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.assignee = input.actor.userId;
      task.claimedBy = input.actor.userId;
      task.status = 'active';
      engine.changed(task);
      engine.trail('claim', trailOf(task, input.actor, input.comment));
    },
  );

  taskAction(
    m.unclaim,
    (input) => {
      requireRunning(engine);
      const task = findTask(engine, input.taskId);
      if (task.status !== 'active') fault('INVALID_STATE', `The task is ${task.status}: only a claimed (active) task can be unclaimed`);
      if (task.claimedBy !== input.actor.userId || task.assignee !== input.actor.userId) fault('NOT_ASSIGNEE', 'Only the member who claimed the task may unclaim it');
      if (task.owner) fault('INVALID_STATE', 'The task is delegated: resolve the delegation first');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.assignee = null;
      task.claimedBy = null;
      task.status = 'pending';
      engine.changed(task);
      engine.trail('unclaim', trailOf(task, input.actor, input.comment));
      for (const userId of task.candidates.userIds) if (userId !== input.actor.userId) engine.notify(userId, 'task_claimable', task.id, { activityId: task.activityId, name: task.name });
    },
  );

  // return
  taskAction(m.returnTask, (input) => validateReturn(engine, input), (input) => applyReturn(engine, input));

  // transfer / delegate / resolve
  taskAction(
    m.transfer,
    (input) => {
      const task = requireOwnTask(engine, input);
      requireSwitch(engine, task, 'transfer');
      requireNewToNode(engine, task, [requireTarget(input, input.actor.userId)]);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const from = task.assignee;
      const to = input.assigneeUserId!;
      task.assignee = to;
      task.claimedBy = null;
      engine.setStatus(task, 'active');
      engine.trail('transfer', trailOf(task, input.actor, input.reason ?? input.comment, { from, to, reason: input.reason ?? null }));
    },
  );

  taskAction(
    m.delegate,
    (input) => {
      const task = requireOwnTask(engine, input);
      requireSwitch(engine, task, 'delegate');
      requireNewToNode(engine, task, [requireTarget(input, input.actor.userId)]);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const from = task.assignee!;
      const to = input.assigneeUserId!;
      task.owner = from;
      task.assignee = to;
      engine.setStatus(task, 'active');
      engine.trail('delegate', trailOf(task, input.actor, input.reason ?? input.comment, { owner: from, to, reason: input.reason ?? null }));
    },
  );

  taskAction(
    m.resolve,
    (input) => {
      const task = requireLive(engine, input);
      if (!task.owner) fault('INVALID_STATE', 'The task is not delegated: there is nothing to resolve');
      if (input.actor.userId !== task.assignee && input.actor.userId !== task.owner) fault('NOT_ASSIGNEE', 'Only the delegatee or the owner may resolve a delegation');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const delegatee = task.assignee!;
      const owner = task.owner!;
      task.assignee = owner;
      task.owner = null;
      task.status = 'active';
      engine.changed(task);
      engine.trail('resolve', trailOf(task, input.actor, input.comment ?? input.reason, { owner, delegatee, by: input.actor.userId === owner ? 'owner' : 'delegatee' }));
      engine.notify(input.actor.userId === owner ? delegatee : owner, 'task_resolved', task.id, { activityId: task.activityId, owner, delegatee });
    },
  );

  // add-sign / reduce-sign
  taskAction(
    m.addSign,
    (input) => {
      const task = requireOwnTask(engine, input);
      if (task.kind !== 'approval') fault('INVALID_STATE', `Signers cannot be added to a ${task.kind} task`);
      requireSwitch(engine, task, 'addSign');
      const users = input.assigneeUserIds ?? [];
      if (users.length === 0) fault('VALIDATION_FAILED', 'assigneeUserIds must name at least one user');
      if (users.includes(input.actor.userId)) fault('INVALID_TARGET', 'You cannot add yourself as a signer');
      requireNewToNode(engine, task, users);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const run = runOf(engine, task)!;
      const cfg = config(engine.node(task.activityId));
      const position = input.position ?? 'before';
      const users = [...new Set(input.assigneeUserIds!)];
      const added = users.map((userId) => {
        const active = position !== 'after';
        const sub = engine.createTask({
          activityId: task.activityId,
          name: task.name,
          kind: task.kind,
          runId: run.id,
          status: active ? 'active' : 'waiting',
          assignee: userId,
          parentTaskId: task.id,
          addedBy: input.actor.userId,
          dueDate: active ? dueDateFor(engine, cfg) : null,
        });
        sub.position = position;
        if (active) watchDue(engine, run, sub, cfg);
        else engine.notify(userId, 'task_added_after', sub.id, { activityId: task.activityId, name: task.name, by: input.actor.userId });
        return sub.id;
      });
      if (position === 'before') engine.setStatus(task, 'waiting');
      engine.trail('add_sign', trailOf(task, input.actor, input.reason ?? input.comment, { assigneeUserIds: users, position, subTaskIds: added, reason: input.reason ?? null }));
    },
  );

  taskAction(m.reduceSign, (input) => void planReduce(engine, input), (input) => applyReduce(engine, input));

  // withdraw (through a task) and urge
  taskAction(
    m.withdrawTask,
    (input) => {
      findTask(engine, input.taskId);
      if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
      if (input.actor.userId !== engine.info.initiatorId) fault('NOT_INITIATOR', 'Only the initiator may withdraw the application');
      requireSwitch(engine, null, 'withdraw');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const notified = new Set(engine.openTasks().flatMap(handlersOf));
      notified.delete(input.actor.userId);
      for (const userId of notified) engine.notify(userId, 'instance_withdrawn', null, { by: input.actor.userId });
      engine.trail('withdraw', trailOf(task, input.actor, input.reason ?? input.comment, { via: 'task' }));
      engine.end('terminated', 'Withdrawn by applicant', 'withdrawn');
    },
  );

  taskAction(
    m.urge,
    (input) => {
      const task = requireLive(engine, input);
      if (task.status === 'waiting') fault('INVALID_STATE', 'It is not this task\'s turn yet: nobody to urge');
      if (input.actor.userId !== engine.info.initiatorId && !input.actor.monitor) fault('NOT_INITIATOR', 'Only the initiator (or workflow:monitor) may urge');
      requireSwitch(engine, null, 'urge');
      const last = engine.lastUrge[task.id];
      if (last && Date.parse(engine.now()) - Date.parse(last) < URGE_INTERVAL_MS) {
        const retryAfter = Math.ceil((Date.parse(last) + URGE_INTERVAL_MS - Date.parse(engine.now())) / 1000);
        refuse('RATE_LIMITED', `This task was urged at ${last}: at most once per 10 minutes`, { retryAfterSeconds: retryAfter });
      }
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      engine.lastUrge[task.id] = engine.now();
      const who = handlersOf(task);
      for (const userId of who) engine.notify(userId, 'urge', task.id, { activityId: task.activityId, name: task.name, by: input.actor.userId, message: input.message ?? null });
      engine.trail('urge', trailOf(task, input.actor, input.message, { notified: who, candidates: task.assignee ? null : task.candidates }));
    },
  );

  // suspend / activate: one task, or the whole instance
  taskAction(
    m.suspendTask,
    (input) => {
      requireLive(engine, input);
      requireSuspender(engine, input.actor);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.suspendedFrom = task.status;
      task.status = 'suspended';
      task.held = true;
      engine.changed(task);
      engine.trail('suspend', trailOf(task, input.actor, input.reason ?? input.comment, { scope: 'task' }));
      for (const userId of handlersOf(task)) engine.notify(userId, 'task_suspended', task.id, { activityId: task.activityId });
    },
  );

  taskAction(
    m.activateTask,
    (input) => {
      requireRunning(engine);
      const task = findTask(engine, input.taskId);
      if (task.status !== 'suspended') fault('INVALID_STATE', `The task is ${task.status}, not suspended`);
      requireSuspender(engine, input.actor);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.status = task.suspendedFrom ?? 'active';
      task.suspendedFrom = null;
      task.held = false;
      engine.changed(task);
      engine.trail('activate', trailOf(task, input.actor, input.reason ?? input.comment, { scope: 'task' }));
      for (const userId of handlersOf(task)) engine.notify(userId, 'task_activated', task.id, { activityId: task.activityId });
      const run = runOf(engine, task);
      if (run) evaluate(engine, run, null);
    },
  );

  onUpdate(
    engine,
    m.suspendInstance,
    (input) => {
      suspendInstance(engine, input.actor, input.reason ?? input.comment ?? null);
      return settle(engine, null);
    },
    {
      validator: (input) => {
        if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
        if (engine.status !== 'active') fault('INVALID_STATE', `The instance is ${engine.status}: only an active instance can be suspended`);
        requireSuspender(engine, input.actor);
      },
    },
  );

  onUpdate(
    engine,
    m.activateInstance,
    (input) => {
      activateInstance(engine, input.actor, input.reason ?? input.comment ?? null);
      return settle(engine, null);
    },
    {
      validator: (input) => {
        if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
        if (engine.status !== 'suspended') fault('INVALID_STATE', `The instance is ${engine.status}, not suspended`);
        requireSuspender(engine, input.actor);
      },
    },
  );

  // admin: reassign, candidates
  taskAction(
    m.reassign,
    (input) => {
      if (!input.actor.admin) fault('FORBIDDEN', 'Permission required: workflow:admin');
      const task = requireLive(engine, input);
      if (task.status !== 'active' && task.status !== 'pending') fault('INVALID_STATE', `The task is ${task.status}: only an active or pending task can be reassigned`);
      requireTarget(input, task.assignee ?? '');
      if (task.kind === 'delay') fault('INVALID_STATE', 'A delay has no assignee');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const from = task.assignee;
      const to = input.assigneeUserId!;
      const reason = input.reason ?? null;
      task.assignee = to;
      task.owner = null;
      task.claimedBy = null;
      engine.setStatus(task, 'active');
      const comment = `Reassigned by ${input.actor.userId} from ${from ?? 'the candidate pool'} to ${to}${reason ? `: ${reason}` : ''}`;
      engine.trail('reassign', trailOf(task, input.actor, comment, { admin: input.actor.userId, from, to, reason }));
      if (from && from !== to) engine.notify(from, 'task_reassigned', task.id, { activityId: task.activityId, to, by: input.actor.userId });
    },
  );

  const candidateLists = (input: m.TaskActionInput) => ({ userIds: input.userIds ?? [], roleIds: input.roleIds ?? [], deptIds: input.deptIds ?? [] });
  const requirePool = (input: m.TaskActionInput) => {
    const task = requireLive(engine, input);
    if (task.status !== 'pending') fault('INVALID_STATE', `The task is ${task.status}: candidates are changed on a pending pool only`);
    const lists = candidateLists(input);
    if (!lists.userIds.length && !lists.roleIds.length && !lists.deptIds.length) fault('VALIDATION_FAILED', 'Name at least one of userIds, roleIds, deptIds');
    return task;
  };

  taskAction(
    m.addCandidates,
    (input) => {
      if (!input.actor.admin) fault('FORBIDDEN', 'Permission required: workflow:admin');
      requirePool(input);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const add = candidateLists(input);
      const c = task.candidates;
      const merged: Candidates = {
        userIds: [...new Set([...c.userIds, ...add.userIds])],
        roleIds: [...new Set([...c.roleIds, ...add.roleIds])],
        deptIds: [...new Set([...c.deptIds, ...add.deptIds])],
      };
      task.candidates = merged;
      engine.changed(task);
      engine.trail('system', trailOf(task, input.actor, 'Candidates added', { action: 'candidates_add', ...add }));
      for (const userId of add.userIds) if (!c.userIds.includes(userId)) engine.notify(userId, 'task_claimable', task.id, { activityId: task.activityId, name: task.name });
    },
  );

  taskAction(
    m.removeCandidates,
    (input) => {
      if (!input.actor.admin && input.actor.userId !== engine.info.initiatorId) fault('FORBIDDEN', 'Only workflow:admin or the initiator may remove candidates');
      const task = requirePool(input);
      const drop = candidateLists(input);
      const c = task.candidates;
      const matched = drop.userIds.some((u) => c.userIds.includes(u)) || drop.roleIds.some((r) => c.roleIds.includes(r)) || drop.deptIds.some((d) => c.deptIds.includes(d));
      if (!matched) fault('INVALID_TARGET', 'None of them is a candidate of this task');
      const left = c.userIds.filter((u) => !drop.userIds.includes(u)).length + c.roleIds.filter((r) => !drop.roleIds.includes(r)).length + c.deptIds.filter((d) => !drop.deptIds.includes(d)).length;
      if (left === 0) fault('INVALID_STATE', 'Removing every candidate would leave nobody to claim the task');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const drop = candidateLists(input);
      const c = task.candidates;
      task.candidates = {
        userIds: c.userIds.filter((u) => !drop.userIds.includes(u)),
        roleIds: c.roleIds.filter((r) => !drop.roleIds.includes(r)),
        deptIds: c.deptIds.filter((d) => !drop.deptIds.includes(d)),
      };
      engine.changed(task);
      engine.trail('system', trailOf(task, input.actor, 'Candidates removed', { action: 'candidates_remove', ...drop }));
      for (const userId of drop.userIds) if (c.userIds.includes(userId)) engine.notify(userId, 'task_unavailable', task.id, { activityId: task.activityId });
    },
  );

  // task variables: the assignee writes the fields the node lets them write
  taskAction(
    m.setTaskVariables,
    (input) => {
      const task = requireActionable(engine, input);
      const names = Object.keys(input.variables ?? {});
      if (names.length === 0) fault('VALIDATION_FAILED', 'variables must name at least one variable');
      requireWritable(engine, task, names);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      Object.assign(task.variables, input.variables);
      engine.changed(task);
      engine.trail('system', trailOf(task, input.actor, 'Task variables set', { taskVariables: { set: Object.keys(input.variables!) } }));
    },
  );

  onUpdate(
    engine,
    m.deleteTaskVariables,
    (input) => {
      const task = engine.tasks[input.taskId];
      for (const name of input.names) delete task.variables[name];
      engine.changed(task);
      engine.trail('system', trailOf(task, input.actor, 'Task variables deleted', { taskVariables: { deleted: input.names } }));
      return settle(engine, input.taskId);
    },
    {
      validator: (input) => {
        const task = requireActionable(engine, input);
        requireWritable(engine, task, input.names);
        const missing = input.names.filter((n) => !Object.hasOwn(task.variables, n));
        if (missing.length) fault('NOT_FOUND', `No task variable ${missing.join(', ')}`);
      },
    },
  );
}
