import { Migration } from '@mikro-orm/migrations';
import { statementTriggers } from './ddl.js';

/** Open work as the backlog counts it (src/instances/monitoring.ts WORK). */
const WORK = `status in ('pending', 'active') and kind <> 'delay' and not deleted`;
/** The counter key of a task row: due day in UTC, 'infinity' for no due date. */
const KEY = `tenant_id, process_key, status, coalesce((due_date at time zone 'UTC')::date, 'infinity'::date) as due_day`;
/**
 * Counter rows are spread over 8 shards by the writing backend: concurrent projections of the
 * same process (one connection each) update different rows instead of queueing on one row until
 * the other's commit. Readers sum the shards.
 */
const SHARDS = 8;
/** Each counter key's count among `table`'s open tasks, negated with sign '-'. */
const countsOf = (table: string, sign = '', shard = `pg_backend_pid() % ${SHARDS}`) =>
  `select ${KEY}, (${shard})::smallint as shard, ${sign}count(*) as n from ${table} where ${WORK} group by 1, 2, 3, 4, 5`;

// One upsert per statement, keys in order (two transactions never wait on each other's rows in
// opposite orders); rows of the touched processes that dropped to 0 are removed, so past due
// days do not pile up.
const apply = (deltas: string) => `insert into open_task_counts as c (tenant_id, process_key, status, due_day, shard, n)
          select tenant_id, process_key, status, due_day, shard, sum(n) from (${deltas}) d
          group by 1, 2, 3, 4, 5 having sum(n) <> 0 order by 1, 2, 3, 4, 5
          on conflict (tenant_id, process_key, status, due_day, shard) do update set n = c.n + excluded.n`;
const prune = (table: string) => `delete from open_task_counts c
          using (select distinct tenant_id, process_key from ${table}) k
          where c.tenant_id = k.tenant_id and c.process_key = k.process_key and c.shard = pg_backend_pid() % ${SHARDS} and c.n = 0`;

const counters = statementTriggers('open_task_count', 'tasks', {
  ins: [apply(countsOf('new_rows'))],
  del: [apply(countsOf('old_rows', '-')), prune('old_rows')],
  upd: [apply(`${countsOf('new_rows')} union all ${countsOf('old_rows', '-')}`), prune('old_rows')],
});

/**
 * Maintained counts of open work per (tenant, process, status, due day), for the backlog, the
 * monitor's statistics and the overdue total (docs/performance.md, issue 10): summing a few rows
 * per process instead of reading every open task of the tenant. Kept by statement-level triggers
 * on `tasks` in the same transaction as the projection's writes, so the projection's statements
 * stay as they are. The due day makes "overdue" exact without a clock in the counter: whole days
 * before today come from the counters, today's part from the `tasks_open_due` index.
 */
export class Migration20261124000800OpenTaskCounts extends Migration {
  override up(): void {
    this.addSql(`create table open_task_counts (
      tenant_id text not null, process_key text not null, status text not null, due_day date not null,
      shard smallint not null, n bigint not null default 0,
      primary key (tenant_id, process_key, status, due_day, shard))`);
    this.addSql(
      `insert into open_task_counts (tenant_id, process_key, status, due_day, shard, n) ${countsOf('tasks', '', '0')}`,
    );
    for (const sql of counters.create) this.addSql(sql);
  }

  override down(): void {
    for (const sql of counters.drop) this.addSql(sql);
    this.addSql(`drop table if exists open_task_counts`);
  }
}
