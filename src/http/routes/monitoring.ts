// Task monitoring views (docs/monitoring.md): statistics for the caller, overdue tasks and the
// backlog by process (workflow:monitor). Mounted at /api/v1/workflow/tasks before the task
// router, so these paths are matched before /{id}.
import * as monitoring from '../../services/monitoring.js';
import { Permissions } from '../../services/permissions.js';
import { json, ok } from '../envelope.js';
import { createRouter, defineRoute, pagedGet } from '../router.js';
import { requirePermission } from '../middleware/auth.js';
import * as s from './monitoring.schemas.js';
import type { AppDeps } from '../../context.js';

const tags = ['tasks'];

export function monitoringRoutes(deps: AppDeps) {
  const r = createRouter();

  r.openapi(
    defineRoute({
      method: 'get',
      path: '/statistics',
      tags,
      summary:
        'My badges: to-do, claimable, overdue, unread cc, running applications, done today (byProcess with workflow:monitor)',
      responses: { 200: json(s.Statistics) },
    }),
    async (c) => c.json(ok(await monitoring.statistics(deps, c.get('principal'))), 200),
  );
  const middleware = [requirePermission(Permissions.MONITOR)];
  pagedGet(
    r,
    {
      path: '/overdue',
      tags,
      middleware,
      summary: 'Open tasks past their due date, oldest first (workflow:monitor); suspended instances are left out',
      query: s.OverdueQuery,
      row: s.OverdueTask,
    },
    (p, q) => monitoring.overdueTasks(deps, p, q),
  );
  pagedGet(
    r,
    {
      path: '/backlog',
      tags,
      middleware,
      summary: 'Open work by process: open, unclaimed, overdue, age of the oldest task (workflow:monitor)',
      query: s.BacklogQuery,
      row: s.BacklogRow,
    },
    (p, q) => monitoring.backlog(deps, p, q),
  );
  return r;
}
