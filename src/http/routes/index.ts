import type { AppDeps, Router } from '../context.js';
import { componentRoutes } from './components.js';
import { definitionRoutes } from './definitions.js';
import { instanceRoutes } from './instances.js';
import { instanceLifecycleRoutes } from './instance-lifecycle.js';
import { taskRoutes } from './tasks.js';
import { taskActionRoutes } from './task-actions.js';

/** Resource routers beyond the foundation (definitions, instances, tasks, components). */
export function extraRoutes(deps: AppDeps): Array<[string, Router]> {
  return [
    ['/api/v1/workflow/process-definitions', definitionRoutes()],
    ['/api/v1/components', componentRoutes()],
    ['/api/v1/workflow/process-instances', instanceRoutes(deps)],
    ['/api/v1/workflow/process-instances', instanceLifecycleRoutes(deps)],
    ['/api/v1/workflow/tasks', taskRoutes(deps)],
    ['/api/v1/workflow/tasks', taskActionRoutes(deps)],
  ];
}
