import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 46: searching the directory (`q` on the user, department and role lists). Each row gets a
 * `search_text` (its fields normalised, with pinyin and initials for Chinese; src/directory/people-search.ts).
 * pinyin-pro runs in the application, so this migration cannot fill it: rows start null and the
 * first search of a tenant fills its null rows (the partial indexes find them at once), as it does
 * for rows written without it (the seed, SQL) or after a department's rename. A pg_trgm GIN index
 * answers contains and a word's start (`%q%`, `%|q%`, `% q%`) for users and departments; roles are few.
 * pg_trgm is a trusted extension (PostgreSQL 13+): the database's owner may create it.
 */
export class Migration20261129000200PeopleSearch extends Migration {
  override up(): void {
    this.addSql('create extension if not exists pg_trgm');
    for (const table of ['users', 'departments', 'roles']) {
      this.addSql(`alter table ${table} add column search_text text`);
      this.addSql(`create index ${table}_search_pending_idx on ${table} (tenant_id) where search_text is null`);
    }
    this.addSql('create index users_search_trgm_idx on users using gin (search_text gin_trgm_ops)');
    this.addSql('create index departments_search_trgm_idx on departments using gin (search_text gin_trgm_ops)');
  }

  override down(): void {
    for (const table of ['users', 'departments', 'roles']) {
      this.addSql(`drop index if exists ${table}_search_pending_idx`);
      this.addSql(`alter table ${table} drop column search_text`);
    }
  }
}
