import { Migration } from '@mikro-orm/migrations';

/** The fan-out itself, as migration 20261125000100 wrote it: unchanged here. */
const QUEUE = `insert into notification_deliveries (tenant_id, notification_id, channel_id, user_id, kind)
        select new.tenant_id, new.id, c.id, new.user_id, new.kind
        from notification_channels c
        where c.tenant_id = new.tenant_id and c.enabled and jsonb_exists(c.kinds, new.kind)
        on conflict do nothing;`;

/**
 * The dispatcher wakes when there is something to send, not on every notification: the fan-out
 * trigger NOTIFYs `notification_deliveries` (payload: the tenant) only when it queued a delivery.
 * Before, every dispatcher ran a round — digest planning and a claim, two statements — for each
 * notification row, though most have no channel to go to (docs/performance.md). Notifications of
 * one transaction for one tenant wake it once: PostgreSQL folds equal NOTIFYs of a transaction.
 */
export class Migration20261126000200DeliveryWake extends Migration {
  override up(): void {
    this.addSql(`create or replace function notification_fan_out() returns trigger language plpgsql as $$
      declare queued integer;
      begin
        ${QUEUE}
        get diagnostics queued = row_count;
        if queued > 0 then
          perform pg_notify('notification_deliveries', new.tenant_id);
        end if;
        return null;
      end $$`);
  }

  override down(): void {
    this.addSql(`create or replace function notification_fan_out() returns trigger language plpgsql as $$
      begin
        ${QUEUE}
        return null;
      end $$`);
  }
}
