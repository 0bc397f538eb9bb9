// ReturnTask: the assignee sends the flow back to the most recently completed approval node before this one.
import { previousApprovalNode } from '../../../dsl/graph.js';
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { fault, refuse, requireOwnTask, requireSwitch, runOf, tasksOfActivation } from '../guards.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

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

export function registerReturn(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  taskAction(
    m.returnTask,
    (input) => validateReturn(engine, input),
    (input) => applyReturn(engine, input),
  );
}
