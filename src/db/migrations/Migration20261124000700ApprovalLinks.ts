import { Migration } from '@mikro-orm/migrations';

/**
 * One-time approval links (docs/task-actions.md#one-time-approval-links). The signed token names a
 * row here; the row makes it single-use (`used_at`, set by one conditional update), revocable
 * (`revoked_at`) and dead once its task closes (`closed_at`, set by the projection).
 */
export class Migration20261124000700ApprovalLinks extends Migration {
  override up(): void {
    this.addSql(`create table approval_links (
      id text primary key,
      tenant_id text not null,
      task_id text not null,
      instance_id text not null,
      user_id text not null,
      actions jsonb not null,
      channel text not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz,
      used_action text,
      revoked_at timestamptz,
      revoked_by text,
      closed_at timestamptz
    )`);
    this.addSql(`create index approval_links_task on approval_links (tenant_id, task_id)`);
    this.addSql(`create index approval_links_open_task on approval_links (task_id) where closed_at is null`);
  }

  override down(): void {
    this.addSql(`drop table approval_links`);
  }
}
