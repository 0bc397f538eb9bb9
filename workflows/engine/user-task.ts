// The userTask node's entry point (startUserTask): resolve the approvers, then create the ballots.
// The parts are in user-task/: config.ts (configuration, thresholds, due dates), assignment.ts
// (approver rules, inputs ahead, assignmentOf), auto-approval.ts (self and repeat approval),
// empty-approver.ts (emptyApproverPolicy), ballots.ts (decide, evaluate, due-date timers).
import type { DslNode } from '../../dsl/index.js';
import { autoApproveRepeated } from './features.js';
import { approversAheadOrInFlight } from './approvers-ahead.js';
import type { ApproveMode, Engine, NodeRun } from './engine.js';
import { local } from './activities.js';
import { nodeName } from './details.js';
import type { TaskKind } from './types.js';
import { config, dueDateFor, thresholdFor } from './user-task/config.js';
import { approverInput, assignmentOf, ballotWhy } from './user-task/assignment.js';
import { approvedBefore, repeatApproval, repeatSetting } from './user-task/auto-approval.js';
import { applyEmptyPolicy } from './user-task/empty-approver.js';
import { evaluate, watchDue } from './user-task/ballots.js';

/** Creates the tasks of a userTask activation. The returned run is decided by `decide`. */
export async function startUserTask(engine: Engine, tokenId: string, node: DslNode): Promise<NodeRun> {
  const cfg = config(node);
  const kind: TaskKind = cfg.kind === 'handle' ? 'handle' : 'approval';
  const input = approverInput(engine, node);
  const resolved =
    (await approversAheadOrInFlight(engine, input)) ??
    (engine.offline ? await engine.offline.stop() : undefined) ??
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
