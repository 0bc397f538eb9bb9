// Stuck instances, re-drive, force-resume and delete (docs/monitoring.md). Mounted at
// /api/v1/workflow/process-instances before the instance router, so /stuck and /batch are
// matched before /{id}.
import * as admin from '../../services/instance-admin.js';
import * as monitoring from '../../services/monitoring.js';
import { Permissions } from '../../services/permissions.js';
import { json, jsonBody, ok, optionalBody } from '../envelope.js';
import { createRouter, defineRoute, pagedGet } from '../router.js';
import { requirePermission } from '../middleware/auth.js';
import { IdParam } from './instances.schemas.js';
import * as s from './instance-admin.schemas.js';
import type { AppDeps } from '../../context.js';
import { IdempotencyHeaders } from '../idempotency.js';
import { actionInput } from '../request.js';

const tags = ['process-instances'];

export function instanceAdminRoutes(deps: AppDeps) {
  const r = createRouter();

  pagedGet(
    r,
    {
      path: '/stuck',
      tags,
      middleware: [requirePermission(Permissions.MONITOR, Permissions.INSTANCE_MANAGE)],
      summary:
        'Stuck instances (workflow:monitor or workflow:instance:manage): failed ones, and active ones nobody and nothing will move on',
      query: s.StuckQuery,
      row: s.StuckInstance,
    },
    (p, q) => monitoring.listStuck(deps, p, q),
  );

  for (const [action, summary] of [
    [
      're-drive',
      'Re-drive (workflow:admin): a failed node runs again; a userTask nobody can act on resolves its approvers again (never duplicating open tasks)',
    ],
    [
      'force-resume',
      'Force-resume (workflow:admin): a fork/join whose waiting branches are all stuck or failed moves on past its join; 409 on a linear instance or while branches are open',
    ],
  ] as const) {
    r.openapi(
      defineRoute({
        middleware: [requirePermission(Permissions.ADMIN)],
        method: 'post',
        path: `/{id}/${action}`,
        tags,
        summary,
        request: { params: IdParam, headers: IdempotencyHeaders, body: optionalBody(s.RepairBody) },
        responses: { 200: json(s.RepairResult) },
      }),
      async (c) => {
        const { id, body, key } = await actionInput(c);
        return c.json(ok(await admin.repair(deps, c.get('principal'), id, action, body, key)), 200);
      },
    );
  }

  // Before DELETE /{id}.
  r.openapi(
    defineRoute({
      method: 'delete',
      path: '/batch',
      tags,
      summary: 'Delete several instances; answers per id (the same rules as DELETE /{id})',
      request: { body: jsonBody(s.BatchDeleteBody) },
      responses: { 200: json(s.BatchDeleteResult) },
    }),
    async (c) => c.json(ok(await admin.deleteInstances(deps, c.get('principal'), c.req.valid('json').ids)), 200),
  );
  r.openapi(
    defineRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      summary:
        'Delete a draft (its initiator) or an ended instance (workflow:admin) with its tasks, trail, cc, comments and notifications; a running instance is 409',
      request: { params: IdParam },
      responses: { 200: json(s.Deleted) },
    }),
    async (c) => c.json(ok(await admin.deleteInstance(deps, c.get('principal'), c.req.valid('param').id)), 200),
  );
  return r;
}
