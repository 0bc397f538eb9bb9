// Task queries; the actions on a task are in ./task-actions.ts.
import * as tasks from '../../services/tasks.js';
import { taskView } from '../../services/read-model.js';
import { json, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import * as s from './tasks.schemas.js';
import type { AppDeps } from '../../context.js';

const tags = ['tasks'];

export function taskRoutes(deps: AppDeps) {
  const r = createRouter();
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Query tasks (runtime and archive)',
      request: { query: s.TaskQuery },
      responses: { 200: json(page(s.Task)) },
    }),
    async (c) => c.json(ok(await tasks.listTasks(deps, c.get('principal'), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/history',
      tags,
      summary: 'Historical tasks (archive tables)',
      request: { query: s.TaskQuery },
      responses: { 200: json(page(s.Task)) },
    }),
    async (c) => c.json(ok(await tasks.listTasks(deps, c.get('principal'), c.req.valid('query'), 'archive')), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/history/{id}',
      tags,
      summary: 'One historical task',
      request: { params: s.IdParam },
      responses: { 200: json(s.Task) },
    }),
    async (c) =>
      c.json(
        ok(taskView(await tasks.getTask(deps, c.get('principal'), c.req.valid('param').id, { archivedOnly: true }))),
        200,
      ),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'One task, running or archived',
      request: { params: s.IdParam },
      responses: { 200: json(s.Task) },
    }),
    async (c) => c.json(ok(taskView(await tasks.getTask(deps, c.get('principal'), c.req.valid('param').id))), 200),
  );
  return r;
}
