// Named (prepared) statements for the projection's write. PostgreSQL plans an unnamed statement
// on every call; the write's statements are a few fixed shapes with data-modifying CTEs whose
// planning cost more than their execution (pg_stat_statements with track_planning, `npm run bench`
// BENCH_PROFILE=1: 1.5 ms planning against 2.3 ms execution per write). Prepared once per pooled
// connection, their plans are reused. Only statements with a fixed result shape are marked:
// a prepared `select *` would fail with "cached plan must not change result type" after a
// migration adds a column under a running server.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/** The mark `bound(…, { prepare: true })` puts in front of a statement. */
export const PREPARE_MARK = '/* prepared */ ';

const names = new Map<string, string>();

/**
 * A statement's name on a connection, `<prefix>_<hash of its text>`: the same text, the same name.
 * Also for the statements the locked write prepares with SQL PREPARE (locked-transaction.ts),
 * under its own prefix, so the two never claim one name on a connection.
 */
export function statementName(prefix: string, text: string): string {
  const key = `${prefix}:${text}`;
  let name = names.get(key);
  if (!name) {
    name = `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    // A few shapes in practice; the bound keeps a mistake from growing the map.
    if (names.size < 1000) names.set(key, name);
  }
  return name;
}

/** What this file uses of pg's Client (the project keeps @types/pg out of its tree: pg-tracing.ts). */
interface PgClient {
  query(...args: unknown[]): unknown;
}

/**
 * pg's Client, sending marked statements as named ones (pg prepares a name once per connection).
 * Given to the pool as its `Client` (src/db/orm.ts driverOptions), so MikroORM's transactions
 * and the tracing wrapper (src/observability/pg-tracing.ts) see an ordinary client.
 */
export function preparingClient(): unknown {
  const pg = createRequire(import.meta.url)('pg') as { Client: new (...args: unknown[]) => PgClient };
  return class PreparingClient extends pg.Client {
    override query(...args: unknown[]) {
      const [text, values] = args;
      if (args.length === 2 && typeof text === 'string' && text.startsWith(PREPARE_MARK) && Array.isArray(values))
        return super.query({ name: statementName('ps', text), text, values });
      return super.query(...args);
    }
  };
}
