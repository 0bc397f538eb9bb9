// Update handlers: each validator refuses an illegal action before anything is written to
// history; each handler applies the action, then returns once the instance is settled
// (next tasks exist or it ended) and the read model has it.
import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import { showState } from './details.js';
import { callerWritingUpdate, counted, onUpdate } from './handlers.js';
import type { ErrorCode } from '../../src/errors.js';
import * as m from '../messages.js';
import { type Engine } from './engine.js';
import { decide, inputsAheadOfOpen } from './user-task.js';
import { said } from '../../dsl/history.js';
import { ending } from '../../dsl/ending.js';
import type { ActionResult, TaskState } from './types.js';

export function fault(type: ErrorCode, message: string): never {
  throw ApplicationFailure.create({ type, message, nonRetryable: true });
}

/**
 * An Update's answer, once the action has run its course: no path running and none about to wake
 * (the next tasks exist, or the instance ended). Engine version 2 answers then, with the changes
 * since the last projection, which the caller writes to the read model before it answers
 * (read-your-writes without waiting for the projection activity and the workflow task after it).
 * Older runs, and any run whose roll-over is due, wait until the projection has them.
 */
export async function settle(
  engine: Engine,
  taskId: string | null,
  extra: Partial<ActionResult> = {},
): Promise<ActionResult> {
  const update = callerWritingUpdate(engine);
  // Engine version 4: the service's server writes what it is answered, so no projection follows.
  if (update) {
    await condition(() => engine.quiet());
    const state = { ...engine.handOver(update.id), ahead: inputsAheadOfOpen(engine) };
    showState(engine);
    return { taskId, instanceStatus: engine.status, ...extra, state };
  }
  // When a roll-over is due the answer waits for the projection after all, so the run settles
  // between Updates and can continue as new even under a stream of them.
  if (engine.features.answersWithState && !engine.rollDue()) {
    await condition(() => engine.quiet());
    return { taskId, instanceStatus: engine.status, ...extra, state: engine.snapshot() };
  }
  await condition(() => engine.settled());
  return { taskId, instanceStatus: engine.status, ...extra };
}

export function requireRunning(engine: Engine) {
  if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
  if (engine.status === 'suspended') fault('INVALID_STATE', 'The instance is suspended: activate it first');
}

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

/** An admin decides for the assignee: a live task that has one, with a reason. */
function requireOnBehalf(engine: Engine, input: m.DecisionInput): TaskState {
  if (!input.actor.admin)
    fault('FORBIDDEN', 'Permission required: workflow:admin (to decide on behalf of the assignee)');
  if (!input.reason?.trim()) fault('VALIDATION_FAILED', 'reason is required when deciding on behalf of the assignee');
  const task = requireLive(engine, input);
  if (task.status === 'pending' || !task.assignee)
    fault('INVALID_STATE', 'The task has no assignee yet (a candidate pool): claim or reassign it first');
  if (task.status === 'waiting') fault('INVALID_STATE', "It is not this task's turn yet");
  if (task.owner) fault('INVALID_STATE', `The task is delegated by ${task.owner}: resolve the delegation first`);
  return task;
}

function validateDecision(engine: Engine, input: m.DecisionInput, decision: 'approve' | 'reject') {
  const task = input.onBehalfOf ? requireOnBehalf(engine, input) : requireActionable(engine, input);
  if (decision === 'reject' && (task.kind === 'handle' || task.kind === 'resubmit')) {
    fault(
      'INVALID_STATE',
      `A ${task.kind} task cannot be rejected: complete it${task.kind === 'resubmit' ? ' or withdraw' : ''}`,
    );
  }
  if (task.kind === 'delay') fault('INVALID_STATE', 'A delay is not approved: an admin may complete it');
  if (task.kind === 'resubmit') requireSwitch(engine, task, 'resubmit');
}

/** How a decision reached the workflow, for its trail entry: nothing for the task actions' own routes. */
const channelOf = (input: m.DecisionInput) =>
  input.link ? { channel: 'link', linkId: input.link.id, via: input.link.via } : {};

/** The delegatee's decision goes back to the owner; the flow does not move. */
function returnToOwner(engine: Engine, task: TaskState, decision: string, input: m.DecisionInput) {
  engine.trail(decision, {
    activityId: task.activityId,
    taskId: task.id,
    userId: input.actor.userId,
    comment: input.comment ?? null,
    detail: { delegated: true, owner: task.owner, ...channelOf(input) },
  });
  task.assignee = task.owner;
  task.owner = null;
  engine.setStatus(task, 'active');
}

function applyDecision(engine: Engine, input: m.DecisionInput, decision: 'approve' | 'reject') {
  const task = engine.tasks[input.taskId];
  // A decision without a login: its user hears of it, in case the link was not theirs to use.
  if (input.link)
    engine.notify(input.actor.userId, 'task_decided_by_link', task.id, {
      activityId: task.activityId,
      name: task.name,
      decision,
      linkId: input.link.id,
      via: input.link.via,
    });
  if (task.owner) return returnToOwner(engine, task, decision, input);
  if (input.variables && Object.keys(input.variables).length) {
    Object.assign(engine.variables, input.variables);
    engine.touch();
  }
  const run = engine.runs[task.runId];
  if (run && decision === 'reject') run.comment = input.comment ?? null;
  const result = decision === 'approve' ? (task.kind === 'approval' ? 'approved' : 'completed') : 'rejected';
  const trail = input.link ? { detail: channelOf(input) } : undefined;
  if (!input.onBehalfOf) return decide(engine, task, result, input.actor.userId, input.comment ?? null, trail);
  // The ballot stays the assignee's (they may recall it); the trail names the admin and the reason.
  const assignee = task.assignee!;
  const admin = input.actor.userId;
  const reason = input.reason!.trim();
  decide(engine, task, result, assignee, input.comment ?? null, {
    userId: admin,
    detail: { onBehalfOf: assignee, admin, reason },
  });
  engine.notify(assignee, 'task_decided_on_behalf', task.id, {
    activityId: task.activityId,
    name: task.name,
    decision: result,
    by: admin,
    reason,
  });
}

export function registerCoreActions(engine: Engine) {
  setHandler(m.sync, () => counted(engine, () => settle(engine, null)));

  for (const [def, decision] of [
    [m.approve, 'approve'],
    [m.reject, 'reject'],
  ] as const) {
    onUpdate<typeof m.approve>(
      engine,
      def,
      (input) => {
        applyDecision(engine, input, decision);
        return settle(engine, input.taskId);
      },
      { validator: (input) => validateDecision(engine, input, decision) },
    );
  }

  onUpdate(
    engine,
    m.complete,
    (input) => {
      const task = engine.tasks[input.taskId];
      if (task.kind === 'delay') {
        engine.closeTask(task, 'completed', input.comment ?? 'Ended early by an admin');
        engine.trail('complete', {
          activityId: task.activityId,
          taskId: task.id,
          userId: input.actor.userId,
          comment: input.comment ?? null,
          detail: { delay: 'ended early' },
        });
      } else applyDecision(engine, input, 'approve');
      return settle(engine, input.taskId);
    },
    {
      validator: (input) => {
        const task = findTask(engine, input.taskId);
        if (task.kind === 'delay') {
          requireRunning(engine);
          if (!input.actor.admin) fault('FORBIDDEN', 'Only an admin (workflow:admin) may end a delay early');
          if (!engine.isOpen(task)) fault('INVALID_STATE', 'The delay has ended');
          return;
        }
        requireActionable(engine, input);
        if (task.kind === 'approval') fault('INVALID_STATE', 'An approval task is approved or rejected, not completed');
        if (task.kind === 'resubmit') requireSwitch(engine, task, 'resubmit');
      },
    },
  );

  onUpdate(
    engine,
    m.setVariables,
    (input) => {
      if (input.variables) Object.assign(engine.variables, input.variables);
      for (const name of input.deleteNames ?? []) delete engine.variables[name];
      engine.trail('system', {
        userId: input.actor.userId,
        ...said('variables.changed', {}),
        detail: { set: Object.keys(input.variables ?? {}), deleted: input.deleteNames ?? [] },
      });
      return settle(engine, null);
    },
    {
      validator: () => {
        if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
      },
    },
  );

  onUpdate(
    engine,
    m.withdraw,
    (input) => {
      engine.trail('withdraw', { userId: input.actor.userId, comment: input.reason ?? null });
      engine.end('terminated', ending('end.withdrawn', {}), 'withdrawn');
      return settle(engine, null);
    },
    {
      validator: (input) => {
        if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
        if (input.actor.userId !== engine.info.initiatorId)
          fault('NOT_INITIATOR', 'Only the initiator may withdraw the application');
        requireSwitch(engine, null, 'withdraw');
      },
    },
  );

  const endings = [
    [m.terminate, 'terminated', 'terminate', 'end.terminated'],
    [m.completeInstance, 'completed', 'complete', 'end.completed'],
  ] as const;
  for (const [def, status, type, code] of endings) {
    onUpdate(
      engine,
      def as typeof m.terminate,
      (input) => {
        if (engine.ended) return settle(engine, null);
        engine.trail(type, { userId: input.actor.userId, comment: input.reason ?? null });
        engine.end(status, ending(code, { reason: input.reason || null }));
        return settle(engine, null);
      },
      {
        validator: (input) => {
          if (!input.actor.manage) fault('FORBIDDEN', 'Permission required: workflow:instance:manage');
        },
      },
    );
  }
}
