// What every request and use case works with: the process-wide dependencies and the caller.
// Declared below src/http/ and every domain folder, so no domain imports the HTTP layer's app and
// the HTTP edge reaches the directory only through `principals`.
import type { Client } from '@temporalio/client';
import type { Config } from './config.js';
import type { Orm } from './db/orm.js';
import type { Logger } from './observability/logger.js';
import type { TokenService } from './infra/tokens.js';
import type { ProjectionSnapshot } from '../workflows/engine/types.js';

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

/** Write-ahead intents of Updates, kept in PostgreSQL by src/read-model/projection-intents.ts. */
export interface IntentLog {
  /** Before the Update is sent (idempotent: a re-sent request keeps its first row). */
  record(updateId: string, tenantId: string, instanceId: string): Promise<void>;
  /** The Update was refused: it changed nothing, so there is nothing to write. */
  drop(updateId: string): Promise<void>;
}

/** Who is calling, from a verified token (src/directory/auth.ts), and forgetting them after a directory write. */
export interface PrincipalSource {
  load(tenantId: string, userId: string): Promise<Principal>;
  forget(): void;
}

export interface AppDeps {
  config: Config;
  orm: Orm;
  temporal: Client;
  /**
   * Writes the state an Update answered with to the read model (src/temporal/engine-client.ts),
   * deleting the write-ahead intent of Update `intent` in the same statement. `predicted`: the
   * server's own first state of a start, written only where nothing was written yet (false: not).
   */
  writeState(state: ProjectionSnapshot, intent?: string, opts?: { predicted?: boolean }): Promise<boolean | void>;
  /** Write-ahead intents of Updates (src/read-model/projection-intents.ts). */
  intents: IntentLog;
  tokens: TokenService;
  principals: PrincipalSource;
  logger: Logger;
}
