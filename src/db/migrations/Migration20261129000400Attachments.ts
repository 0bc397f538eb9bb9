import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 47: attachments (docs/attachments.md). The bytes live in the store (disk or S3); a row is
 * written only once the whole object is stored, so a row always names a whole object. `source`
 * says where the file is attached ('upload': not yet, only its uploader sees it); `deleting` marks
 * rows whose objects the sweeper removes (an instance deleted, an orphan past its hours); `store`
 * names the back end that holds the bytes (a server sweeps only its own).
 */
export class Migration20261129000400Attachments extends Migration {
  override up(): void {
    this.addSql(`create table attachments (
      id text primary key,
      tenant_id text not null,
      name text not null,
      size bigint not null,
      content_type text not null,
      ext text not null,
      sha256 text not null,
      uploader_id text not null,
      store text not null check (store in ('disk', 's3')),
      storage_key text not null,
      source text not null default 'upload' check (source in ('upload', 'form', 'comment', 'action')),
      instance_id text,
      task_id text,
      comment_id text,
      field text,
      created_at timestamptz not null default now(),
      attached_at timestamptz,
      deleting boolean not null default false
    )`);
    this.addSql(
      'create index attachments_instance on attachments (tenant_id, instance_id) where instance_id is not null',
    );
    this.addSql("create index attachments_orphans on attachments (created_at) where source = 'upload'");
    this.addSql('create index attachments_deleting on attachments (id) where deleting');
    this.addSql('create index attachments_comment on attachments (comment_id) where comment_id is not null');
    this.addSql('alter table tenants add column attachment_limits jsonb');
  }

  override down(): void {
    this.addSql('drop table if exists attachments; alter table tenants drop column if exists attachment_limits;');
  }
}
