import { Migration } from '@mikro-orm/migrations';

/** Stored forms (docs/forms.md): drafts and numbered, published versions of a key per tenant. */
export class Migration20261124000500Forms extends Migration {
  override name = 'Migration20261124000500Forms';

  override up(): void {
    this.addSql(`create table forms (
      id text primary key,
      tenant_id text not null references tenants(id) on delete cascade,
      key text not null,
      name text not null,
      version integer,
      status text not null check (status in ('draft', 'published', 'retired')),
      category text,
      description text,
      schema jsonb not null,
      created_by text,
      updated_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      published_at timestamptz,
      check ((status = 'draft') = (version is null)))`);
    this.addSql(`create unique index forms_version_uq on forms (tenant_id, key, version) where version is not null`);
    this.addSql(`create index forms_list_idx on forms (tenant_id, created_at desc, id)`);
  }

  override down(): void {
    this.addSql('drop table if exists forms');
  }
}
