import { Migration } from '@mikro-orm/migrations';
import { createdAt, createTable, ofTenant, updatedAt } from './ddl.js';

/**
 * Notification channels (docs/channels.md): a tenant's email and chat channels, each user's address
 * on a channel, and one delivery row per notification and channel — the channel's own delivery
 * state. A trigger on the outbox adds the delivery rows in the notification's own transaction, so
 * no notification is missed between its commit and the dispatcher; a tenant without channels gets
 * none. Users gain an optional e-mail address and language.
 */
export class Migration20261125000100NotificationChannels extends Migration {
  override up(): void {
    this.addSql(`alter table users add column email text, add column locale text`);
    this.addSql(
      createTable('notification_channels', [
        'id text primary key',
        ofTenant,
        'name text not null',
        `kind text not null check (kind in ('email', 'slack', 'teams', 'feishu', 'dingtalk', 'wecom', 'webhook'))`,
        'enabled boolean not null default true',
        `kinds jsonb not null default '[]'`,
        `settings jsonb not null default '{}'`,
        `secrets jsonb not null default '{}'`,
        'created_by text',
        'updated_by text',
        createdAt,
        updatedAt,
      ]),
    );
    this.addSql(`create unique index notification_channels_name_uq on notification_channels (tenant_id, name)`);
    this.addSql(
      createTable('notification_channel_addresses', [
        'channel_id text not null references notification_channels(id) on delete cascade',
        'tenant_id text not null',
        'user_id text not null',
        'address text not null',
        createdAt,
        updatedAt,
        'primary key (channel_id, user_id)',
      ]),
    );
    this.addSql(
      createTable('notification_deliveries', [
        'id bigserial primary key',
        'tenant_id text not null',
        'notification_id bigint not null references notifications(id) on delete cascade',
        'channel_id text not null references notification_channels(id) on delete cascade',
        'user_id text not null',
        'kind text not null',
        `status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'failed', 'skipped'))`,
        'attempts integer not null default 0',
        'next_attempt_at timestamptz not null default now()',
        'lease_owner text',
        'lease_until timestamptz',
        'message_id text',
        'link_id text',
        'address text',
        'response text',
        'last_error text',
        createdAt,
        updatedAt,
        'sent_at timestamptz',
        'unique (notification_id, channel_id)',
      ]),
    );
    // What the dispatcher claims next: due rows and rows whose claimer's lease ran out.
    this.addSql(
      `create index notification_deliveries_due on notification_deliveries (next_attempt_at, id) where status in ('pending', 'sending')`,
    );
    this.addSql(`create index notification_deliveries_log on notification_deliveries (tenant_id, id desc)`);
    this.addSql(`create function notification_fan_out() returns trigger language plpgsql as $$
      begin
        insert into notification_deliveries (tenant_id, notification_id, channel_id, user_id, kind)
        select new.tenant_id, new.id, c.id, new.user_id, new.kind
        from notification_channels c
        where c.tenant_id = new.tenant_id and c.enabled and jsonb_exists(c.kinds, new.kind)
        on conflict do nothing;
        return null;
      end $$`);
    this.addSql(
      `create trigger notifications_fan_out after insert on notifications for each row execute function notification_fan_out()`,
    );
  }

  override down(): void {
    this.addSql(`drop trigger if exists notifications_fan_out on notifications`);
    this.addSql(`drop function if exists notification_fan_out()`);
    this.addSql(`drop table notification_deliveries, notification_channel_addresses, notification_channels`);
    this.addSql(`alter table users drop column email, drop column locale`);
  }
}
