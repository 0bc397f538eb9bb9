// The whole service on throwaway ports and a throwaway data folder: embedded PostgreSQL, the
// Temporal dev server (same provisioning as `npm start`), then worker and server as child
// processes. Used by the integration tests' global setup and by the benchmark.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { createLogger } from '../src/observability/logger.js';
import { provision, type Provisioned } from '../src/runtime/provision.js';
import { createOrm, migrate } from '../src/db/orm.js';
import { seed } from '../src/directory/seed.js';

const root = path.resolve(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface Stack {
  baseUrl: string;
  databaseUrl: string;
  temporalAddress: string;
  jwtSecret: string;
  taskQueue: string;
  /** Crashes one part (SIGKILL; PostgreSQL: immediate shutdown) and answers how to bring it back. */
  crash(part: 'worker' | 'server' | 'postgres' | 'temporal'): Promise<{ restart(): Promise<void> }>;
  /** Process ids of the parts now (PostgreSQL: the postmaster), for /proc CPU accounting. */
  pids(): { worker: number; server: number; temporal: number | null; postgres: number | null };
  stop(): Promise<void>;
}

export interface StackOptions {
  name: string;
  env?: Record<string, string>;
  logLevel?: string;
  /** Extra node flags for the worker and the server process (the benchmark's --cpu-prof). */
  workerNodeArgs?: string[];
  serverNodeArgs?: string[];
  /** Server settings for the embedded PostgreSQL (ALTER SYSTEM), e.g. shared_preload_libraries for pg_stat_statements; restarts it once before the worker and server start. */
  pgSettings?: Record<string, string>;
}

/** SIGTERM to every child still running, SIGKILL to those not gone after `graceMs`; resolves when all have exited. */
export async function stopChildren(children: ChildProcess[], graceMs: number): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
          child.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** The embedded PostgreSQL's postmaster pid under `dataDir`, or null (not embedded, or not running). */
export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
  } catch {
    return null;
  }
}

async function waitReady(url: string, children: ChildProcess[], timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (children.some((c) => c.exitCode !== null)) throw new Error('a child process exited during start-up');
    if (
      await fetch(`${url}/readyz`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server not ready at ${url}`);
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  const logLevel = opts.logLevel ?? 'warn';
  const logger = createLogger(logLevel, opts.name);
  const dataDir = path.join(root, '.data', `${opts.name}-${process.pid}-${Date.now()}`);
  const [pgPort, temporalPort, uiPort] = await Promise.all([freePort(), freePort(), freePort()]);
  let runtime: Provisioned | undefined;
  const children: ChildProcess[] = [];
  const stop = async () => {
    await stopChildren(children, 10_000);
    await runtime?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
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
    if (opts.pgSettings && Object.keys(opts.pgSettings).length && runtime.postgres) {
      for (const [k, v] of Object.entries(opts.pgSettings))
        await orm.em.fork().execute(`alter system set ${k.replace(/[^\w.]/g, '')} = '${v.replace(/'/g, '')}'`);
      await orm.close();
      await runtime.postgres.stop();
      await runtime.postgres.start();
    } else await orm.close();
    // Chosen once PostgreSQL and Temporal run: a port chosen before them stays free for the seconds
    // they take to start only by luck (a bench run's server once failed with EADDRINUSE).
    const httpPort = await freePort();
    const jwtSecret = randomBytes(48).toString('base64url');
    const taskQueue = `${opts.name}-${process.pid}`;
    const env = {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: logLevel,
      DATABASE_URL: runtime.databaseUrl,
      TEMPORAL_ADDRESS: runtime.temporalAddress,
      TEMPORAL_TASK_QUEUE: taskQueue,
      JWT_SECRET: jwtSecret,
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      // The disk attachment store in the stack's own folder (worker and server share it).
      ATTACHMENT_DIR: path.join(dataDir, 'attachments'),
      ...opts.env,
    };
    const launch = (script: string) => {
      const nodeArgs = (script === 'worker.ts' ? opts.workerNodeArgs : opts.serverNodeArgs) ?? [];
      const child = spawn(process.execPath, [...nodeArgs, '--import', './scripts/tsx-main-thread.mjs', script], {
        cwd: root,
        env,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      children.push(child);
      return child;
    };
    const running = { worker: launch('worker.ts'), server: launch('server.ts') };
    const baseUrl = `http://127.0.0.1:${httpPort}`;
    await waitReady(baseUrl, children);
    const crash = async (part: 'worker' | 'server' | 'postgres' | 'temporal') => {
      if (part === 'postgres' || part === 'temporal') {
        const handle = part === 'postgres' ? runtime!.postgres! : runtime!.temporal!;
        await handle.crash();
        return { restart: () => handle.start() };
      }
      const child = running[part];
      // A process that died by itself (a fault-injection test) is only waited for.
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGKILL');
        await gone;
      }
      return {
        restart: async () => {
          running[part] = launch(`${part}.ts`);
          if (part === 'server') await waitReady(baseUrl, [running.server]);
        },
      };
    };
    const pids = () => ({
      worker: running.worker.pid!,
      server: running.server.pid!,
      temporal: runtime!.temporal?.process.pid ?? null,
      postgres: postmasterPid(dataDir),
    });
    return {
      baseUrl,
      databaseUrl: runtime.databaseUrl,
      temporalAddress: runtime.temporalAddress,
      jwtSecret,
      taskQueue,
      crash,
      pids,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
