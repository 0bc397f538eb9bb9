// Withdraw through a task, urge, and suspend/activate a task or the whole instance.
import * as m from '../messages.js';
import { type Engine } from './engine.js';
import { onUpdate } from './handlers.js';
import { fault, findTask, requireRunning, requireSwitch, settle, requireLive } from './actions.js';
import { evaluate } from './user-task.js';
import { URGE_INTERVAL_MS, refuse, trailOf, runOf, defineTaskAction } from './task-rules.js';
import type { TaskState } from './types.js';
import { ending } from '../../dsl/ending.js';

// ---------- suspension ----------

/** Initiator with the process switch `suspend`, or workflow:instance:manage. */
function requireSuspender(engine: Engine, actor: m.Actor) {
  if (actor.manage) return;
  if (actor.userId !== engine.info.initiatorId)
    fault('NOT_INITIATOR', 'Only the initiator or workflow:instance:manage may suspend or activate');
  requireSwitch(engine, null, 'suspend');
}

const handlersOf = (task: TaskState) => (task.assignee ? [task.assignee] : task.candidates.userIds);

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

export function registerSuspensionActions(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  // withdraw (through a task) and urge
  taskAction(
    m.withdrawTask,
    (input) => {
      findTask(engine, input.taskId);
      if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
      if (input.actor.userId !== engine.info.initiatorId)
        fault('NOT_INITIATOR', 'Only the initiator may withdraw the application');
      requireSwitch(engine, null, 'withdraw');
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      const notified = new Set(engine.openTasks().flatMap(handlersOf));
      notified.delete(input.actor.userId);
      for (const userId of notified) engine.notify(userId, 'instance_withdrawn', null, { by: input.actor.userId });
      engine.trail('withdraw', trailOf(task, input.actor, input.reason, { via: 'task' }));
      engine.end('terminated', ending('end.withdrawn', {}), 'withdrawn');
    },
  );

  taskAction(
    m.urge,
    (input) => {
      const task = requireLive(engine, input);
      if (task.status === 'waiting') fault('INVALID_STATE', "It is not this task's turn yet: nobody to urge");
      if (input.actor.userId !== engine.info.initiatorId && !input.actor.monitor)
        fault('NOT_INITIATOR', 'Only the initiator (or workflow:monitor) may urge');
      requireSwitch(engine, null, 'urge');
      const last = engine.lastUrge[task.id];
      if (last && Date.parse(engine.now()) - Date.parse(last) < URGE_INTERVAL_MS) {
        const retryAfter = Math.ceil((Date.parse(last) + URGE_INTERVAL_MS - Date.parse(engine.now())) / 1000);
        refuse('RATE_LIMITED', `This task was urged at ${last}: at most once per 10 minutes`, {
          retryAfterSeconds: retryAfter,
        });
      }
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      engine.lastUrge[task.id] = engine.now();
      const who = handlersOf(task);
      for (const userId of who)
        engine.notify(userId, 'urge', task.id, {
          activityId: task.activityId,
          name: task.name,
          by: input.actor.userId,
          message: input.message ?? null,
        });
      engine.trail(
        'urge',
        trailOf(task, input.actor, input.message, {
          notified: who,
          candidates: task.assignee ? null : task.candidates,
        }),
      );
    },
  );

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
          if (engine.ended) fault('INVALID_STATE', `The instance has ended (${engine.status})`);
          if (engine.status !== s.from) fault('INVALID_STATE', s.refusal(engine.status));
          requireSuspender(engine, input.actor);
        },
      },
    );
}
