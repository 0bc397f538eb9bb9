// AddSign: the assignee adds signers before, after or beside its own ballot (docs/contract.md#action-rules).
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { fault, requireNewToNode, requireOwnTask, requireSwitch, runOf } from '../guards.js';
import { config, dueDateFor } from '../user-task/config.js';
import { watchDue } from '../user-task/ballots.js';
import { defineTaskAction } from './settle.js';
import { trailOf } from './common.js';

export function registerAddSign(engine: Engine) {
  const taskAction = defineTaskAction(engine);

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
}
