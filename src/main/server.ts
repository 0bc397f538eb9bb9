import { serve, type ServerType } from '@hono/node-server';
import { loadConfig, type Config } from '../config.js';
import { createLogger } from '../logger.js';
import { createOrm, migrate } from '../db/orm.js';
import { seed } from '../services/seed.js';
import { TokenService } from '../infra/tokens.js';
import { createTemporalClient } from '../temporal/client.js';
import { createApp } from '../http/app.js';
import { startNotificationSocket } from '../http/notification-socket.js';
import { MAX_HEADER_BYTES } from '../input-rules.js';
import { writeProjection } from '../../activities/projection.js';

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
  const logger = createLogger(config.LOG_LEVEL, 'server');
  const { databaseUrl } = requireRuntimeEnv(config);
  const orm = await createOrm(databaseUrl);
  await migrate(orm);
  await seed(orm.em.fork(), {
    adminPassword: config.ADMIN_PASSWORD,
    demoPassword: config.DEMO_PASSWORD,
    demo: config.SEED_DEMO,
  });
  const temporal = createTemporalClient(config);
  const app = createApp({
    config,
    orm,
    temporal,
    writeState: (state) => writeProjection(orm, state, { skipIfWritten: true }),
    tokens: new TokenService(config),
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
  const notifications = await startNotificationSocket(server, {
    databaseUrl,
    orm,
    tokens: new TokenService(config),
    logger,
  });

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    logger.info('server stopping');
    await notifications.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await temporal.connection.close().catch(() => undefined);
    await orm.close();
  };
  return { port, stop, app };
}
