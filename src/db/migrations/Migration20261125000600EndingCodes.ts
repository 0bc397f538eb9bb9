import { Migration } from '@mikro-orm/migrations';

/**
 * The codes of instances that ended before codes existed, where their words say one exactly
 * (withdrawn; terminated or completed by an administrator, with the reason they gave). Rejections
 * and sub-process endings name a node or a process in their words: they keep their words only.
 */
export function endingBackfill(table: string): string[] {
  const out = [
    `update ${table} set end_code = 'end.withdrawn', end_params = '{}'::jsonb
     where end_code is null and end_reason = 'Withdrawn by applicant'`,
  ];
  for (const [code, words] of [
    ['end.terminated', 'Terminated by an administrator'],
    ['end.completed', 'Completed by an administrator'],
  ])
    out.push(
      `update ${table} set end_code = '${code}', end_params = jsonb_build_object('reason', null)
       where end_code is null and end_reason = '${words}'`,
      `update ${table} set end_code = '${code}', end_params = jsonb_build_object('reason', substr(end_reason, ${words.length + 3}))
       where end_code is null and starts_with(end_reason, '${words}: ')`,
    );
  return out;
}

/**
 * Why an instance ended, as a code and its parameters (dsl/ending.ts) beside the English
 * `end_reason`, so every reader gets it in their own language. Instances that ended before keep
 * their words, and get the code their words say exactly (endingBackfill).
 */
export class Migration20261125000600EndingCodes extends Migration {
  override up(): void {
    for (const t of ['instances', 'instances_archive']) {
      this.addSql(`alter table ${t} add column end_code text, add column end_params jsonb`);
      for (const sql of endingBackfill(t)) this.addSql(sql);
    }
  }

  override down(): void {
    for (const t of ['instances', 'instances_archive'])
      this.addSql(`alter table ${t} drop column end_code, drop column end_params`);
  }
}
