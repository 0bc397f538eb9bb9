// The notification dispatcher as a process of its own (`npm run dispatcher`), for deployments that
// scale sending apart from the worker (which runs one too unless NOTIFY_DISPATCHER=false).
import { loadConfig, type Config } from '../config.js';
import { createLogger } from '../observability/logger.js';
import { createOrm } from '../db/orm.js';
import { Dispatcher } from '../notifications/dispatcher.js';

export async function runDispatcher(config: Config = loadConfig()) {
  const logger = createLogger(config.LOG_LEVEL, 'dispatcher');
  if (!config.DATABASE_URL) throw new Error('DATABASE_URL must be set');
  const orm = await createOrm(config.DATABASE_URL);
  const dispatcher = new Dispatcher({ orm, config, logger, databaseUrl: config.DATABASE_URL });
  await dispatcher.start();
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await dispatcher.stop();
  await orm.close();
  logger.info('dispatcher stopped');
}
