import { Migration } from '@mikro-orm/migrations';
import { versionedTable } from './ddl.js';

const definitions = versionedTable('process_definitions', {
  statuses: ['draft', 'active', 'retired'],
  content: ['dsl jsonb not null', 'form jsonb'],
  releasedAt: 'deployed_at',
});

export class Migration20261121000002Definitions extends Migration {
  override up(): void {
    this.addSql(definitions.create);
    this.addSql(definitions.versionUnique);
    // The database itself guarantees at most one active version per key and tenant.
    this.addSql(
      `create unique index process_definitions_active_uq on process_definitions (tenant_id, key) where status = 'active'`,
    );
    this.addSql(definitions.listIndex);
  }

  override down(): void {
    this.addSql('drop table process_definitions;');
  }
}
