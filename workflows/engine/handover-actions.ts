// Claim and unclaim from pools; return; transfer, delegate and resolve (docs/contract.md#action-rules).
import { previousApprovalNode } from '../../dsl/graph.js';
import * as m from '../messages.js';
import { type Engine } from './engine.js';
import { fault, findTask, requireRunning, requireSwitch, requireLive } from './actions.js';
import {
  refuse,
  trailOf,
  requireOwnTask,
  isCandidate,
  runOf,
  tasksOfActivation,
  requireNewToNode,
  requireTarget,
  defineTaskAction,
} from './task-rules.js';
import type { TaskState } from './types.js';

// ---------- return ----------

function validateReturn(engine: Engine, input: m.ReturnInput) {
  const task = requireOwnTask(engine, input);
  if (task.kind !== 'approval' && task.kind !== 'handle')
    fault('INVALID_STATE', `A ${task.kind} task cannot be returned`);
  requireSwitch(engine, task, 'return');
  const allowed = previousApprovalNode(engine.doc, task.activityId, engine.completedApprovals);
  if (!allowed)
    refuse('INVALID_TARGET', 'There is no completed approval node before this one to return to', {
      allowedTarget: null,
    });
  if (input.targetActivityId !== allowed.id) {
    refuse(
      'INVALID_TARGET',
      `The task can only be returned to ${allowed.id} (${allowed.name ?? allowed.id}), the most recently completed approval node before this one`,
      { allowedTarget: allowed.id },
    );
  }
}

function applyReturn(engine: Engine, input: m.ReturnInput) {
  const task = engine.tasks[input.taskId];
  const run = runOf(engine, task)!;
  const target = input.targetActivityId;
  const comment = input.comment ?? null;
  engine.closeTask(task, 'returned', comment);
  for (const t of tasksOfActivation(engine, run)) engine.closeTask(t, 'cancelled');
  if (run.parentTaskId) engine.closeTask(engine.tasks[run.parentTaskId], 'returned');
  run.outcome = 'returned';
  run.returnTarget = target;
  run.decidedBy = input.actor.userId;
  run.comment = comment;
  engine.trail(
    'return',
    trailOf(task, input.actor, comment, { from: task.activityId, target, reason: input.reason ?? null }),
  );
  engine.notify(engine.info.initiatorId, 'task_returned', task.id, {
    activityId: task.activityId,
    target,
    by: input.actor.userId,
  });
}

export function registerHandoverActions(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  // claim / unclaim
  taskAction(
    m.claim,
    (input) => {
      requireRunning(engine);
      const task = findTask(engine, input.taskId);
      if (task.status !== 'pending') {
        fault(
          'INVALID_STATE',
          task.status === 'active' && task.assignee
            ? `The task is already claimed by ${task.assignee}`
            : `The task is ${task.status}: only a pending task can be claimed`,
        );
      }
      if (!isCandidate(task.candidates, input.actor))
        fault('NOT_ASSIGNEE', 'Only a candidate of this task may claim it');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.assignee = input.actor.userId;
      task.claimedBy = input.actor.userId;
      task.status = 'active';
      engine.changed(task);
      engine.trail('claim', trailOf(task, input.actor));
    },
  );

  taskAction(
    m.unclaim,
    (input) => {
      requireRunning(engine);
      const task = findTask(engine, input.taskId);
      if (task.status !== 'active')
        fault('INVALID_STATE', `The task is ${task.status}: only a claimed (active) task can be unclaimed`);
      if (task.claimedBy !== input.actor.userId || task.assignee !== input.actor.userId)
        fault('NOT_ASSIGNEE', 'Only the member who claimed the task may unclaim it');
      if (task.owner) fault('INVALID_STATE', 'The task is delegated: resolve the delegation first');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.assignee = null;
      task.claimedBy = null;
      task.status = 'pending';
      engine.changed(task);
      engine.trail('unclaim', trailOf(task, input.actor));
      for (const userId of task.candidates.userIds)
        if (userId !== input.actor.userId)
          engine.notify(userId, 'task_claimable', task.id, { activityId: task.activityId, name: task.name });
    },
  );

  // return
  taskAction(
    m.returnTask,
    (input) => validateReturn(engine, input),
    (input) => applyReturn(engine, input),
  );

  // transfer / delegate: the assignee hands its own task to someone new to the node, who may act at once;
  // `pass` moves the task and gives the trail's detail.
  const handOver = (
    def: typeof m.transfer,
    action: 'transfer' | 'delegate',
    pass: (task: TaskState, to: string) => Record<string, unknown>,
  ) =>
    taskAction(
      def,
      (input) => {
        const task = requireOwnTask(engine, input);
        requireSwitch(engine, task, action);
        requireNewToNode(engine, task, [requireTarget(input, input.actor.userId)]);
      },
      (input) => {
        const task = engine.tasks[input.taskId];
        const detail = pass(task, input.assigneeUserId);
        engine.setStatus(task, 'active');
        engine.trail(action, trailOf(task, input.actor, input.reason, { ...detail, reason: input.reason ?? null }));
      },
    );

  handOver(m.transfer, 'transfer', (task, to) => {
    const from = task.assignee;
    task.assignee = to;
    task.claimedBy = null;
    return { from, to };
  });

  // The delegator stays the owner: the task comes back to them once resolved.
  handOver(m.delegate, 'delegate', (task, to) => {
    const from = task.assignee!;
    task.owner = from;
    task.assignee = to;
    return { owner: from, to };
  });

  // resolve
  taskAction(
    m.resolve,
    (input) => {
      const task = requireLive(engine, input);
      if (!task.owner) fault('INVALID_STATE', 'The task is not delegated: there is nothing to resolve');
      if (input.actor.userId !== task.assignee && input.actor.userId !== task.owner)
        fault('NOT_ASSIGNEE', 'Only the delegatee or the owner may resolve a delegation');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const delegatee = task.assignee!;
      const owner = task.owner!;
      task.assignee = owner;
      task.owner = null;
      task.status = 'active';
      engine.changed(task);
      engine.trail(
        'resolve',
        trailOf(task, input.actor, null, {
          owner,
          delegatee,
          by: input.actor.userId === owner ? 'owner' : 'delegatee',
        }),
      );
      engine.notify(input.actor.userId === owner ? delegatee : owner, 'task_resolved', task.id, {
        activityId: task.activityId,
        owner,
        delegatee,
      });
    },
  );
}
