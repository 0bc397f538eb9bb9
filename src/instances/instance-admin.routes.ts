// Stuck instances, re-drive, force-resume and delete (docs/monitoring.md). Mounted at
// /api/v1/workflow/process-instances before the instance router, so /stuck and /batch are
// matched before /{id}.
import * as admin from './instance-admin.js';
import * as monitoring from './monitoring.js';
import { Permissions } from '../permissions.js';
import { page } from '../http/envelope.js';
import { actionEndpoints, createRouter, endpoint } from '../http/router.js';
import { IdParam } from './instances.schemas.js';
import * as s from './instance-admin.schemas.js';
import type { AppDeps } from '../context.js';

const tags = ['process-instances'];

export function instanceAdminRoutes(deps: AppDeps) {
  const r = createRouter();

  endpoint(
    r,
    {
      method: 'get',
      path: '/stuck',
      tags,
      summary:
        'Stuck instances (workflow:monitor or workflow:instance:manage): failed ones, and active ones nobody and nothing will move on',
      permissions: [Permissions.MONITOR, Permissions.INSTANCE_MANAGE],
      query: s.StuckQuery,
      response: page(s.StuckInstance),
    },
    ({ principal, query }) => monitoring.listStuck(deps, principal, query),
  );

  actionEndpoints(
    r,
    [
      [
        're-drive',
        'Re-drive (workflow:admin): a failed node runs again; a userTask nobody can act on resolves its approvers again (never duplicating open tasks)',
        'A node whose call is still being attempted (a service function, `serviceTask` or `httpCall` that Temporal ' +
          'retries, or whose task queue no worker has polled yet) is running, not failed: 409 `INVALID_STATE` ' +
          '"The instance is not stuck: <node> (<type>) waits for an external result", and nothing changes. Once the ' +
          'last attempt has failed (the instance is `failed`, its `failure` names the node), a re-drive calls the ' +
          'function again: a fresh set of attempts with the same `callId` (`<workflowId>:<nodeId>:<visit>`, the ' +
          'workflow id being `approval-<tenantId>-<instanceId>`; docs/service-functions.md). With nothing to ' +
          're-drive, the 409 names what the instance waits on.',
      ],
      [
        'force-resume',
        'Force-resume (workflow:admin): a fork/join whose waiting branches are all stuck or failed moves on past its join; 409 on a linear instance or while branches are open',
      ],
    ],
    {
      tags,
      permissions: [Permissions.ADMIN],
      params: IdParam,
      body: s.RepairBody,
      optionalBody: true,
      idempotent: true,
      response: s.RepairResult,
    },
    (action, { principal, params, body, key }) => admin.repair(deps, principal, params.id, action, body, key),
  );

  // Before DELETE /{id}.
  endpoint(
    r,
    {
      method: 'delete',
      path: '/batch',
      tags,
      summary: 'Delete several instances; answers per id (the same rules as DELETE /{id})',
      body: s.BatchDeleteBody,
      response: s.BatchDeleteResult,
    },
    ({ principal, body }) => admin.deleteInstances(deps, principal, body.ids),
  );
  endpoint(
    r,
    {
      method: 'delete',
      path: '/{id}',
      tags,
      summary:
        'Delete a draft (its initiator) or an ended instance (workflow:admin) with its tasks, trail, cc, comments and notifications; a running instance is 409',
      params: IdParam,
      response: s.Deleted,
    },
    ({ principal, params }) => admin.deleteInstance(deps, principal, params.id),
  );
  return r;
}
