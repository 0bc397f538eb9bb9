// The preconditions the actions share, in one place: refusals, the instance not ended / running, the task found / live / actionable / the caller's own, the designer's switches, the admin, initiator and suspender, candidates and targets.
// Each action's module (actions/) keeps only the checks that are its own. Kept beside engine.ts,
// not in actions/: a refusal's stack is checked to map to a workflows/engine/*.ts source
// (test/workflow/stack-traces.test.ts), and its top frames are these.
import { ApplicationFailure } from '@temporalio/workflow';
import type { ErrorCode } from '../../src/errors.js';
import type * as m from '../messages.js';
import type { Engine, NodeRun } from './engine.js';
import type { Candidates, TaskState } from './types.js';

export function fault(type: ErrorCode, message: string): never {
  throw ApplicationFailure.create({ type, message, nonRetryable: true });
}

/** A refusal that carries data for the client (the envelope's `data`). */
export function refuse(type: ErrorCode, message: string, data: Record<string, unknown>): never {
  throw ApplicationFailure.create({ type, message, details: [data], nonRetryable: true });
}

// ---------- the instance ----------

/** The instance has not ended (it may be suspended). */
export function requireNotEnded(engine: Engine) {
  if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
}

/** The instance has not ended and is not suspended. */
export function requireRunning(engine: Engine) {
  requireNotEnded(engine);
  if (engine.status === 'suspended') fault('INVALID_STATE', 'The instance is suspended: activate it first');
}

// ---------- who acts ----------

/** workflow:admin. */
export function requireAdmin(actor: m.Actor) {
  if (!actor.admin) fault('FORBIDDEN', 'Permission required: workflow:admin');
}

/** An admin repair (re-drive, force-resume): workflow:admin, on a running instance. */
export function requireAdminOnRunning(engine: Engine, input: m.InstanceReasonInput) {
  requireAdmin(input.actor);
  requireRunning(engine);
}

/** Withdraw (the instance, or through a task): the initiator, unless the process switch `withdraw` is off. */
export function requireWithdrawer(engine: Engine, actor: m.Actor) {
  if (actor.userId !== engine.info.initiatorId)
    fault('NOT_INITIATOR', 'Only the initiator may withdraw the application');
  requireSwitch(engine, null, 'withdraw');
}

/** Initiator with the process switch `suspend`, or workflow:instance:manage. */
export function requireSuspender(engine: Engine, actor: m.Actor) {
  if (actor.manage) return;
  if (actor.userId !== engine.info.initiatorId)
    fault('NOT_INITIATOR', 'Only the initiator or workflow:instance:manage may suspend or activate');
  requireSwitch(engine, null, 'suspend');
}

/** A designer switch set to false (on the node or the process) refuses the action. */
export function requireSwitch(engine: Engine, task: TaskState | null, name: string) {
  const nodeSwitches = task ? engine.node(task.activityId).additionalInfo?.actionPermissions : undefined;
  const processSwitches = engine.doc.ruleChain.additionalInfo?.actionPermissions as Record<string, unknown> | undefined;
  if (nodeSwitches?.[name] === false || processSwitches?.[name] === false) {
    fault(
      'ACTION_DISABLED',
      `The process designer disabled "${name}" ${nodeSwitches?.[name] === false ? 'on this node' : 'for this process'}`,
    );
  }
}

// ---------- the task ----------

export function findTask(engine: Engine, taskId: string): TaskState {
  const task = engine.tasks[taskId];
  if (!task) fault('NOT_FOUND', `No task ${taskId} in this instance`);
  return task;
}

/** An open, unsuspended task of a running instance (whoever holds it). */
export function requireLive(engine: Engine, input: m.TaskRef): TaskState {
  requireRunning(engine);
  const task = findTask(engine, input.taskId);
  if (!engine.isOpen(task))
    fault('INVALID_STATE', `The task is ${task.status}${task.result ? ` (${task.result})` : ''}`);
  if (task.status === 'suspended') fault('INVALID_STATE', 'The task is suspended');
  return task;
}

/** The rules every approver action shares: a live task, its turn, the caller's. */
export function requireActionable(engine: Engine, input: m.TaskRef): TaskState {
  const task = requireLive(engine, input);
  if (task.status === 'pending') fault('INVALID_STATE', 'The task is in a candidate pool: claim it first');
  if (task.status === 'waiting') fault('INVALID_STATE', "It is not this task's turn yet");
  if (task.assignee !== input.actor.userId) fault('NOT_ASSIGNEE', 'Only the assignee may act on this task');
  return task;
}

/** The assignee's own task: actionable, and not handed to a delegatee. */
export function requireOwnTask(engine: Engine, input: m.TaskRef): TaskState {
  const task = requireActionable(engine, input);
  if (task.owner)
    fault('INVALID_STATE', `The task is delegated by ${task.owner}: the delegatee approves, rejects or resolves it`);
  return task;
}

export const isCandidate = (c: Candidates, actor: m.Actor) =>
  c.userIds.includes(actor.userId) ||
  c.roleIds.some((r) => actor.roles.includes(r)) ||
  (actor.deptId !== null && c.deptIds.includes(actor.deptId));

export const runOf = (engine: Engine, task: TaskState): NodeRun | undefined => engine.runs[task.runId];

/** Tasks of a node activation (ballots and add-sign sub-tasks), without the multi-approver parent. */
export const tasksOfActivation = (engine: Engine, run: NodeRun) =>
  Object.values(engine.tasks).filter((t) => t.runId === run.id && t.id !== run.parentTaskId);

/** People who already hold an open task of the activation: they cannot be given another one. */
export function requireNewToNode(engine: Engine, task: TaskState, userIds: string[]) {
  const run = runOf(engine, task);
  const busy = run
    ? tasksOfActivation(engine, run)
        .filter((t) => engine.isOpen(t) && t.assignee && userIds.includes(t.assignee))
        .map((t) => t.assignee!)
    : [];
  if (busy.length)
    refuse('INVALID_TARGET', `Already an approver of this node: ${[...new Set(busy)].join(', ')}`, {
      userIds: [...new Set(busy)],
    });
}

export function requireTarget(input: m.HandoverInput, self: string): string {
  const to = input.assigneeUserId;
  // The type says required; a hand-made payload may still lack it.
  if (!to) fault('VALIDATION_FAILED', 'assigneeUserId is required');
  if (to === self) fault('INVALID_TARGET', 'The task is already with this user');
  return to;
}
