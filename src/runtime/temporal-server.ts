// A real Temporal server (not the CLI's dev server) on PostgreSQL, for the production-topology
// test and benchmark: the server and `temporal-sql-tool` are built from the Go module proxy into
// `.tools/temporal-server/<version>/` once (the same programs the `temporalio/server` and
// `temporalio/admin-tools` images carry); the server runs from its embedded config template filled
// by environment variables, as in the image. The schema and namespace steps are docker-compose.yml's
// own commands, run by scripts/production-stack.ts.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../observability/logger.js';
import { TOOLS_DIR, stopChild, waitForPort } from './temporal-cli.js';

const run = promisify(execFile);

export const TEMPORAL_SERVER_VERSION = '1.32.2';

export interface TemporalServerTools {
  /** The `server` binary (go.temporal.io/server/cmd/server): `temporal-server` in the temporalio/server image. */
  server: string;
  /** go.temporal.io/server/cmd/tools/sql: `temporal-sql-tool` in the temporalio/admin-tools image (schemas built in). */
  sqlTool: string;
}

/**
 * The Temporal server and `temporal-sql-tool` binaries under `.tools/temporal-server/<version>/bin`;
 * built with `go install` (GOTOOLCHAIN=auto, so the module's Go version is fetched if needed) when
 * missing. The first build takes minutes; later runs reuse the binaries.
 */
export async function ensureTemporalServer(
  logger: Logger,
  version = TEMPORAL_SERVER_VERSION,
): Promise<TemporalServerTools> {
  const bin = path.join(TOOLS_DIR, 'temporal-server', version, 'bin');
  const tools: TemporalServerTools = { server: path.join(bin, 'server'), sqlTool: path.join(bin, 'sql') };
  if (existsSync(tools.server) && existsSync(tools.sqlTool)) return tools;
  const go = process.env.GO ?? 'go';
  const env = { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'auto', GOBIN: bin };
  logger.warn(
    { version, bin },
    'building the Temporal server from the Go module proxy (first run only, several minutes)',
  );
  const started = Date.now();
  try {
    await run(
      go,
      ['install', `go.temporal.io/server/cmd/server@v${version}`, `go.temporal.io/server/cmd/tools/sql@v${version}`],
      { env, maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (err) {
    throw new Error(
      `Could not build the Temporal server ${version} with \`go install\` (${(err as Error).message.split('\n').slice(0, 3).join(' ')}). ` +
        `Install Go (https://go.dev/dl/) with access to the Go module proxy, or put prebuilt \`server\` and \`sql\` binaries into ${bin}.`,
      { cause: err },
    );
  }
  logger.warn({ seconds: Math.round((Date.now() - started) / 1000) }, 'Temporal server built');
  return tools;
}

export interface TemporalServerHandle {
  address: string;
  readonly process: ChildProcess;
  /** SIGTERM, waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL. */
  crash(): Promise<void>;
  /** Starts the server again with the same environment and databases. */
  start(): Promise<void>;
}

/** Ports the embedded config template reads (FRONTEND_GRPC_PORT, ...); defaults 7233, 7243, 6933, 7234, ... */
export const TEMPORAL_PORT_VARIABLES = [
  'FRONTEND_GRPC_PORT',
  'FRONTEND_HTTP_PORT',
  'FRONTEND_MEMBERSHIP_PORT',
  'HISTORY_GRPC_PORT',
  'HISTORY_MEMBERSHIP_PORT',
  'MATCHING_GRPC_PORT',
  'MATCHING_MEMBERSHIP_PORT',
  'WORKER_GRPC_PORT',
  'WORKER_MEMBERSHIP_PORT',
  'INTERNAL_FRONTEND_GRPC_PORT',
  'INTERNAL_FRONTEND_HTTP_PORT',
  'INTERNAL_FRONTEND_MEMBERSHIP_PORT',
] as const;

/**
 * Runs `server start` the way the `temporalio/server` image does: no config file, the server's
 * embedded config template filled from the environment (DB, DB_PORT, POSTGRES_SEEDS, POSTGRES_USER,
 * POSTGRES_PWD, BIND_ON_IP, DYNAMIC_CONFIG_FILE_PATH, the *_PORT variables). Resolves once the
 * frontend port answers.
 */
export async function startTemporalServer(opts: {
  tools: TemporalServerTools;
  env: Record<string, string>;
  dataDir: string;
  logger: Logger;
}): Promise<TemporalServerHandle> {
  await mkdir(opts.dataDir, { recursive: true });
  const frontend = Number(opts.env.FRONTEND_GRPC_PORT ?? 7233);
  const host = opts.env.BIND_ON_IP ?? '127.0.0.1';
  const logFile = path.join(opts.dataDir, 'temporal-server.log');
  const launch = async () => {
    const child = spawn(opts.tools.server, ['start'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...opts.env },
    });
    const log = createWriteStream(logFile, { flags: 'a' });
    let tail = '';
    const keep = (chunk: Buffer) => {
      log.write(chunk);
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => (log.end(), resolve(code))));
    const outcome = await Promise.race([
      waitForPort(frontend, host, 120_000).then(() => 'ready' as const),
      exited.then((code) => ({ code })),
    ]);
    if (outcome !== 'ready') throw new Error(`The Temporal server exited with code ${outcome.code}:\n${tail}`);
    opts.logger.debug({ port: frontend }, 'temporal server listening');
    return { child, exited };
  };
  let current = await launch();
  const stop = () => stopChild(current, 20_000);
  return {
    address: `${host}:${frontend}`,
    get process() {
      return current.child;
    },
    stop,
    crash: async () => {
      current.child.kill('SIGKILL');
      await current.exited;
    },
    start: async () => {
      current = await launch();
    },
  };
}
