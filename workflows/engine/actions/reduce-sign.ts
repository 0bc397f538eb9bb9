// ReduceSign: remove added signers (whoever added them) or other ballots of a multi-approver node (docs/contract.md#action-rules).
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { fault, findTask, refuse, requireRunning, requireSwitch, runOf, tasksOfActivation } from '../guards.js';
import { thresholdFor, config } from '../user-task/config.js';
import { ballotState, evaluate } from '../user-task/ballots.js';
import type { TaskState } from '../types.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

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

export function registerReduceSign(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  taskAction(
    m.reduceSign,
    (input) => void planReduce(engine, input),
    (input) => applyReduce(engine, input),
  );
}
