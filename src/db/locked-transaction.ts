// A transaction on one pooled connection under an advisory lock, in as few round trips as it can:
// BEGIN and the lock travel as one simple query (values cannot be bound there, so the key goes in
// as an escaped literal), then the caller's statements, then COMMIT. Through MikroORM's
// `transactional` the same took three round trips before the caller's first statement and ran a
// unit-of-work flush that has nothing to flush for raw statements (docs/performance.md).
import { createRequire } from 'node:module';
import { CompiledQuery, type Kysely } from 'kysely';
import type { Orm } from './orm.js';
import type { Executor } from './bound.js';

const { escapeLiteral } = createRequire(import.meta.url)('pg') as { escapeLiteral(value: string): string };

/**
 * Runs `fn` in a transaction that holds `pg_advisory_xact_lock(hashtext(key))`; rolled back if it
 * throws. `genericPlans`: named statements in it use their generic plan, kept per connection, where
 * PostgreSQL's own choice (after five executions, by estimated cost) may plan each call anew.
 */
export async function lockedTransaction<T>(
  orm: Orm,
  key: string,
  fn: (tx: Executor) => Promise<T>,
  opts: { genericPlans?: boolean } = {},
): Promise<T> {
  const db = orm.em.getConnection().getClient() as unknown as Kysely<unknown>;
  const settings = opts.genericPlans ? '; set local plan_cache_mode = force_generic_plan' : '';
  return db.connection().execute(async (conn) => {
    try {
      await conn.executeQuery(
        CompiledQuery.raw(`begin; select pg_advisory_xact_lock(hashtext(${escapeLiteral(key)}))${settings}`),
      );
      const result = await fn(conn);
      await conn.executeQuery(CompiledQuery.raw('commit'));
      return result;
    } catch (err) {
      // The connection goes back to the pool: never with a transaction open on it.
      await conn.executeQuery(CompiledQuery.raw('rollback')).catch(() => {});
      throw err;
    }
  });
}
