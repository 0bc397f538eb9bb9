// Task monitoring views (docs/monitoring.md): statistics for the caller, overdue tasks and the
// backlog by process (workflow:monitor). Mounted at /api/v1/workflow/tasks before the task
// router, so these paths are matched before /{id}.
import * as monitoring from '../../services/monitoring.js';
import { Permissions } from '../../services/permissions.js';
import { json, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { need } from '../middleware/auth.js';
import * as s from './monitoring.schemas.js';
import type { AppDeps } from '../context.js';

const tags = ['tasks'];

export function monitoringRoutes(deps: AppDeps) {
  const r = createRouter();

  r.openapi(
    defineRoute({
      method: 'get', path: '/statistics', tags,
      summary: 'My badges: to-do, claimable, overdue, unread cc, running applications, done today (byProcess with workflow:monitor)',
      responses: { 200: json(s.Statistics) },
    }),
    async (c) => c.json(ok(await monitoring.statistics(deps, c.get('principal'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get', path: '/overdue', tags,
      summary: 'Open tasks past their due date, oldest first (workflow:monitor); suspended instances are left out',
      request: { query: s.OverdueQuery }, responses: { 200: json(page(s.OverdueTask)) },
    }),
    async (c) => {
      const p = need(c, Permissions.MONITOR);
      return c.json(ok(await monitoring.overdueTasks(deps, p, c.req.valid('query'))), 200);
    },
  );
  r.openapi(
    defineRoute({
      method: 'get', path: '/backlog', tags,
      summary: 'Open work by process: open, unclaimed, overdue, age of the oldest task (workflow:monitor)',
      request: { query: s.BacklogQuery }, responses: { 200: json(page(s.BacklogRow)) },
    }),
    async (c) => {
      const p = need(c, Permissions.MONITOR);
      return c.json(ok(await monitoring.backlog(deps, p, c.req.valid('query'))), 200);
    },
  );
  return r;
}
