import { MikroORM } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities/index.js';
import { migrationsList } from './migrations/index.js';
import { preparingClient } from './prepared.js';

export type Orm = MikroORM;

export async function createOrm(databaseUrl: string, opts: { poolMax?: number } = {}): Promise<Orm> {
  // libpq's `?host=/socket/dir` (the embedded PostgreSQL's Unix socket): MikroORM reads only the
  // URL's host name, so the socket folder is passed on as the host.
  const socket = new URL(databaseUrl).searchParams.get('host');
  return MikroORM.init({
    clientUrl: databaseUrl,
    ...(socket ? { host: socket } : {}),
    entities,
    extensions: [Migrator],
    migrations: {
      migrationsList,
      transactional: true,
      allOrNothing: true,
      tableName: 'mikro_orm_migrations',
      silent: true,
      snapshot: false,
    },
    allowGlobalContext: false,
    pool: { max: opts.poolMax ?? 10 },
    // Statements marked by bound(…, { prepare: true }) go out as named ones (src/db/prepared.ts).
    driverOptions: { Client: preparingClient() },
    debug: false,
  });
}

/** Runs pending migrations under an advisory lock so concurrent starters do not race. */
export async function migrate(orm: Orm): Promise<void> {
  const conn = orm.em.getConnection();
  await orm.em.fork().transactional(async (em) => {
    await em.execute('select pg_advisory_xact_lock(727274)');
    await orm.migrator.up();
  });
  void conn;
}
