// The two writes of a start whose first state the server predicted (docs/engine.md "A start that
// does not wait"): the server's own, allowed only onto the row its start inserted, and the
// workflow's correction, which replaces it. Statements of writer.ts's locked write.
import type { ProjectionSnapshot } from '../../workflows/engine/types.js';
import type { Statement } from '../db/locked-transaction.js';

/**
 * The server's prediction of a first state goes only onto the row its start inserted: once the
 * workflow wrote (a correction that came first), the whole write is refused (SQLSTATE AP001,
 * FIRST_STATE_WRITTEN) and the workflow's state stands. Migration20261129000600FirstState.
 */
export const unwritten = (instanceId: string): Statement => ({
  sql: `select first_state_unwritten(?)`,
  params: [instanceId],
});

export const FIRST_STATE_WRITTEN = 'AP001';

/**
 * A correction of the server's prediction (ProjectionSnapshot.replaces): the rows the prediction
 * wrote go, unless a state newer than the correction is there already (then only the task ids the
 * workflow never had), and the instance row takes the correction whatever its sequence number.
 */
export function replacePredicted(instanceId: string, r: NonNullable<ProjectionSnapshot['replaces']>): Statement {
  const older = `(select seq from instances where id = ?) < ?::bigint`;
  return {
    sql: `with t as (delete from tasks where instance_id = ?
         and (id = any(array(select jsonb_array_elements_text(?::jsonb))) or ${older})),
       tr as (delete from trail where instance_id = ? and ${older}),
       cc as (delete from cc_records where instance_id = ? and ${older})
     update instances set seq = 0 where id = ? and seq < ?::bigint`,
    params: [
      instanceId,
      JSON.stringify(r.dropTasks),
      instanceId,
      r.belowSeq,
      instanceId,
      instanceId,
      r.belowSeq,
      instanceId,
      instanceId,
      r.belowSeq,
      instanceId,
      r.belowSeq,
    ],
  };
}
