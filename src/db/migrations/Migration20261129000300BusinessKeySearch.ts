import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 46: a monitor's search for part of a business key (`q` on the instance lists, `ilike
 * '%q%'`) across a whole tenant: pg_trgm GIN indexes (the extension comes with the people search's
 * migration) so it does not scan every instance.
 */
export class Migration20261129000300BusinessKeySearch extends Migration {
  override up(): void {
    this.addSql('create index instances_business_key_trgm on instances using gin (business_key gin_trgm_ops)');
    this.addSql(
      'create index instances_archive_business_key_trgm on instances_archive using gin (business_key gin_trgm_ops)',
    );
  }

  override down(): void {
    this.addSql(
      'drop index if exists instances_business_key_trgm; drop index if exists instances_archive_business_key_trgm;',
    );
  }
}
