import { Migration } from '@mikro-orm/migrations';
import { createdAt, createTable, updatedAt } from './ddl.js';

/**
 * Notification preferences (docs/channels.md#preferences): per user, which kinds go to which channel,
 * quiet hours and a daily digest. A delivery row may now be a digest (no notification, one per user,
 * channel and day) and may be held for quiet hours (`held_until`).
 */
export class Migration20261125000200NotificationPreferences extends Migration {
  override up(): void {
    this.addSql(
      createTable('notification_preferences', [
        'tenant_id text not null',
        'user_id text not null',
        `channels jsonb not null default '[]'`,
        `time_zone text not null default 'UTC'`,
        'quiet_start text',
        'quiet_end text',
        `quiet_urgent boolean not null default true`,
        'digest_hour integer check (digest_hour between 0 and 23)',
        // The next time the digest is due: the dispatcher plans the digests whose time has come.
        'digest_next_at timestamptz',
        createdAt,
        updatedAt,
        'primary key (tenant_id, user_id)',
        'foreign key (tenant_id, user_id) references users (tenant_id, id) on delete cascade',
      ]),
    );
    this.addSql(
      `create index notification_preferences_digest_due on notification_preferences (digest_next_at) where digest_next_at is not null`,
    );
    this.addSql(`alter table notification_deliveries
      alter column notification_id drop not null,
      add column digest_date date,
      add column digest_links jsonb,
      add column held_until timestamptz,
      add constraint notification_deliveries_one_source check ((notification_id is null) <> (digest_date is null))`);
    // One digest per user, channel and day, however many dispatchers plan it.
    this.addSql(
      `create unique index notification_deliveries_digest_uq on notification_deliveries (channel_id, user_id, digest_date) where digest_date is not null`,
    );
  }

  override down(): void {
    this.addSql(`drop index notification_deliveries_digest_uq`);
    this.addSql(`delete from notification_deliveries where digest_date is not null`);
    this.addSql(`alter table notification_deliveries
      drop constraint notification_deliveries_one_source,
      drop column digest_date, drop column digest_links, drop column held_until,
      alter column notification_id set not null`);
    this.addSql(`drop table notification_preferences`);
  }
}
