// Recall: the approver takes back an approval while nobody has acted on what it started (docs/task-actions.md#recall).
// Two cases:
// * the node is still open (a countersign / vote / sequential ballot): the ballot opens again; on a
//   sequential node the next ballot goes back to waiting, refused once a later ballot was decided;
// * the decision completed the node: the tasks the path created next are cancelled, the node's run
//   (its ballots, parent and the ballots the outcome cancelled) opens again and the path goes back.
import * as m from '../../messages.js';
import type { Engine, NodeRun } from '../engine.js';
import { fault, findTask, refuse, requireNotEnded, requireSwitch } from '../guards.js';
import { config, dueDateFor } from '../user-task/config.js';
import { addedSigners, watchDue } from '../user-task/ballots.js';
import type { TaskResult, TaskState, TaskStatus } from '../types.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

const DECISIONS: Array<TaskResult | null> = ['approved', 'rejected', 'returned', 'completed'];

/** The people who acted on a task: decided it, claimed it, delegated it, added signers to it. */
function actorsOn(t: TaskState): string[] {
  const who: string[] = [];
  if (DECISIONS.includes(t.result) && t.assignee) who.push(t.assignee);
  if (t.claimedBy) who.push(t.claimedBy);
  if (t.owner) who.push(t.owner);
  if (t.addedBy) who.push(t.addedBy);
  return who;
}

function refuseActed(actedBy: string[], what: string): never {
  const people = [...new Set(actedBy)];
  refuse('ALREADY_ACTED', `${people.join(', ')} already acted on ${what}: the approval can no longer be recalled`, {
    actedBy: people,
  });
}

const tasksOf = (engine: Engine, run: NodeRun) => Object.values(engine.tasks).filter((t) => t.runId === run.id);

/** The ballots after `task` on a one-at-a-time node (with their add-sign sub-tasks). */
function laterBallots(engine: Engine, run: NodeRun, task: TaskState): TaskState[] {
  const at = run.taskIds.indexOf(task.id);
  const later = new Set(run.taskIds.slice(at + 1));
  return tasksOf(engine, run).filter((t) => !t.removed && (later.has(t.id) || later.has(t.parentTaskId ?? '')));
}

/** The run the path went on to after `run` was approved (not one an earlier recall cancelled). */
const nextRunOf = (engine: Engine, run: NodeRun) =>
  Object.values(engine.runs).find((r) => r.previousRunId === run.id && !r.recalledTo);

interface Plan {
  task: TaskState;
  run: NodeRun;
  /** Set when the node was completed: the run to cancel. */
  next: NodeRun | null;
}

function plan(engine: Engine, input: m.RecallInput): Plan {
  requireNotEnded(engine);
  if (engine.status !== 'active') fault('INVALID_STATE', `The instance is ${engine.status}: recall needs it running`);
  const task = findTask(engine, input.taskId);
  if (
    (task.kind !== 'approval' && task.kind !== 'handle') ||
    (task.result !== 'approved' && task.result !== 'completed')
  )
    fault(
      'INVALID_STATE',
      `Only an approval can be recalled: the task is ${task.status}${task.result ? ` (${task.result})` : ''}`,
    );
  if (task.assignee !== input.actor.userId)
    fault('NOT_ASSIGNEE', 'Only the person who approved the task may recall it');
  requireSwitch(engine, task, 'recall');
  if (task.position || addedSigners(engine, task.id, true).length)
    fault('INVALID_STATE', 'An approval with added signers (or by an added signer) cannot be recalled');
  const run = engine.runs[task.runId];
  if (!run) fault('INVALID_STATE', 'The task belongs to no node activation');

  if (run.outcome === null) {
    if (run.oneAtATime) {
      const acted = laterBallots(engine, run, task).flatMap(actorsOn);
      if (acted.length) refuseActed(acted, 'the next ballots of this node');
    }
    return { task, run, next: null };
  }
  if (run.outcome !== 'approved' && run.outcome !== 'completed')
    fault('INVALID_STATE', `The node's activation ended ${run.outcome}: there is nothing to recall`);
  if (run.decidedBy !== input.actor.userId) {
    if (run.decidedBy) refuseActed([run.decidedBy], 'this node after you (their decision completed it)');
    fault('INVALID_STATE', 'The node was completed automatically, not by this approval');
  }
  const next = nextRunOf(engine, run);
  const token = engine.tokens[run.tokenId];
  if (!next || !token || next.tokenId !== token.id)
    fault(
      'INVALID_STATE',
      'The flow has moved past the next approval node (or into parallel branches): recall is no longer possible',
    );
  if (next.outcome !== null) {
    const acted = [...(next.decidedBy ? [next.decidedBy] : []), ...tasksOf(engine, next).flatMap(actorsOn)];
    if (acted.length) refuseActed(acted, `${next.nodeId}, the node this approval led to`);
    fault(
      'INVALID_STATE',
      `${next.nodeId}, the node this approval led to, has already passed: recall is no longer possible`,
    );
  }
  if (!token.parked || token.nodeId !== next.nodeId)
    fault('INVALID_STATE', 'The flow is still moving on from this approval: try again in a moment');
  const acted = tasksOf(engine, next).flatMap(actorsOn);
  if (acted.length) refuseActed(acted, `the tasks of ${next.nodeId} this approval created`);
  return { task, run, next };
}

/** A closed task opens again (same id), with a fresh due date when it becomes active. */
function reopen(engine: Engine, run: NodeRun, task: TaskState, status: TaskStatus) {
  task.result = null;
  task.endTime = null;
  task.comment = null;
  const cfg = config(engine.node(run.nodeId));
  task.dueDate = status === 'active' && task.kind !== 'delay' ? dueDateFor(engine, cfg) : null;
  engine.setStatus(task, status);
  if (status === 'active') watchDue(engine, run, task, cfg);
}

/** Who loses an open task to the recall: its assignee or, for a pool, its named candidates. */
const holdersOf = (t: TaskState) => (t.assignee ? [t.assignee] : t.candidates.userIds);

export function registerRecall(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  taskAction(
    m.recall,
    (input) => void plan(engine, input),
    (input) => {
      const { task, run, next } = plan(engine, input);
      const affected: TaskState[] = [];
      if (!next) {
        // A ballot of an open node: on a one-at-a-time node, the next turn goes back to waiting.
        if (run.oneAtATime)
          for (const t of laterBallots(engine, run, task))
            if (t.status === 'active') {
              affected.push(t);
              t.dueDate = null;
              engine.setStatus(t, 'waiting');
            }
        reopen(engine, run, task, 'active');
      } else {
        affected.push(...tasksOf(engine, next).filter((t) => engine.isOpen(t) && t.id !== next.parentTaskId));
        engine.cancelRun(next);
        next.outcome = 'cancelled';
        next.recalledTo = run.id;
        engine.tokens[run.tokenId].resumeRun = run.id;
        const at = engine.completedApprovals.lastIndexOf(run.nodeId);
        if (at >= 0) engine.completedApprovals.splice(at, 1);
        run.outcome = null;
        run.decidedBy = null;
        run.comment = null;
        reopen(engine, run, task, 'active');
        for (const c of run.closedByOutcome ?? []) reopen(engine, run, engine.tasks[c.id], c.status);
        run.closedByOutcome = undefined;
        if (run.parentTaskId) reopen(engine, run, engine.tasks[run.parentTaskId], 'waiting');
      }
      engine.trail(
        'recall',
        trailOf(task, input.actor, input.reason ?? null, {
          scope: next ? 'node' : 'ballot',
          ...(next
            ? { from: next.nodeId, cancelled: affected.map((t) => t.id) }
            : { waiting: affected.map((t) => t.id) }),
          reason: input.reason ?? null,
        }),
      );
      for (const userId of new Set(affected.flatMap(holdersOf)))
        engine.notify(userId, 'task_recalled', task.id, {
          activityId: task.activityId,
          by: input.actor.userId,
          ...(next ? { cancelledAt: next.nodeId } : {}),
        });
    },
  );
}
