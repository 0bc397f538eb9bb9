import { Migration } from '@mikro-orm/migrations';
import { statementTriggers } from './ddl.js';

/** Keeps tasks_archive_counts in step with every statement on tasks_archive. */
const archivedCounts = statementTriggers('tasks_archive_count', 'tasks_archive', {
  ins: [
    `insert into tasks_archive_counts as c (tenant_id, n)
          select tenant_id, count(*) from new_rows where not deleted group by tenant_id
          on conflict (tenant_id) do update set n = c.n + excluded.n`,
  ],
  del: [
    `update tasks_archive_counts c set n = c.n - d.n
          from (select tenant_id, count(*) as n from old_rows where not deleted group by tenant_id) d where d.tenant_id = c.tenant_id`,
  ],
  upd: [
    `insert into tasks_archive_counts as c (tenant_id, n)
          select tenant_id, sum(n) from (
            select tenant_id, count(*) filter (where not deleted) as n from new_rows group by tenant_id
            union all select tenant_id, -count(*) filter (where not deleted) from old_rows group by tenant_id) d
          group by tenant_id
          on conflict (tenant_id) do update set n = c.n + excluded.n`,
  ],
});

/**
 * Indexes for the lists at scale (docs/performance.md, issue 10): one per list's filter and
 * order, partial on the rows the list can answer, so each page is an index range read with a
 * LIMIT and each count an index(-only) scan. Plus an exact per-tenant count of the archived
 * tasks kept by a statement-level trigger, for the unfiltered task history's `total` (a count
 * over a million rows otherwise).
 */
export class Migration20261123000020ListIndexes extends Migration {
  override up(): void {
    // Task lists (history; the runtime part of /tasks): newest first per visibility branch.
    for (const t of ['tasks', 'tasks_archive']) {
      this.addSql(`create index ${t}_tenant_time on ${t} (tenant_id, create_time desc, id) where not deleted`);
      this.addSql(
        `create index ${t}_assignee_time on ${t} (tenant_id, assignee, create_time desc, id) where not deleted`,
      );
      this.addSql(
        `create index ${t}_initiator_time on ${t} (tenant_id, initiator_id, create_time desc, id) where not deleted`,
      );
      this.addSql(
        `create index ${t}_owner_time on ${t} (tenant_id, owner, create_time desc, id) where owner is not null and not deleted`,
      );
      // Pool membership by containment: candidates @> '{"userIds":["u"]}' (and roleIds, deptIds).
      this.addSql(`create index ${t}_candidates_path on ${t} using gin (candidates jsonb_path_ops) where not deleted`);
      // Done: the caller's completed tasks, latest end first.
      this.addSql(
        `create index ${t}_done on ${t} (tenant_id, assignee, end_time desc nulls last, id) where status = 'completed' and not deleted`,
      );
    }
    // To-do: the assigned branch ordered for the page (the pool branch uses tasks_candidates_path).
    this.addSql(
      `create index tasks_todo_assigned on tasks (tenant_id, assignee, create_time desc, id) where status = 'active' and not deleted`,
    );
    // Overdue, backlog, statistics: open work only, by due date and by process (index-only).
    this.addSql(
      `create index tasks_open_due on tasks (tenant_id, due_date, id) include (instance_id, process_key, assignee) where status in ('pending', 'active') and kind <> 'delay' and not deleted`,
    );
    this
      .addSql(`create index tasks_open_by_process on tasks (tenant_id, process_key, create_time) include (status, due_date)
      where status in ('pending', 'active') and kind <> 'delay' and not deleted`);
    // Applications: ties broken by id like the list's order.
    this.addSql(`create index instances_initiator_time on instances (tenant_id, initiator_id, start_time desc, id)`);
    this.addSql(
      `create index instances_archive_initiator_time on instances_archive (tenant_id, initiator_id, start_time desc, id)`,
    );

    // Exact count of the live (not deleted) archived tasks per tenant.
    this.addSql(`create table tasks_archive_counts (tenant_id text primary key, n bigint not null default 0)`);
    this.addSql(
      `insert into tasks_archive_counts (tenant_id, n) select tenant_id, count(*) from tasks_archive where not deleted group by tenant_id`,
    );
    for (const sql of archivedCounts.create) this.addSql(sql);
  }

  override down(): void {
    for (const sql of archivedCounts.drop) this.addSql(sql);
    this.addSql(`drop table if exists tasks_archive_counts`);
    for (const t of ['tasks', 'tasks_archive']) {
      for (const s of ['tenant_time', 'assignee_time', 'initiator_time', 'owner_time', 'candidates_path', 'done'])
        this.addSql(`drop index if exists ${t}_${s}`);
    }
    for (const i of [
      'tasks_todo_assigned',
      'tasks_open_due',
      'tasks_open_by_process',
      'instances_initiator_time',
      'instances_archive_initiator_time',
    ])
      this.addSql(`drop index if exists ${i}`);
  }
}
