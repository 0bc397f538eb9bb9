// Task queries; the actions on a task are in ./task-actions.ts.
import * as tasks from '../../services/tasks.js';
import { taskView } from '../../services/read-model.js';
import { page } from '../envelope.js';
import { createRouter, endpoint } from '../router.js';
import * as s from './tasks.schemas.js';
import { taskIn } from '../answer-words.js';
import { requestLocale } from '../locale.js';
import type { AppDeps } from '../../context.js';

const tags = ['tasks'];

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
