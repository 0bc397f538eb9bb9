import { Migration } from '@mikro-orm/migrations';

/** Open work as the backlog counts it (src/services/monitoring.ts WORK). */
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

/**
 * Maintained counts of open work per (tenant, process, status, due day), for the backlog, the
 * monitor's statistics and the overdue total (docs/performance.md, issue 10): summing a few rows
 * per process instead of reading every open task of the tenant. Kept by statement-level triggers
 * on `tasks` in the same transaction as the projection's writes, so the projection's statements
 * stay as they are. The due day makes "overdue" exact without a clock in the counter: whole days
 * before today come from the counters, today's part from the `tasks_open_due` index.
 */
export class Migration20261124000800OpenTaskCounts extends Migration {
  override name = 'Migration20261124000800OpenTaskCounts';

  override up(): void {
    this.addSql(`create table open_task_counts (
      tenant_id text not null, process_key text not null, status text not null, due_day date not null,
      shard smallint not null, n bigint not null default 0,
      primary key (tenant_id, process_key, status, due_day, shard))`);
    this.addSql(
      `insert into open_task_counts (tenant_id, process_key, status, due_day, shard, n) ${countsOf('tasks', '', '0')}`,
    );
    // One upsert per statement, keys in order (two transactions never wait on each other's rows in
    // opposite orders); rows of the touched processes that dropped to 0 are removed, so past due
    // days do not pile up.
    const prune = (table: string) => `delete from open_task_counts c
          using (select distinct tenant_id, process_key from ${table}) k
          where c.tenant_id = k.tenant_id and c.process_key = k.process_key and c.shard = pg_backend_pid() % ${SHARDS} and c.n = 0`;
    const apply = (
      deltas: string,
    ) => `insert into open_task_counts as c (tenant_id, process_key, status, due_day, shard, n)
          select tenant_id, process_key, status, due_day, shard, sum(n) from (${deltas}) d
          group by 1, 2, 3, 4, 5 having sum(n) <> 0 order by 1, 2, 3, 4, 5
          on conflict (tenant_id, process_key, status, due_day, shard) do update set n = c.n + excluded.n`;
    this.addSql(`create function open_task_count_ins() returns trigger language plpgsql as $$
      begin
        ${apply(countsOf('new_rows'))};
        return null;
      end $$`);
    this.addSql(`create function open_task_count_del() returns trigger language plpgsql as $$
      begin
        ${apply(countsOf('old_rows', '-'))};
        ${prune('old_rows')};
        return null;
      end $$`);
    this.addSql(`create function open_task_count_upd() returns trigger language plpgsql as $$
      begin
        ${apply(`${countsOf('new_rows')} union all ${countsOf('old_rows', '-')}`)};
        ${prune('old_rows')};
        return null;
      end $$`);
    this.addSql(
      `create trigger open_task_count_ins after insert on tasks referencing new table as new_rows for each statement execute function open_task_count_ins()`,
    );
    this.addSql(
      `create trigger open_task_count_del after delete on tasks referencing old table as old_rows for each statement execute function open_task_count_del()`,
    );
    this.addSql(
      `create trigger open_task_count_upd after update on tasks referencing old table as old_rows new table as new_rows for each statement execute function open_task_count_upd()`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists open_task_count_ins on tasks`);
    this.addSql(`drop trigger if exists open_task_count_del on tasks`);
    this.addSql(`drop trigger if exists open_task_count_upd on tasks`);
    this.addSql(`drop function if exists open_task_count_ins(), open_task_count_del(), open_task_count_upd()`);
    this.addSql(`drop table if exists open_task_counts`);
  }
}
