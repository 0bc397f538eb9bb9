import type { Config } from '../src/config.js';
import type { Orm } from '../src/db/orm.js';
import type { Logger } from '../src/logger.js';

export interface ActivityDeps {
  orm: Orm;
  config: Config;
  logger: Logger;
}

/** Activities get their dependencies from the worker (tests pass their own). */
export function createActivities(deps: ActivityDeps) {
  return {
    async ping(): Promise<string> {
      await deps.orm.em.fork().execute('select 1');
      return 'pong';
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
