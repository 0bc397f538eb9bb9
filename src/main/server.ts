import { serve, type ServerType } from '@hono/node-server';
import { loadConfig, type Config } from '../config.js';
import { createLogger } from '../observability/logger.js';
import { createOrm, migrate } from '../db/orm.js';
import { seed } from '../directory/seed.js';
import { fillAllSearchTexts } from '../directory/directory.js';
import { directoryPrincipals } from '../directory/auth.js';
import { TokenService } from '../infra/tokens.js';
import { createTemporalClient } from '../temporal/client.js';
import { createApp } from './app.js';
import { startNotificationSocket } from '../notifications/socket.js';
import { MAX_HEADER_BYTES } from '../input-rules.js';
import { pgIntentLog } from '../read-model/projection-intents.js';
import { writeProjection } from '../read-model/writer.js';
import { deliverProcessEvents } from '../rule-chains/process-events.js';
import { enableMetrics } from '../observability/metrics.js';
import { metricsListenerOf } from '../observability/metrics-endpoint.js';
import { registerBacklogGauges } from '../observability/backlog-gauges.js';
import { startTracing } from '../observability/tracing.js';
import { startAttachmentSweeper } from '../attachments/sweeper.js';

export function requireRuntimeEnv(config: Config): { databaseUrl: string } {
  if (!config.DATABASE_URL) {
    throw new Error(
      'DATABASE_URL is not set: run `npm start` for the embedded runtime, or set DATABASE_URL (and TEMPORAL_ADDRESS).',
    );
  }
  if (!config.TEMPORAL_ADDRESS) {
    throw new Error('TEMPORAL_ADDRESS is not set: run `npm start` for the embedded runtime, or set TEMPORAL_ADDRESS.');
  }
  return { databaseUrl: config.DATABASE_URL };
}

/** Runs migrations and seeds, then serves HTTP until stopped. */
export async function runServer(config: Config = loadConfig()) {
  // Before the logger (its lines carry the trace id) and the clients (their interceptors).
  const tracing = await startTracing(config, 'server');
  const logger = createLogger(config.LOG_LEVEL, 'server');
  const { databaseUrl } = requireRuntimeEnv(config);
  const orm = await createOrm(databaseUrl);
  const metricsOn = config.METRICS_PORT !== undefined || config.METRICS_TOKEN !== undefined;
  if (metricsOn) {
    enableMetrics('server');
    registerBacklogGauges(orm);
  }
  await migrate(orm);
  await seed(orm.em.fork(), {
    adminPassword: config.ADMIN_PASSWORD,
    demoPassword: config.DEMO_PASSWORD,
    demo: config.SEED_DEMO,
  });
  // Rows without a search text (from before the people-search migration, the seed): filled in the
  // background so a big tenant's first search need not; searches fill whatever is left themselves.
  void fillAllSearchTexts(orm.em.fork()).catch((err: unknown) => logger.warn({ err }, 'search text fill failed'));
  const temporal = createTemporalClient(config);
  const processEvents = { orm, temporal, taskQueue: config.TEMPORAL_TASK_QUEUE, logger };
  const app = createApp({
    config,
    orm,
    temporal,
    writeState: async (state, intent, opts) => {
      if (!(await writeProjection(orm, state, { writer: 'server', intent, predicted: opts?.predicted }))) return false;
      // Its events to the chains that subscribe (never throws: the state is written).
      await deliverProcessEvents(processEvents, state);
      return true;
    },
    intents: pgIntentLog(orm),
    tokens: new TokenService(config),
    principals: directoryPrincipals(orm),
    logger,
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = serve(
      {
        fetch: app.fetch,
        hostname: config.HOST,
        port: config.PORT,
        // The URL the OpenAPI document allows (MAX_PARAMETER_LENGTH per parameter) fits.
        serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
      },
      () => resolve(s),
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port }, 'server listening');
  const metrics = await metricsListenerOf(config, logger);
  const notifications = await startNotificationSocket(server, {
    databaseUrl,
    orm,
    tokens: new TokenService(config),
    logger,
  });

  const attachmentSweeper = startAttachmentSweeper(orm, config, logger);

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    logger.info('server stopping');
    await attachmentSweeper.stop();
    await notifications.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await metrics?.stop();
    await temporal.connection.close().catch(() => undefined);
    await orm.close();
    await tracing?.shutdown();
  };
  return { port, metricsPort: metrics?.port ?? null, stop, app };
}
