import { Migration } from '@mikro-orm/migrations';

/**
 * The user ids a definition's rules name (`userIds` anywhere in its DSL), kept by PostgreSQL
 * itself so no version can drift from its DSL: a task action reads these users with its task and
 * sends them with the Update (src/services/tasks.ts, workflows/engine/directory-snapshot.ts).
 * Lax mode may list an id twice (arrays are unwrapped as they are walked); readers take a set.
 */
export class Migration20261126000200DefinitionDirectoryUsers extends Migration {
  override up(): void {
    this.addSql(
      `alter table process_definitions add column directory_user_ids jsonb
         generated always as (jsonb_path_query_array(dsl, 'lax $.**.userIds[*] ? (@.type() == "string")')) stored`,
    );
  }

  override down(): void {
    this.addSql(`alter table process_definitions drop column directory_user_ids`);
  }
}
