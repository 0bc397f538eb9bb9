// Task monitoring views (docs/monitoring.md): statistics for the caller, overdue tasks and the
// backlog by process (workflow:monitor). Mounted at /api/v1/workflow/tasks before the task
// router, so these paths are matched before /{id}.
import * as monitoring from './monitoring.js';
import { Permissions } from '../permissions.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import * as s from './monitoring.schemas.js';
import type { AppDeps } from '../context.js';

const tags = ['tasks'];

export function monitoringRoutes(deps: AppDeps) {
  const r = createRouter();

  endpoint(
    r,
    {
      method: 'get',
      path: '/statistics',
      tags,
      summary:
        'My badges: to-do, claimable, overdue, unread cc, running applications, done today (byProcess with workflow:monitor)',
      response: s.Statistics,
    },
    ({ principal }) => monitoring.statistics(deps, principal),
  );
  const permissions = [Permissions.MONITOR];
  endpoint(
    r,
    {
      method: 'get',
      path: '/overdue',
      tags,
      summary: 'Open tasks past their due date, oldest first (workflow:monitor); suspended instances are left out',
      permissions,
      query: s.OverdueQuery,
      response: page(s.OverdueTask),
    },
    ({ principal, query }) => monitoring.overdueTasks(deps, principal, query),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/backlog',
      tags,
      summary: 'Open work by process: open, unclaimed, overdue, age of the oldest task (workflow:monitor)',
      permissions,
      query: s.BacklogQuery,
      response: page(s.BacklogRow),
    },
    ({ principal, query }) => monitoring.backlog(deps, principal, query),
  );
  return r;
}
