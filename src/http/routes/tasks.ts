import * as tasks from '../../services/tasks.js';
import * as m from '../../../workflows/messages.js';
import { Permissions } from '../../services/permissions.js';
import { taskView } from '../../services/read-model.js';
import { json, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { need } from '../middleware/auth.js';
import * as s from './tasks.schemas.js';
import { idempotency, IdempotencyHeaders } from '../idempotency.js';
import type { AppDeps } from '../context.js';

const tags = ['tasks'];
const optionalBody = <T>(schema: T) => ({ required: false, content: { 'application/json': { schema } } }) as any;

export function taskRoutes(deps: AppDeps) {
  const r = createRouter();
  const principal = (c: any) => c.get('principal');

  r.openapi(
    defineRoute({ method: 'get', path: '/', tags, summary: 'Query tasks (runtime and archive)', request: { query: s.TaskQuery }, responses: { 200: json(page(s.Task)) } }),
    async (c) => c.json(ok(await tasks.listTasks(deps, principal(c), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({ method: 'get', path: '/history', tags, summary: 'Historical tasks (archive tables)', request: { query: s.TaskQuery }, responses: { 200: json(page(s.Task)) } }),
    async (c) => c.json(ok(await tasks.listTasks(deps, principal(c), c.req.valid('query'), 'archive')), 200),
  );
  r.openapi(
    defineRoute({ method: 'get', path: '/history/{id}', tags, summary: 'One historical task', request: { params: s.IdParam }, responses: { 200: json(s.Task) } }),
    async (c) => c.json(ok(taskView(await tasks.getTask(deps, principal(c), c.req.valid('param').id, { archivedOnly: true }))), 200),
  );
  r.openapi(
    defineRoute({ method: 'get', path: '/{id}', tags, summary: 'One task, running or archived', request: { params: s.IdParam }, responses: { 200: json(s.Task) } }),
    async (c) => c.json(ok(taskView(await tasks.getTask(deps, principal(c), c.req.valid('param').id))), 200),
  );

  for (const [path, def, summary] of [
    ['approve', m.approve, 'Approve (the assignee; the delegatee while delegated)'],
    ['reject', m.reject, 'Reject: the node\'s reject strategy applies'],
    ['complete', m.complete, 'Complete a handle or resubmit task (an admin may end a delay early)'],
  ] as const) {
    r.openapi(
      defineRoute({ method: 'post', path: `/{id}/${path}`, tags, summary, request: { params: s.IdParam, headers: IdempotencyHeaders, body: optionalBody(s.DecisionBody) }, responses: { 200: json(s.ActionResult) } }),
      async (c) => {
        const p = need(c, Permissions.OPERATE);
        const body = ((c.req as any).valid('json') ?? {}) as { comment?: string; variables?: Record<string, unknown> };
        return c.json(ok(await tasks.taskAction(deps, p, c.req.valid('param').id, def, body, await idempotency(c, body))), 200);
      },
    );
  }
  return r;
}
