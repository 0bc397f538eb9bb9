// A write of several statements in one transaction, under an advisory lock, in one round trip.
//
// The statements go as one simple query: `begin; set local …; execute lock(…); execute s1(…);
// execute s2(…); commit`. Each statement, the lock's too, is prepared once per pooled connection
// (SQL PREPARE, its own round trip the first time), so its plan is kept as with a named statement
// of the extended protocol, and is executed with its values written as literals (a simple query
// cannot bind values). Before, the same write took three round trips — `begin` with the lock, the
// statement, `commit` — and each follow-up statement one more (docs/performance.md, seventh
// session); through MikroORM's `transactional` it had taken six.
import { createRequire } from 'node:module';
import type { Orm } from './orm.js';
import { numbered } from './bound.js';
import { statementName } from './prepared.js';

const pg = createRequire(import.meta.url)('pg') as { escapeLiteral(value: string): string };
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue(value: unknown): unknown;
};

/** What this file uses of a pooled pg client (the project keeps @types/pg out of its tree). */
interface PgClient {
  query(text: string): Promise<{ rows: unknown[] } | Array<{ rows: unknown[] }>>;
  release(err?: Error | boolean): void;
}
interface PgPool {
  connect(): Promise<PgClient>;
}

/** One statement of a write: `?` placeholders and their values, as `bound` takes them. */
export interface Statement {
  sql: string;
  params: unknown[];
}

const prepared = new WeakMap<PgClient, Set<string>>();

/** The write's lock: one per key, held to the commit. */
const LOCK = 'select pg_advisory_xact_lock(hashtext(?))';

/** A value as the literal pg would send it as a parameter (its text form; null stays NULL). */
function literal(value: unknown): string {
  const v = prepareValue(value);
  if (v === null) return 'NULL';
  if (typeof v !== 'string') throw new Error('a statement value must have a text form');
  return pg.escapeLiteral(v);
}

/**
 * Runs `statements` in order in one transaction that holds `pg_advisory_xact_lock(hashtext(key))`,
 * in one round trip; rolled back if any fails. Answers each statement's rows. `genericPlans`: the
 * statements use their generic plan (PostgreSQL's own choice, by estimated cost after five
 * executions, planned some of them on every call).
 */
export async function lockedWrite(
  orm: Orm,
  key: string,
  statements: Statement[],
  opts: { genericPlans?: boolean } = {},
): Promise<unknown[][]> {
  const pool = (await orm.em.getConnection().getNativeClient()) as unknown as PgPool;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    let known = prepared.get(client);
    if (!known) prepared.set(client, (known = new Set()));
    // The lock is a prepared statement too: planned on every call, it cost as much as its execution.
    const steps = [{ sql: LOCK, params: [key] }, ...statements].map((s) => ({
      name: statementName('pw', s.sql),
      sql: s.sql,
      params: s.params,
    }));
    for (const s of steps) {
      if (known.has(s.name)) continue;
      await client.query(`prepare ${s.name} as ${numbered(s.sql)}`);
      known.add(s.name);
    }
    const head = ['begin', ...(opts.genericPlans ? ['set local plan_cache_mode = force_generic_plan'] : [])];
    const text = [
      ...head,
      ...steps.map((s) => `execute ${s.name}${s.params.length ? `(${s.params.map(literal).join(', ')})` : ''}`),
      'commit',
    ].join(';\n');
    try {
      const results = await client.query(text);
      const list = Array.isArray(results) ? results : [results];
      // The lock's row first, then each statement's.
      return statements.map((_, i) => list[head.length + 1 + i]?.rows ?? []);
    } catch (err) {
      // The connection goes back to the pool: never with a transaction open on it.
      await client.query('rollback').catch((e: Error) => (broken = e));
      throw err;
    }
  } finally {
    client.release(broken ?? false);
  }
}
