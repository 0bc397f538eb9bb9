import path from 'node:path';
import type { Logger } from '../observability/logger.js';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres.js';
import { findTemporalCli, startTemporalDevServer, type TemporalDevServerHandle } from './temporal-cli.js';

export interface ProvisionOptions {
  dataDir: string;
  databaseUrl?: string;
  temporalAddress?: string;
  pgPort: number;
  temporalPort: number;
  temporalUiPort: number;
  namespace: string;
  headless?: boolean;
  logger: Logger;
}

export interface Provisioned {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  /** The embedded parts, when they were started here. */
  postgres: EmbeddedPostgresHandle | null;
  temporal: TemporalDevServerHandle | null;
  stop(): Promise<void>;
}

/**
 * Starts whatever is not configured: embedded PostgreSQL unless DATABASE_URL is given,
 * the Temporal dev server unless TEMPORAL_ADDRESS is given. Used by `npm start` and the tests.
 */
export async function provision(opts: ProvisionOptions): Promise<Provisioned> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((err) => opts.logger.warn({ err }, 'stop failed'));
  };
  try {
    const [pg, temporal] = await Promise.all([
      opts.databaseUrl
        ? null
        : startEmbeddedPostgres({
            dataDir: opts.dataDir,
            port: opts.pgPort,
            database: 'approvals',
            logger: opts.logger,
          }).then((h) => {
            stops.push(h.stop);
            return h;
          }),
      opts.temporalAddress
        ? null
        : findTemporalCli(opts.logger).then((cli) =>
            startTemporalDevServer({
              cli,
              dataDir: path.resolve(opts.dataDir, 'temporal'),
              port: opts.temporalPort,
              uiPort: opts.temporalUiPort,
              namespace: opts.namespace,
              headless: opts.headless,
              logger: opts.logger,
            }).then((h) => {
              stops.push(h.stop);
              return h;
            }),
          ),
    ]);
    return {
      databaseUrl: opts.databaseUrl ?? pg!.url,
      temporalAddress: opts.temporalAddress ?? temporal!.address,
      temporalUiUrl: temporal?.uiUrl || null,
      postgres: pg,
      temporal,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
