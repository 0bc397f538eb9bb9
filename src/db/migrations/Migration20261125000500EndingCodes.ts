import { Migration } from '@mikro-orm/migrations';

/**
 * Why an instance ended, as a code and its parameters (dsl/ending.ts) beside the English
 * `end_reason`, so every reader gets it in their own language. Instances that ended before keep
 * only their words, except the few whose words say their code exactly (withdrawn; terminated or
 * completed by an administrator, with the reason they gave).
 */
export class Migration20261125000500EndingCodes extends Migration {
  override up(): void {
    for (const t of ['instances', 'instances_archive']) {
      this.addSql(`alter table ${t} add column end_code text, add column end_params jsonb`);
      this.addSql(
        `update ${t} set end_code = 'end.withdrawn', end_params = '{}'::jsonb where end_reason = 'Withdrawn by applicant'`,
      );
      for (const [code, words] of [
        ['end.terminated', 'Terminated by an administrator'],
        ['end.completed', 'Completed by an administrator'],
      ]) {
        this.addSql(
          `update ${t} set end_code = '${code}', end_params = jsonb_build_object('reason', null) where end_reason = '${words}'`,
        );
        this.addSql(
          `update ${t} set end_code = '${code}', end_params = jsonb_build_object('reason', substr(end_reason, ${words.length + 3}))
           where starts_with(end_reason, '${words}: ')`,
        );
      }
    }
  }

  override down(): void {
    for (const t of ['instances', 'instances_archive'])
      this.addSql(`alter table ${t} drop column end_code, drop column end_params`);
  }
}
