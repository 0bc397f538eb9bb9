import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 48: the server writes an instance's first state itself (docs/engine.md "A start that does
 * not wait"). That write may land only on the row the start inserted (seq 0): when the workflow
 * corrected the prediction first, its state stands and the server's write is refused whole. A
 * function, because a statement cannot abort its transaction on a condition otherwise.
 */
export class Migration20261129000600FirstState extends Migration {
  override up(): void {
    this.addSql(`create or replace function first_state_unwritten(instance text) returns boolean language plpgsql as $$
begin
  if exists (select 1 from instances where id = instance and seq > 0)
     or exists (select 1 from instances_archive where id = instance) then
    raise exception 'the first state of % is written already', instance using errcode = 'AP001';
  end if;
  return true;
end $$`);
  }

  override down(): void {
    this.addSql('drop function if exists first_state_unwritten(text)');
  }
}
