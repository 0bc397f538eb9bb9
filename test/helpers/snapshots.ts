// Pieces of projection snapshots (workflows/engine/types.ts) for the tests and the bench that
// write them to the read model directly (src/read-model/writer.ts writeProjection).
import type { TaskState } from '../../workflows/engine/types.js';

export const SNAPSHOT_TIME = '2026-11-26T05:00:00.000Z';

/** An active approval task of bob's at node `approve`, with `fields` over it. */
export function taskState(id: string, seq: number, fields: Partial<TaskState> = {}): TaskState & { seq: number } {
  return {
    id,
    activityId: 'approve',
    name: 'Approve',
    kind: 'approval',
    assignee: 'bob',
    candidates: { userIds: [], roleIds: [], deptIds: [] },
    status: 'active',
    result: null,
    parentTaskId: null,
    owner: null,
    addedBy: null,
    dueDate: null,
    createTime: SNAPSHOT_TIME,
    endTime: null,
    comment: null,
    variables: {},
    runId: 'r1',
    suspendedFrom: null,
    seq,
    ...fields,
  };
}
