// Approve and reject (twins: one validator, one handler, registered in one loop), with applyDecision, which complete shares.
// Each validator refuses an illegal action before anything is written to history; each handler
// applies the action, then returns once the instance is settled (next tasks exist or it ended)
// and the read model has it.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { onUpdate } from '../handlers.js';
import { fault, requireActionable, requireLive, requireSwitch } from '../guards.js';
import { decide } from '../user-task/ballots.js';
import type { TaskState } from '../types.js';
import { settle } from './settle.js';

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

export function applyDecision(engine: Engine, input: m.DecisionInput, decision: 'approve' | 'reject') {
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

export function registerDecisions(engine: Engine) {
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
}
