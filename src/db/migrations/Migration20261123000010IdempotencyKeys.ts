import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys bound to the request body they first came with (docs/contract.md, docs/http.md). `scope` is
 * sha256(tenant, user, method, path, key) and is also the Update id; `body_hash` is sha256 of the
 * canonical JSON body. Shared by every replica, so the same key with another body is refused
 * before any Update is sent.
 */
export class Migration20261123000010IdempotencyKeys extends Migration {
  override up(): void {
    this.addSql(`create table idempotency_keys (
      scope text primary key,
      body_hash text not null,
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create index idempotency_keys_created_at on idempotency_keys (created_at)`);
  }

  override down(): void {
    this.addSql(`drop table idempotency_keys`);
  }
}
