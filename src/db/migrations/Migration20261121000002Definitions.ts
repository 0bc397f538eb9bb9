import { Migration } from '@mikro-orm/migrations';

export class Migration20261121000002Definitions extends Migration {
  override name = 'Migration20261121000002Definitions';

  override up(): void {
    this.addSql(`create table process_definitions (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      key text not null,
      name text not null,
      version integer,
      status text not null check (status in ('draft', 'active', 'retired')),
      category text,
      description text,
      dsl jsonb not null,
      form jsonb,
      created_by text,
      updated_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deployed_at timestamptz,
      check ((status = 'draft') = (version is null)))`);
    this.addSql(
      `create unique index process_definitions_version_uq on process_definitions (tenant_id, key, version) where version is not null`,
    );
    // The database itself guarantees at most one active version per key and tenant.
    this.addSql(
      `create unique index process_definitions_active_uq on process_definitions (tenant_id, key) where status = 'active'`,
    );
    this.addSql(`create index process_definitions_list_idx on process_definitions (tenant_id, created_at desc, id)`);
  }

  override down(): void {
    this.addSql('drop table process_definitions;');
  }
}
