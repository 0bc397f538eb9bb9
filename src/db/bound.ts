// Statements whose parameters PostgreSQL binds. `em.execute` inlines every parameter into the SQL
// text (MikroORM's formatQuery): for the statements that carry an instance's state as JSON — the
// projection's write on every action — that meant escaping the JSON in JavaScript and PostgreSQL
// lexing it as a literal each time (docs/performance.md). Here the SQL keeps `$n` placeholders and
// the values travel as bind parameters of the extended protocol, inside the entity manager's
// transaction when it has one.
import { CompiledQuery } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PREPARE_MARK } from './prepared.js';

/**
 * `?` placeholders (as em.execute takes them) numbered `$1…$n`. Quoted literals, quoted
 * identifiers and comments are left alone; `??` (MikroORM's identifier placeholder) is refused.
 */
export function numbered(sql: string): string {
  let out = '';
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      if (end < 0) throw new Error('unterminated quote in SQL');
      out += sql.slice(i, end + 1);
      i = end;
    } else if (c === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end < 0 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === '?') {
      if (sql[i + 1] === '?') throw new Error('?? (identifier placeholder) is not supported here');
      out += `$${++n}`;
    } else out += c;
  }
  return out;
}

const cache = new Map<string, string>();

/** One connection's or the pool's query runner (kysely's, which MikroORM runs on). */
export interface Executor {
  executeQuery(query: CompiledQuery): Promise<{ rows: unknown[] }>;
}

/** Where a statement runs: an entity manager (its transaction, else the pool) or one connection. */
export type Db = EntityManager | Executor;

/**
 * Runs `sql` (with `?` placeholders) with its parameters bound; answers the rows. `prepare`: as a
 * named statement whose plan PostgreSQL keeps (src/db/prepared.ts) — only for a fixed result shape.
 */
export async function bound<T = Record<string, unknown>>(
  db: Db,
  sql: string,
  params: unknown[] = [],
  opts: { prepare?: boolean } = {},
) {
  const key = opts.prepare ? PREPARE_MARK + sql : sql;
  let text = cache.get(key);
  if (text === undefined) {
    text = (opts.prepare ? PREPARE_MARK : '') + numbered(sql);
    // Statements are built from a few fixed shapes; the bound keeps a mistake from growing it.
    if (cache.size < 500) cache.set(key, text);
  }
  // In the entity manager's transaction when it has one (em.transactional), else on the pool.
  const executor =
    'executeQuery' in db
      ? db
      : (db.getTransactionContext<Executor>() ?? (db.getConnection().getClient() as unknown as Executor));
  const result = await executor.executeQuery(CompiledQuery.raw(text, params));
  return result.rows as T[];
}
