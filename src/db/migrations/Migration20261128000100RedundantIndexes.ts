import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes that later ones made redundant, dropped: every one is kept up to date on each write of
 * the read model, and a task's status change (each decision) is not a HOT update, so each task
 * index gets a new entry. `tasks_candidates` (GIN, jsonb_ops, every key and value of the pools)
 * served containment tests, which `tasks_candidates_path` answers for the rows the lists read;
 * the participant and handover tests (`jsonb_exists(candidates->'userIds', …)`) are on an
 * expression neither can serve. `tasks_assignee` and `tasks_archive_assignee` lead with the
 * columns of `*_assignee_time`, and every query on a task's assignee also asks `not deleted`;
 * `instances_initiator` and `instances_archive_initiator` are prefixes of `*_initiator_time`.
 * About 5 % of the write's PostgreSQL time (`npm run bench:write`, docs/performance.md).
 */
export class Migration20261128000100RedundantIndexes extends Migration {
  override up(): void {
    for (const i of [
      'tasks_candidates',
      'tasks_assignee',
      'tasks_archive_assignee',
      'instances_initiator',
      'instances_archive_initiator',
    ])
      this.addSql(`drop index if exists ${i}`);
  }

  override down(): void {
    this.addSql(`create index tasks_candidates on tasks using gin (candidates)`);
    this.addSql(`create index tasks_assignee on tasks (tenant_id, assignee, status)`);
    this.addSql(`create index tasks_archive_assignee on tasks_archive (tenant_id, assignee)`);
    this.addSql(`create index instances_initiator on instances (tenant_id, initiator_id, start_time desc)`);
    this.addSql(
      `create index instances_archive_initiator on instances_archive (tenant_id, initiator_id, start_time desc)`,
    );
  }
}
