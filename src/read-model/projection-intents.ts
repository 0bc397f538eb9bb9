// Write-ahead intents (engine version 4, docs/engine.md "Read model"). The server records
// "Update U sent to instance X" before it sends U, and the write of U's answered state deletes
// the row in the same statement (src/read-model/writer.ts). A row that outlives a few seconds
// is a state that may be recorded in Temporal but missing from PostgreSQL — the server died or
// its write failed — and the sweeper (projection-sweeper.ts) writes it from the workflow.
import type { Orm } from '../db/orm.js';
import type { IntentLog } from '../context.js';

export type { IntentLog };

const RECORD_INTENT_SQL = `insert into projection_intents (update_id, tenant_id, instance_id) values (?, ?, ?)
  on conflict (update_id) do nothing`;

/**
 * The insert as a part other statements carry, for one round trip with a look-up: followed by
 * `from <rows with tenant_id and instance_id> on conflict (update_id) do nothing` (a re-sent request
 * keeps its first row); its one parameter is the Update id.
 */
export const RECORD_INTENT_SELECT = `insert into projection_intents (update_id, tenant_id, instance_id)
  select ?::text, tenant_id, instance_id`;

export function pgIntentLog(orm: Orm): IntentLog {
  return {
    async record(updateId, tenantId, instanceId) {
      await orm.em.fork().execute(RECORD_INTENT_SQL, [updateId, tenantId, instanceId]);
    },
    async drop(updateId) {
      await orm.em.fork().execute(`delete from projection_intents where update_id = ?`, [updateId]);
    },
  };
}
