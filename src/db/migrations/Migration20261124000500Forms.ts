import { Migration } from '@mikro-orm/migrations';
import { versionedTable } from './ddl.js';

const forms = versionedTable('forms', {
  statuses: ['draft', 'published', 'retired'],
  content: ['schema jsonb not null'],
  releasedAt: 'published_at',
});

/** Stored forms (docs/forms.md): drafts and numbered, published versions of a key per tenant. */
export class Migration20261124000500Forms extends Migration {
  override up(): void {
    this.addSql(forms.create);
    this.addSql(forms.versionUnique);
    this.addSql(forms.listIndex);
  }

  override down(): void {
    this.addSql('drop table if exists forms');
  }
}
