// A userTask's ballots decided: decide, ballotState, added signers' turns, evaluate by approve mode, and the due-date timer (watchDue) that decides for the approver.
// watchDue lives here, not beside dueDateFor (config.ts): it re-evaluates the node when it decides, and
// evaluate starts the timer of the next turn, so the two would import each other from separate files.
import { said } from '../../../dsl/history.js';
import type { Engine, NodeRun } from '../engine.js';
import { shortTime } from '../details.js';
import type { TaskResult, TaskState } from '../types.js';
import { config, dueDateFor, type UserTaskConfig } from './config.js';

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
    const closed = await engine.paths.wait(() => engine.ended || !engine.isOpen(task) || run.outcome !== null, ms, {
      summary,
    });
    if (closed) return;
    // Suspended instances are left out of overdue handling until they are active again.
    await engine.paths.wait(() => engine.ended || !engine.isOpen(task) || engine.status === 'active');
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
