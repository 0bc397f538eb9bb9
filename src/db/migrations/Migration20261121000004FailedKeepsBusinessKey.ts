import { Migration } from '@mikro-orm/migrations';

/** A failed instance still runs (it waits to be re-driven), so it keeps its business key. */
export class Migration20261121000004FailedKeepsBusinessKey extends Migration {
  override up(): void {
    this.addSql(`drop index if exists instances_live_business_key`);
    this.addSql(
      `create unique index instances_live_business_key on instances (tenant_id, business_key) where status in ('active', 'suspended', 'failed') and business_key is not null`,
    );
  }

  override down(): void {
    this.addSql(`drop index if exists instances_live_business_key`);
    this.addSql(
      `create unique index instances_live_business_key on instances (tenant_id, business_key) where status in ('active', 'suspended') and business_key is not null`,
    );
  }
}
