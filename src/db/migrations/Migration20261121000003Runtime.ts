import { Migration } from '@mikro-orm/migrations';

// The read model the workflows project into. Instances and tasks have runtime tables and
// archive tables of the same shape; an ended instance moves to the archive in one transaction.
const instanceColumns = `
  id text primary key,
  tenant_id text not null,
  workflow_id text,
  definition_id text not null,
  process_key text not null,
  process_version integer,
  process_name text not null,
  business_key text,
  status text not null,
  initiator_id text not null,
  variables jsonb not null default '{}',
  current_nodes jsonb not null default '[]',
  start_time timestamptz not null default now(),
  end_time timestamptz,
  end_reason text,
  detail jsonb,
  seq bigint not null default 0,
  updated_at timestamptz not null default now()`;

const taskColumns = `
  id text primary key,
  tenant_id text not null,
  instance_id text not null,
  process_key text not null,
  process_name text not null,
  business_key text,
  initiator_id text not null,
  activity_id text not null,
  name text not null,
  kind text not null,
  assignee text,
  candidates jsonb not null default '{"userIds":[],"roleIds":[],"deptIds":[]}',
  status text not null,
  result text,
  parent_task_id text,
  owner text,
  added_by text,
  due_date timestamptz,
  create_time timestamptz not null,
  end_time timestamptz,
  comment text,
  variables jsonb not null default '{}',
  form_permissions jsonb,
  action_permissions jsonb,
  deleted boolean not null default false,
  seq bigint not null default 0`;

export class Migration20261121000003Runtime extends Migration {
  override up(): void {
    this.addSql(`create table instances (${instanceColumns})`);
    this.addSql(`create table instances_archive (${instanceColumns})`);
    // A business key is taken while an instance with it is running or suspended.
    this.addSql(
      `create unique index instances_live_business_key on instances (tenant_id, business_key) where status in ('active', 'suspended') and business_key is not null`,
    );
    this.addSql(`create index instances_tenant_status on instances (tenant_id, status, start_time desc)`);
    this.addSql(`create index instances_initiator on instances (tenant_id, initiator_id, start_time desc)`);
    this.addSql(`create index instances_definition on instances (definition_id)`);
    this.addSql(`create index instances_archive_tenant on instances_archive (tenant_id, start_time desc)`);
    this.addSql(
      `create index instances_archive_initiator on instances_archive (tenant_id, initiator_id, start_time desc)`,
    );

    this.addSql(`create table tasks (${taskColumns})`);
    this.addSql(`create table tasks_archive (${taskColumns})`);
    this.addSql(`create index tasks_instance on tasks (instance_id)`);
    this.addSql(`create index tasks_assignee on tasks (tenant_id, assignee, status)`);
    this.addSql(`create index tasks_status on tasks (tenant_id, status, create_time desc)`);
    this.addSql(`create index tasks_candidates on tasks using gin (candidates)`);
    this.addSql(`create index tasks_archive_instance on tasks_archive (instance_id)`);
    this.addSql(`create index tasks_archive_assignee on tasks_archive (tenant_id, assignee)`);

    this.addSql(`create table trail (
      id text primary key,
      tenant_id text not null,
      instance_id text not null,
      type text not null,
      activity_id text,
      task_id text,
      user_id text,
      comment text,
      time timestamptz not null,
      detail jsonb,
      seq bigint not null)`);
    this.addSql(`create index trail_instance on trail (instance_id, seq)`);
    this.addSql(`create index trail_user on trail (tenant_id, user_id)`);

    this.addSql(`create table cc_records (
      tenant_id text not null,
      instance_id text not null,
      activity_id text not null,
      user_id text not null,
      cc_time timestamptz not null,
      read boolean not null default false,
      primary key (instance_id, activity_id, user_id))`);
    this.addSql(`create index cc_user on cc_records (tenant_id, user_id, cc_time desc)`);

    this.addSql(`create table task_comments (
      id text primary key,
      tenant_id text not null,
      task_id text not null,
      instance_id text not null,
      user_id text not null,
      comment text not null,
      time timestamptz not null default now())`);
    this.addSql(`create index task_comments_task on task_comments (task_id, time)`);

    // The outbox of notifications; the dedupe key makes a repeated projection a no-op.
    this.addSql(`create table notifications (
      id bigserial primary key,
      dedupe_key text unique,
      tenant_id text not null,
      user_id text not null,
      kind text not null,
      instance_id text,
      task_id text,
      payload jsonb not null default '{}',
      created_at timestamptz not null default now(),
      read_at timestamptz)`);
    this.addSql(`create index notifications_user on notifications (tenant_id, user_id, id desc)`);
  }

  override down(): void {
    this.addSql(
      'drop table notifications, task_comments, cc_records, trail, tasks_archive, tasks, instances_archive, instances',
    );
  }
}
