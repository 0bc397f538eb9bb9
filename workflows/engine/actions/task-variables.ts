// SetTaskVariables and deleteTaskVariables (twins): the assignee writes the task's fields the node's form permissions let them write.
import * as m from '../../messages.js';
import type { Engine } from '../engine.js';
import { onUpdate } from '../handlers.js';
import { fault, refuse, requireActionable } from '../guards.js';
import type { TaskState } from '../types.js';
import { defineTaskAction, settle } from './settle.js';
import { trailOf } from './common.js';

function requireWritable(engine: Engine, task: TaskState, names: string[]) {
  const perms = engine.node(task.activityId).additionalInfo?.formPermissions as Record<string, string> | undefined;
  const denied = names.filter((n) => perms?.[n] === 'r' || perms?.[n] === 'h');
  if (denied.length)
    refuse('FIELD_NOT_WRITABLE', `Not writable at this node: ${denied.join(', ')}`, { fields: denied });
}

export function registerTaskVariables(engine: Engine) {
  const taskAction = defineTaskAction(engine);

  // task variables: the assignee writes the fields the node lets them write
  taskAction(
    m.setTaskVariables,
    (input) => {
      const task = requireActionable(engine, input);
      const names = Object.keys(input.variables ?? {});
      if (names.length === 0) fault('VALIDATION_FAILED', 'variables must name at least one variable');
      requireWritable(engine, task, names);
    },
    (input) => {
      const task = engine.tasks[input.taskId];
      Object.assign(task.variables, input.variables);
      engine.changed(task);
      engine.trail(
        'system',
        trailOf(task, input.actor, 'Task variables set', { taskVariables: { set: Object.keys(input.variables) } }),
      );
    },
  );

  onUpdate(
    engine,
    m.deleteTaskVariables,
    (input) => {
      const task = engine.tasks[input.taskId];
      for (const name of input.names) delete task.variables[name];
      engine.changed(task);
      engine.trail(
        'system',
        trailOf(task, input.actor, 'Task variables deleted', { taskVariables: { deleted: input.names } }),
      );
      return settle(engine, input.taskId);
    },
    {
      validator: (input) => {
        const task = requireActionable(engine, input);
        requireWritable(engine, task, input.names);
        const missing = input.names.filter((n) => !Object.hasOwn(task.variables, n));
        if (missing.length) fault('NOT_FOUND', `No task variable ${missing.join(', ')}`);
      },
    },
  );
}
