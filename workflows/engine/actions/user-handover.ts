// HandoverUser: a leaver's work in this instance moves to the receiver (docs/task-actions.md#handing-over-a-leavers-work).
// One Update moves everything the user holds in this instance, each item as a `transfer` trail
// entry. It moves only what the user still holds, so a retried handover moves nothing twice.
import { upsertSearchAttributes } from '@temporalio/workflow';
import * as m from '../../messages.js';
import { Initiator } from '../../search-attributes.js';
import type { Engine } from '../engine.js';
import { onUpdate } from '../handlers.js';
import { fault, requireAdmin, requireNotEnded, runOf, tasksOfActivation } from '../guards.js';
import type { HandoverMoved, TaskState } from '../types.js';
import { settle } from './settle.js';
import { trailOf } from './common.js';

function validate(engine: Engine, input: m.UserHandoverInput) {
  requireAdmin(input.actor);
  requireNotEnded(engine);
  if (!input.fromUserId || !input.toUserId) fault('VALIDATION_FAILED', 'fromUserId and toUserId are required');
  if (input.fromUserId === input.toUserId) fault('INVALID_TARGET', 'The receiver is the user handing over');
}

/** The receiver already holds another open task of the same activation: a second ballot is not given. */
function receiverBusy(engine: Engine, task: TaskState, to: string): boolean {
  const run = runOf(engine, task);
  return !!run && tasksOfActivation(engine, run).some((t) => t.id !== task.id && engine.isOpen(t) && t.assignee === to);
}

function apply(engine: Engine, input: m.UserHandoverInput): HandoverMoved {
  const { fromUserId: from, toUserId: to, actor } = input;
  const reason = input.reason ?? null;
  const moved: HandoverMoved = { tasks: 0, delegated: 0, poolMemberships: 0, instances: 0, skipped: [] };
  const record = (task: TaskState | null, kind: string, extra: Record<string, unknown> = {}) => {
    const detail = { handover: true, kind, from, to, reason, ...extra };
    if (task) engine.trail('transfer', trailOf(task, actor, reason, detail));
    else engine.trail('transfer', { userId: actor.userId, comment: reason, detail });
  };

  if (input.scope.tasks) {
    for (const task of engine.openTasks()) {
      if (task.assignee === from) {
        if (receiverBusy(engine, task, to)) {
          moved.skipped.push({ taskId: task.id, reason: `${to} already holds a task of node ${task.activityId}` });
          continue;
        }
        const delegated = task.owner !== null;
        task.assignee = to;
        if (task.claimedBy === from) task.claimedBy = to;
        // The receiver had delegated it to the leaver: it is simply theirs again.
        if (task.owner === to) task.owner = null;
        engine.changed(task);
        record(task, delegated ? 'delegated' : 'task', delegated ? { owner: task.owner } : {});
        if (delegated) moved.delegated++;
        else moved.tasks++;
        if (task.status === 'active')
          engine.notify(to, 'task_assigned', task.id, { activityId: task.activityId, name: task.name });
      } else if (task.owner === from) {
        // Delegated by the leaver: the delegation now returns to the receiver.
        task.owner = task.assignee === to ? null : to;
        engine.changed(task);
        record(task, 'owner', { delegatee: task.assignee });
        moved.tasks++;
      }
    }
  }

  if (input.scope.pools) {
    for (const task of engine.openTasks()) {
      const ids = task.candidates.userIds;
      if (!ids.includes(from)) continue;
      task.candidates = { ...task.candidates, userIds: [...new Set(ids.map((u) => (u === from ? to : u)))] };
      engine.changed(task);
      record(task, 'pool');
      moved.poolMemberships++;
      if (task.status === 'pending')
        engine.notify(to, 'task_claimable', task.id, { activityId: task.activityId, name: task.name });
    }
  }

  if (input.scope.startedInstances && engine.info.initiatorId === from) {
    engine.info.initiatorId = to;
    engine.touch();
    upsertSearchAttributes([{ key: Initiator, value: to }]);
    record(null, 'initiator');
    moved.instances++;
  }

  const total = moved.tasks + moved.delegated + moved.poolMemberships + moved.instances;
  if (total > 0) {
    engine.notify(to, 'work_handed_over', null, {
      from,
      by: actor.userId,
      reason,
      tasks: moved.tasks,
      delegated: moved.delegated,
      poolMemberships: moved.poolMemberships,
      instances: moved.instances,
    });
  }
  return moved;
}

export function registerUserHandover(engine: Engine) {
  onUpdate(engine, m.handoverUser, (input) => settle(engine, null, { handover: apply(engine, input) }), {
    validator: (input) => validate(engine, input),
  });
}
