import { Migration } from '@mikro-orm/migrations';

/**
 * Write-ahead intents (engine version 4, docs/engine.md "Read model"): the server records
 * "Update U sent to instance X" before sending it and deletes the row in the transaction that
 * writes the answered state. A row older than a few seconds is a write that may be missing:
 * the sweeper writes the instance from the workflow's own answer (`sweepState`).
 * `lease_until`: a sweeper holds the row while it works on it (others skip it).
 */
export class Migration20261126000100ProjectionIntents extends Migration {
  override up(): void {
    this.addSql(`create table projection_intents (
      update_id text primary key,
      tenant_id text not null,
      instance_id text not null,
      created_at timestamptz not null default now(),
      lease_until timestamptz
    )`);
    this.addSql(`create index projection_intents_created on projection_intents (created_at)`);
  }

  override down(): void {
    this.addSql(`drop table projection_intents`);
  }
}
