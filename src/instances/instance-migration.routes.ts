// Migration of running instances to another version (docs/operations.md, "Migrating instances").
// Mounted at /api/v1/workflow/process-instances before the instance router: POST /migrate (the
// batch) is a literal path next to /{id}/migrate.
import * as migration from './instance-migration.js';
import { Permissions } from '../permissions.js';
import { createRouter, endpoint } from '../http/router.js';
import { IdParam } from './instances.schemas.js';
import * as s from './instance-migration.schemas.js';
import type { AppDeps } from '../context.js';

const tags = ['process-instances'];

export function instanceMigrationRoutes(deps: AppDeps) {
  const r = createRouter();
  const permissions = [Permissions.ADMIN];

  endpoint(
    r,
    {
      method: 'post',
      path: '/migrate',
      tags,
      summary:
        'Migrate every running instance of a process key (and version) to a deployed version (workflow:admin); answers per instance, oldest first, at most `limit` per call',
      permissions,
      body: s.BatchMigrateBody,
      response: s.BatchMigrationResult,
    },
    ({ principal, body }) => migration.migrateInstances(deps, principal, body),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/{id}/migrate',
      tags,
      summary:
        'Migrate a running instance to another deployed version of its process (workflow:admin); dryRun answers the plan and changes nothing; repeating it is a no-op',
      permissions,
      params: IdParam,
      body: s.MigrateBody,
      idempotent: true,
      response: s.MigrationResult,
    },
    ({ principal, params, body, key }) => migration.migrateInstance(deps, principal, params.id, body, key),
  );
  return r;
}
