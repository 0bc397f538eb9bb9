// What every request and use case works with: the process-wide dependencies and the caller.
// Declared below both src/http/ and src/services/, so services never import the HTTP layer.
import type { Client } from '@temporalio/client';
import type { Config } from './config.js';
import type { Orm } from './db/orm.js';
import type { Logger } from './logger.js';
import type { TokenService } from './infra/tokens.js';
import type { ProjectionSnapshot } from '../workflows/engine/types.js';
import type { IntentLog } from './services/projection-intents.js';

export interface Principal {
  tenantId: string;
  userId: string;
  username: string;
  /** Role codes and department: pool membership (claim, to-do, visibility). */
  roles: string[];
  deptId: string | null;
  permissions: Set<string>;
  /** The user's language (directory `locale`) and the tenant's default: how an answer's words are chosen (src/http/locale.ts). */
  locale?: string | null;
  tenantLocale?: string | null;
}

export interface AppDeps {
  config: Config;
  orm: Orm;
  temporal: Client;
  /**
   * Writes the state an Update answered with to the read model (src/services/engine-client.ts),
   * deleting the write-ahead intent of Update `intent` in the same statement.
   */
  writeState(state: ProjectionSnapshot, intent?: string): Promise<void>;
  /** Write-ahead intents of Updates (src/services/projection-intents.ts). */
  intents: IntentLog;
  tokens: TokenService;
  logger: Logger;
}
