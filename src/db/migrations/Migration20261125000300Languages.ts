import { Migration } from '@mikro-orm/migrations';

/**
 * Languages (docs/console.md "Languages"): trail entries the engine writes carry a code and its
 * parameters (dsl/history.ts) besides the English comment, so every reader gets them in their own
 * language; older entries keep only their comment. A tenant may set the default language of its
 * messages (null: English).
 */
export class Migration20261125000300Languages extends Migration {
  override up(): void {
    this.addSql(`alter table trail add column code text, add column params jsonb`);
    this.addSql(`alter table tenants add column default_locale text`);
  }

  override down(): void {
    this.addSql(`alter table trail drop column code, drop column params`);
    this.addSql(`alter table tenants drop column default_locale`);
  }
}
