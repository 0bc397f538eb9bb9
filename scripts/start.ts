// `npm start`: the whole service on the embedded default — PostgreSQL, the Temporal dev server,
// migrations + seed, worker and server — until Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import { provision } from '../src/runtime/provision.js';
import { createOrm, migrate } from '../src/db/orm.js';
import { seed } from '../src/directory/seed.js';
import { deployDemoProcesses } from '../src/definitions/demo-processes.js';
import { waitForPort } from '../src/runtime/temporal-cli.js';
import { ensureUi } from './build-ui.js';

const started = Date.now();
const root = path.resolve(import.meta.dirname, '..');
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL, 'start');
const dataDir = path.resolve(root, config.DATA_DIR);
mkdirSync(dataDir, { recursive: true });

// One signing key per data folder, so tokens survive a restart.
function jwtSecret(): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const file = path.join(dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

const runtime = await provision({
  dataDir,
  databaseUrl: config.DATABASE_URL,
  temporalAddress: config.TEMPORAL_ADDRESS,
  pgPort: config.EMBEDDED_PG_PORT,
  temporalPort: config.TEMPORAL_PORT,
  temporalUiPort: config.TEMPORAL_UI_PORT,
  namespace: config.TEMPORAL_NAMESPACE,
  logger,
}).catch((err) => {
  console.error(`Could not start the embedded runtime: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
});

const orm = await createOrm(runtime.databaseUrl);
await migrate(orm);
await seed(orm.em.fork(), {
  adminPassword: config.ADMIN_PASSWORD,
  demoPassword: config.DEMO_PASSWORD,
  demo: config.SEED_DEMO,
});
if (config.SEED_DEMO) await deployDemoProcesses(orm.em.fork());
await orm.close();

// The web console (ui/dist): built when missing or older than ui/ (a few seconds).
await ensureUi({ quiet: true });

const env = {
  ...process.env,
  ...(runtime.temporalUiUrl ? { TEMPORAL_UI_URL: runtime.temporalUiUrl } : {}),
  DATABASE_URL: runtime.databaseUrl,
  TEMPORAL_ADDRESS: runtime.temporalAddress,
  JWT_SECRET: jwtSecret(),
};
const children: ChildProcess[] = [];
let stopping = false;

function launch(name: string, script: string): ChildProcess {
  const child = spawn(process.execPath, ['--import', './scripts/tsx-main-thread.mjs', script], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`${name} exited with code ${code}; stopping everything.`);
      void shutdown(1);
    }
  });
  children.push(child);
  return child;
}

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  console.log('\nStopping…');
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await runtime.stop();
  console.log('Stopped.');
  process.exit(code);
}

process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));

launch('worker', 'worker.ts');
launch('server', 'server.ts');
await waitForPort(config.PORT, config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST, 120_000);

const api = `http://${config.HOST}:${config.PORT}`;
console.log(`
Approval service is running (started in ${((Date.now() - started) / 1000).toFixed(1)} s)
  Web console      ${api}/
  API              ${api}/api/v1
  API docs         ${api}/docs   (OpenAPI: ${api}/openapi.json)
  Temporal Web UI  ${runtime.temporalUiUrl ?? '(external Temporal)'}
  Temporal         ${runtime.temporalAddress}
  Demo login       POST ${api}/api/v1/auth/login {"username":"alice","password":"<DEMO_PASSWORD, default demo>","tenantId":"demo"}
Press Ctrl-C to stop.`);
