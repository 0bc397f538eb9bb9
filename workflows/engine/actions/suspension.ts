// Suspend and activate (twins), of one task (suspendTask, activateTask) or of the whole instance (suspendInstance, activateInstance).
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { onUpdate } from '../handlers.js';
import { fault, findTask, requireLive, requireNotEnded, requireRunning, requireSuspender, runOf } from '../guards.js';
import { evaluate } from '../user-task/ballots.js';
import { defineTaskAction, settle } from './settle.js';
import { handlersOf, trailOf } from './common.js';

function suspendInstance(engine: Engine, actor: m.Actor, reason: string | null) {
  engine.setInstanceStatus('suspended');
  for (const t of engine.openTasks()) {
    if (t.status === 'suspended') continue;
    t.suspendedFrom = t.status;
    t.status = 'suspended';
    engine.changed(t);
    for (const userId of handlersOf(t)) engine.notify(userId, 'instance_suspended', t.id, { activityId: t.activityId });
  }
  engine.trail('suspend', { userId: actor.userId, comment: reason, detail: { scope: 'instance' } });
}

function activateInstance(engine: Engine, actor: m.Actor, reason: string | null) {
  engine.setInstanceStatus('active');
  for (const t of engine.openTasks()) {
    if (t.status !== 'suspended' || t.held) continue;
    t.status = t.suspendedFrom ?? 'active';
    t.suspendedFrom = null;
    engine.changed(t);
    for (const userId of handlersOf(t)) engine.notify(userId, 'instance_activated', t.id, { activityId: t.activityId });
  }
  engine.trail('activate', { userId: actor.userId, comment: reason, detail: { scope: 'instance' } });
}

/** Suspend and activate the whole instance: each from one instance status only. */
const instanceSwitches = [
  {
    def: m.suspendInstance,
    from: 'active',
    apply: suspendInstance,
    refusal: (status: string) => `The instance is ${status}: only an active instance can be suspended`,
  },
  {
    def: m.activateInstance,
    from: 'suspended',
    apply: activateInstance,
    refusal: (status: string) => `The instance is ${status}, not suspended`,
  },
];

export function registerSuspension(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  // suspend / activate: one task, or the whole instance
  taskAction(
    m.suspendTask,
    (input) => {
      requireLive(engine, input);
      requireSuspender(engine, input.actor);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.suspendedFrom = task.status;
      task.status = 'suspended';
      task.held = true;
      engine.changed(task);
      engine.trail('suspend', trailOf(task, input.actor, input.reason, { scope: 'task' }));
      for (const userId of handlersOf(task))
        engine.notify(userId, 'task_suspended', task.id, { activityId: task.activityId });
    },
  );

  taskAction(
    m.activateTask,
    (input) => {
      requireRunning(engine);
      const task = findTask(engine, input.taskId);
      if (task.status !== 'suspended') fault('INVALID_STATE', `The task is ${task.status}, not suspended`);
      requireSuspender(engine, input.actor);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      task.status = task.suspendedFrom ?? 'active';
      task.suspendedFrom = null;
      task.held = false;
      engine.changed(task);
      engine.trail('activate', trailOf(task, input.actor, input.reason, { scope: 'task' }));
      for (const userId of handlersOf(task))
        engine.notify(userId, 'task_activated', task.id, { activityId: task.activityId });
      const run = runOf(engine, task);
      if (run) evaluate(engine, run, null);
    },
  );
  for (const s of instanceSwitches)
    onUpdate(
      engine,
      s.def,
      (input) => {
        s.apply(engine, input.actor, input.reason ?? null);
        return settle(engine, null);
      },
      {
        validator: (input) => {
          requireNotEnded(engine);
          if (engine.status !== s.from) fault('INVALID_STATE', s.refusal(engine.status));
          requireSuspender(engine, input.actor);
        },
      },
    );
}
