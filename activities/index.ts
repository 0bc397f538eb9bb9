import type { ActivityDeps } from './deps.js';
import { createAiAgentActivities } from './ai-agent.js';
import { createApproverActivities } from './approvers.js';
import { createChainActivities } from './chains.js';
import { createChainStartProcessActivities } from './chain-start-process.js';
import { createEngineSupportActivities } from './engine-support.js';
import { createHttpActivities } from './http-call.js';
import { createProjectionActivities } from './projection.js';
import { createServiceFunctionActivities } from './service-function-calls.js';

export type { ActivityDeps };

/** Activities get their dependencies from the worker (tests pass their own). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createProjectionActivities(deps),
    ...createApproverActivities(deps),
    ...createHttpActivities(deps),
    ...createEngineSupportActivities(deps),
    ...createServiceFunctionActivities(deps),
    ...createAiAgentActivities(deps),
    ...createChainActivities(deps),
    ...createChainStartProcessActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
