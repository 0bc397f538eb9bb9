import type { AppDeps, Router } from '../context.js';

/** Resource routers beyond the foundation (definitions, instances, tasks, components). */
export function extraRoutes(_deps: AppDeps): Array<[string, Router]> {
  return [];
}
