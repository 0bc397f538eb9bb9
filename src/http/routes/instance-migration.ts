// Migration of running instances to another version (docs/operations.md, "Migrating instances").
// Mounted at /api/v1/workflow/process-instances before the instance router: POST /migrate (the
// batch) is a literal path next to /{id}/migrate.
import * as migration from '../../services/instance-migration.js';
import { Permissions } from '../../services/permissions.js';
import { json, jsonBody, ok } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { requirePermission } from '../middleware/auth.js';
import { IdParam } from './instances.schemas.js';
import * as s from './instance-migration.schemas.js';
import type { AppDeps } from '../../context.js';
import { IdempotencyHeaders } from '../idempotency.js';
import { actionInput } from '../request.js';

const tags = ['process-instances'];

export function instanceMigrationRoutes(deps: AppDeps) {
  const r = createRouter();

  r.openapi(
    defineRoute({
      middleware: [requirePermission(Permissions.ADMIN)],
      method: 'post',
      path: '/migrate',
      tags,
      summary:
        'Migrate every running instance of a process key (and version) to a deployed version (workflow:admin); answers per instance, oldest first, at most `limit` per call',
      request: { body: jsonBody(s.BatchMigrateBody) },
      responses: { 200: json(s.BatchMigrationResult) },
    }),
    async (c) => c.json(ok(await migration.migrateInstances(deps, c.get('principal'), c.req.valid('json'))), 200),
  );

  r.openapi(
    defineRoute({
      middleware: [requirePermission(Permissions.ADMIN)],
      method: 'post',
      path: '/{id}/migrate',
      tags,
      summary:
        'Migrate a running instance to another deployed version of its process (workflow:admin); dryRun answers the plan and changes nothing; repeating it is a no-op',
      request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.MigrateBody) },
      responses: { 200: json(s.MigrationResult) },
    }),
    async (c) => {
      const { id, body, key } = await actionInput(c);
      return c.json(ok(await migration.migrateInstance(deps, c.get('principal'), id, body, key)), 200);
    },
  );
  return r;
}
