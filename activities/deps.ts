// What every activity gets from the worker that runs it (src/main/worker.ts; tests pass their own).
import type { Config } from '../src/config.js';
import type { Orm } from '../src/db/orm.js';
import type { Logger } from '../src/observability/logger.js';

export interface ActivityDeps {
  orm: Orm;
  config: Config;
  logger: Logger;
}
