// Stuck instances, re-drive, force-resume and delete (docs/monitoring.md). Mounted at
// /api/v1/workflow/process-instances before the instance router, so /stuck and /batch are
// matched before /{id}.
import * as admin from '../../services/instance-admin.js';
import * as monitoring from '../../services/monitoring.js';
import { Permissions } from '../../services/permissions.js';
import { json, jsonBody, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { need } from '../middleware/auth.js';
import { IdParam } from './instances.schemas.js';
import * as s from './instance-admin.schemas.js';
import type { AppDeps } from '../context.js';
import { idempotency, IdempotencyHeaders } from '../idempotency.js';

const tags = ['process-instances'];
const optionalBody = <T>(schema: T) => ({ required: false, content: { 'application/json': { schema } } }) as any;

export function instanceAdminRoutes(deps: AppDeps) {
  const r = createRouter();

  r.openapi(
    defineRoute({
      method: 'get', path: '/stuck', tags,
      summary: 'Stuck instances (workflow:monitor or workflow:instance:manage): failed ones, and active ones nobody and nothing will move on',
      request: { query: s.StuckQuery }, responses: { 200: json(page(s.StuckInstance)) },
    }),
    async (c) => {
      const p = need(c, Permissions.MONITOR, Permissions.INSTANCE_MANAGE);
      return c.json(ok(await monitoring.listStuck(deps, p, c.req.valid('query'))), 200);
    },
  );

  for (const [action, summary] of [
    ['re-drive', 'Re-drive (workflow:admin): a failed node runs again; a userTask nobody can act on resolves its approvers again (never duplicating open tasks)'],
    ['force-resume', 'Force-resume (workflow:admin): a fork/join whose waiting branches are all stuck or failed moves on past its join; 409 on a linear instance or while branches are open'],
  ] as const) {
    r.openapi(
      defineRoute({ method: 'post', path: `/{id}/${action}`, tags, summary, request: { params: IdParam, headers: IdempotencyHeaders, body: optionalBody(s.RepairBody) }, responses: { 200: json(s.RepairResult) } }),
      async (c) => {
        const p = need(c, Permissions.ADMIN);
        const body = ((c.req as any).valid('json') ?? {}) as { reason?: string };
        return c.json(ok(await admin.repair(deps, p, c.req.valid('param').id, action, body, await idempotency(c, body))), 200);
      },
    );
  }

  // Before DELETE /{id}.
  r.openapi(
    defineRoute({
      method: 'delete', path: '/batch', tags,
      summary: 'Delete several instances; answers per id (the same rules as DELETE /{id})',
      request: { body: jsonBody(s.BatchDeleteBody) }, responses: { 200: json(s.BatchDeleteResult) },
    }),
    async (c) => c.json(ok(await admin.deleteInstances(deps, c.get('principal'), c.req.valid('json').ids)), 200),
  );
  r.openapi(
    defineRoute({
      method: 'delete', path: '/{id}', tags,
      summary: 'Delete a draft (its initiator) or an ended instance (workflow:admin) with its tasks, trail, cc, comments and notifications; a running instance is 409',
      request: { params: IdParam }, responses: { 200: json(s.Deleted) },
    }),
    async (c) => c.json(ok(await admin.deleteInstance(deps, c.get('principal'), c.req.valid('param').id)), 200),
  );
  return r;
}
