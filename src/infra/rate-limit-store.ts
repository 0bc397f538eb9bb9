import type { Orm } from '../db/orm.js';

/** A hono-rate-limiter store on PostgreSQL, so every server replica shares the counts. */
export class PgRateLimitStore {
  readonly localKeys = false;
  readonly prefix = 'pg:';

  constructor(
    private readonly orm: Orm,
    private readonly windowMs: number,
  ) {}

  async increment(key: string) {
    const rows = await this.orm.em.fork().execute<{ hits: number; reset_at: Date }[]>(
      `insert into rate_limits (key, hits, reset_at) values (?, 1, now() + (? * interval '1 millisecond'))
       on conflict (key) do update set
         hits = case when rate_limits.reset_at <= now() then 1 else rate_limits.hits + 1 end,
         reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
       returning hits, reset_at`,
      [key, this.windowMs],
    );
    return { totalHits: Number(rows[0].hits), resetTime: new Date(rows[0].reset_at) };
  }

  async decrement(key: string) {
    await this.orm.em.fork().execute('update rate_limits set hits = greatest(hits - 1, 0) where key = ?', [key]);
  }

  async resetKey(key: string) {
    await this.orm.em.fork().execute('delete from rate_limits where key = ?', [key]);
  }
}
