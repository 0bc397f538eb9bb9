import type { AppDeps, Router } from '../context.js';
import { componentRoutes } from './components.js';
import { definitionRoutes } from './definitions.js';
import { instanceRoutes } from './instances.js';
import { instanceLifecycleRoutes } from './instance-lifecycle.js';
import { instanceAdminRoutes } from './instance-admin.js';
import { monitoringRoutes } from './monitoring.js';
import { taskRoutes } from './tasks.js';
import { taskActionRoutes } from './task-actions.js';
import { notificationRouters } from './notifications.js';

/** Resource routers beyond the foundation (definitions, instances, tasks, components). */
export function extraRoutes(deps: AppDeps): Array<[string, Router]> {
  return [
    ['/api/v1/workflow/process-definitions', definitionRoutes()],
    ['/api/v1/components', componentRoutes()],
    ['/api/v1/workflow/process-instances', instanceAdminRoutes(deps)], // before /{id}: /stuck, /batch
    ['/api/v1/workflow/process-instances', instanceRoutes(deps)],
    ['/api/v1/workflow/process-instances', instanceLifecycleRoutes(deps)],
    ['/api/v1/workflow/tasks', monitoringRoutes(deps)], // before /{id}: /statistics, /overdue, /backlog
    ['/api/v1/workflow/tasks', taskRoutes(deps)],
    ['/api/v1/workflow/tasks', taskActionRoutes(deps)],
    ...notificationRouters(deps),
  ];
}
