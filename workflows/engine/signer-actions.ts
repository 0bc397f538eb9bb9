// Add-sign and reduce-sign (docs/contract.md#action-rules).
import * as m from '../messages.js';
import { type Engine } from './engine.js';
import { fault, findTask, requireRunning, requireSwitch } from './actions.js';
import { ballotState, config, dueDateFor, evaluate, thresholdFor, watchDue } from './user-task.js';
import {
  refuse,
  trailOf,
  requireOwnTask,
  runOf,
  tasksOfActivation,
  requireNewToNode,
  defineTaskAction,
} from './task-rules.js';
import type { TaskState } from './types.js';

// ---------- reduce-sign ----------

interface ReducePlan {
  remove: TaskState[];
  kept: string[];
}

/** Who is removed and who stays; refuses when the caller may not remove someone. Pure. */
function planReduce(engine: Engine, input: m.ReduceSignInput): ReducePlan {
  requireRunning(engine);
  const task = findTask(engine, input.taskId);
  const run = runOf(engine, task);
  if (!run || run.outcome || task.kind === 'delay' || task.kind === 'resubmit')
    fault('INVALID_STATE', 'The node of this task is decided');
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
        if (t.addedBy !== actor)
          fault('NOT_ASSIGNEE', `Only the member who added ${userId} (${t.addedBy}) may remove them`);
      } else {
        if (!multi)
          fault('INVALID_STATE', `${userId} is the approver of this node: only added signers can be removed here`);
        if (!approverOfNode) fault('NOT_ASSIGNEE', 'Only an approver of this node may remove its approvers');
        if (userId === actor) fault('INVALID_TARGET', 'You cannot remove your own ballot');
      }
      remove.push(t);
    }
  }
  if (strangers.length)
    refuse('INVALID_TARGET', `Not a signer of this node: ${strangers.join(', ')}`, { userIds: strangers });
  const removedBallots = remove.filter((t) => !t.position);
  if (removedBallots.length) {
    const stillOpen = ballots.filter((t) => !removedBallots.includes(t) && ballotState(engine, t) === 'open');
    if (stillOpen.length === 0)
      fault('INVALID_STATE', 'Removing every open ballot would leave the node with nobody to decide');
  }
  return { remove, kept };
}

function applyReduce(engine: Engine, input: m.ReduceSignInput): { removed: string[]; kept: string[] } {
  const plan = planReduce(engine, input);
  const task = engine.tasks[input.taskId];
  const run = runOf(engine, task)!;
  for (const t of plan.remove) {
    t.removed = true;
    engine.closeTask(t, 'cancelled', input.reason ?? 'Removed by reduce-sign');
    if (t.assignee)
      engine.notify(t.assignee, 'task_removed', t.id, { activityId: t.activityId, by: input.actor.userId });
  }
  if (plan.remove.some((t) => !t.position)) {
    const remaining = engine.tasksOfRun(run).filter((t) => !t.removed).length;
    run.threshold = thresholdFor(run.mode, remaining, config(engine.node(run.nodeId)).voteRule);
  }
  const removed = [...new Set(plan.remove.map((t) => t.assignee!))];
  engine.trail(
    'reduce_sign',
    trailOf(task, input.actor, input.reason, {
      removed,
      kept: plan.kept,
      reason: input.reason ?? null,
      threshold: run.threshold,
    }),
  );
  evaluate(engine, run, input.actor.userId);
  return { removed, kept: plan.kept };
}

export function registerSignerActions(engine: Engine) {
  const taskAction = defineTaskAction(engine);

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
      const users = [...new Set(input.assigneeUserIds)];
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
        else
          engine.notify(userId, 'task_added_after', sub.id, {
            activityId: task.activityId,
            name: task.name,
            by: input.actor.userId,
          });
        return sub.id;
      });
      if (position === 'before') engine.setStatus(task, 'waiting');
      engine.trail(
        'add_sign',
        trailOf(task, input.actor, input.reason, {
          assigneeUserIds: users,
          position,
          subTaskIds: added,
          reason: input.reason ?? null,
        }),
      );
    },
  );

  taskAction(
    m.reduceSign,
    (input) => void planReduce(engine, input),
    (input) => applyReduce(engine, input),
  );
}
