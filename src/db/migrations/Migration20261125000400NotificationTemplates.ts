import { Migration } from '@mikro-orm/migrations';
import { createdAt, createTable, ofTenant, updatedAt } from './ddl.js';

/** Channels that send every kind there was: they send instance_ended too (the kind is new). */
const OLD_DEFAULT_KINDS = [
  'task_assigned',
  'task_claimable',
  'urge',
  'task_overdue',
  'cc',
  'task_returned',
  'task_decided_on_behalf',
  'task_reassigned',
  'instance_withdrawn',
];

/**
 * A tenant's message templates (docs/channels.md#templates): per notification kind and language, the
 * parts that override the default (Liquid sources, checked before they are stored). Channels that
 * send every kind start sending the new instance_ended kind.
 */
export class Migration20261125000400NotificationTemplates extends Migration {
  override up(): void {
    this.addSql(
      createTable('notification_templates', [
        ofTenant,
        'kind text not null',
        'locale text not null',
        `parts jsonb not null default '{}'`,
        'created_by text',
        'updated_by text',
        createdAt,
        updatedAt,
        'primary key (tenant_id, kind, locale)',
      ]),
    );
    this.addSql(
      `update notification_channels set kinds = kinds || '["instance_ended"]'::jsonb
        where kinds @> '${JSON.stringify(OLD_DEFAULT_KINDS)}'::jsonb and not kinds ? 'instance_ended'`,
    );
  }

  override down(): void {
    this.addSql(`drop table notification_templates`);
    this.addSql(`update notification_channels set kinds = kinds - 'instance_ended'`);
  }
}
