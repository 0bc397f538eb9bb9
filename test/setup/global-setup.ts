// Starts the whole stack once per test run with the same provisioning code as `npm start`:
// embedded PostgreSQL, the Temporal dev server, migrations + seed, then worker and server
// as child processes. Test files talk to it over real HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createLogger } from '../../src/logger.js';
import { provision, type Provisioned } from '../../src/runtime/provision.js';
import { createOrm, migrate } from '../../src/db/orm.js';
import { seed } from '../../src/services/seed.js';

const root = path.resolve(import.meta.dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    temporalAddress: string;
    jwtSecret: string;
    taskQueue: string;
  }
}

let runtime: Provisioned | undefined;
const children: ChildProcess[] = [];
let dataDir = '';

async function waitReady(url: string, child: ChildProcess[], timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.some((c) => c.exitCode !== null)) throw new Error('a child process exited during start-up');
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server not ready at ${url}`);
}

export async function setup(project: TestProject) {
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'warn', 'test-setup');
  dataDir = path.join(root, '.data', `test-${process.pid}-${Date.now()}`);
  const [pgPort, temporalPort, uiPort, httpPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
  runtime = await provision({
    dataDir,
    pgPort,
    temporalPort,
    temporalUiPort: uiPort,
    namespace: 'default',
    headless: true,
    logger,
  });
  const orm = await createOrm(runtime.databaseUrl);
  await migrate(orm);
  await seed(orm.em.fork(), { adminPassword: 'admin', demoPassword: 'demo', demo: true });
  await orm.close();

  const jwtSecret = randomBytes(48).toString('base64url');
  const taskQueue = `approvals-test-${process.pid}`;
  const env = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    DATABASE_URL: runtime.databaseUrl,
    TEMPORAL_ADDRESS: runtime.temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    JWT_SECRET: jwtSecret,
    PORT: String(httpPort),
    HOST: '127.0.0.1',
    LOGIN_RATE_LIMIT: '10',
    BODY_LIMIT_BYTES: String(1024 * 1024),
    // httpCall tests reach a local server by this name; 127.0.0.1 stays refused.
    HTTP_CALL_ALLOW_PRIVATE_HOSTS: 'localhost',
    // Low, so multi-step tests cross continue-as-new boundaries.
    WORKFLOW_HISTORY_LIMIT: '60',
  };
  for (const script of ['worker.ts', 'server.ts']) {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
    children.push(child);
  }
  const baseUrl = `http://127.0.0.1:${httpPort}`;
  await waitReady(baseUrl, children);

  project.provide('baseUrl', baseUrl);
  project.provide('databaseUrl', runtime.databaseUrl);
  project.provide('temporalAddress', runtime.temporalAddress);
  project.provide('jwtSecret', jwtSecret);
  project.provide('taskQueue', taskQueue);
}

export async function teardown() {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await runtime?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
