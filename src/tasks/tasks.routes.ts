// Task queries; the actions on a task are in ./task-actions.ts.
import * as tasks from './tasks.js';
import { taskView } from '../read-model/read-model.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import * as s from './tasks.schemas.js';
import type { AssignmentReason } from '../read-model/assignment-reason.js';
import { reasonIn } from '../read-model/assignment-reason.zh-CN.js';
import { requestLocale, type ApiLocale } from '../http/locale.js';
import type { AppDeps } from '../context.js';

/** A task view: its assignment reason in `locale`. */
export function taskIn<T extends { assignmentReason: AssignmentReason | null }>(locale: ApiLocale, task: T): T {
  return locale === 'en' ? task : { ...task, assignmentReason: reasonIn(locale, task.assignmentReason) };
}

const tags = ['tasks'];

/** `/process-instances/todo` and `/done`: the caller's own tasks (mounted before the instances' `/{id}`). */
export function myTaskListRoutes(deps: AppDeps) {
  const r = createRouter();
  for (const [path, summary, list] of [
    ['/todo', 'My to-do: active tasks assigned to me and pending tasks I may claim', tasks.todo],
    ['/done', 'Tasks I closed', tasks.done],
  ] as const) {
    endpoint(
      r,
      { method: 'get', path, tags: ['process-instances'], summary, query: s.MyTasksQuery, response: page(s.Task) },
      ({ principal, query: q }) => list(deps, principal, q),
    );
  }
  return r;
}

export function taskRoutes(deps: AppDeps) {
  const r = createRouter();
  for (const [path, summary, source] of [
    ['/', 'Query tasks (runtime and archive)', undefined],
    ['/history', 'Historical tasks (archive tables)', 'archive'],
  ] as const) {
    endpoint(r, { method: 'get', path, tags, summary, query: s.TaskQuery, response: page(s.Task) }, async (i) => {
      const found = await tasks.listTasks(deps, i.principal, i.query, source);
      const locale = requestLocale(i.c);
      return { ...found, items: found.items.map((t) => taskIn(locale, t)) };
    });
  }
  for (const [path, summary, archivedOnly] of [
    ['/history/{id}', 'One historical task', true],
    ['/{id}', 'One task, running or archived', false],
  ] as const) {
    endpoint(r, { method: 'get', path, tags, summary, params: s.IdParam, response: s.Task }, async (i) =>
      taskIn(
        requestLocale(i.c),
        taskView(await tasks.getTask(deps, i.principal, i.params.id, archivedOnly ? { archivedOnly } : undefined)),
      ),
    );
  }
  return r;
}
