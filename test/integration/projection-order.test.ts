// The projection's write (src/read-model/writer.ts) in the order engine version 4 allows: two
// callers may write their answered states in either order, so a state can arrive after the final,
// archiving one. Rows only move forward by seq; a late state's tasks land in tasks_archive and its
// events still land. Written with the prepared statements of src/db/prepared.ts, on the stack's
// PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeProjection } from '../../src/read-model/writer.js';
import { createOrm, type Orm } from '../../src/db/orm.js';
import type { ProjectionSnapshot, TaskState } from '../../workflows/engine/types.js';
import { SNAPSHOT_TIME, taskState } from '../helpers/snapshots.js';

let orm: Orm;
beforeAll(async () => {
  orm = await createOrm(inject('databaseUrl'));
});
afterAll(async () => {
  await orm.close();
});

const time = SNAPSHOT_TIME;

function state(instanceId: string, seq: number, ended: boolean, tasks: TaskState[]): ProjectionSnapshot {
  return {
    seq,
    instance: {
      id: instanceId,
      tenantId: 'order-test',
      workflowId: `approval-order-test-${instanceId}`,
      definitionId: 'def-order-test',
      processKey: 'order_test',
      processVersion: 1,
      processName: 'Order test',
      businessKey: null,
      status: ended ? 'completed' : 'active',
      initiatorId: 'alice',
      variables: { seq },
      currentNodes: ended ? [] : ['approve'],
      startTime: time,
      endTime: ended ? time : null,
      endReason: ended ? 'approved' : null,
      detail: null,
    },
    tasks,
    formPermissions: {},
    actionPermissions: {},
    trail: [
      {
        id: `${instanceId}-e${seq}`,
        type: ended ? 'approve' : 'assign',
        activityId: 'approve',
        taskId: `${instanceId}-t1`,
        userId: 'bob',
        comment: null,
        time,
        detail: null,
        seq,
      } as ProjectionSnapshot['trail'][number],
    ],
    cc: [],
    notifications: [],
    ended,
  };
}

const rowsOf = async (sql: string, params: unknown[]) => orm.em.fork().execute<any[]>(sql, params);

describe('projection writes in either order', () => {
  it('the final state first, then an earlier one: the earlier lands in the archive and moves nothing back', async () => {
    const id = randomUUID();
    const t1 = `${id}-t1`;
    const final = state(id, 3, true, [taskState(t1, 3, { status: 'completed', result: 'approved', endTime: time })]);
    const earlier = state(id, 2, false, [
      taskState(t1, 2, { status: 'active' }),
      taskState(`${id}-t2`, 2, { assignee: 'erin', activityId: 'hr' }),
    ]);
    await writeProjection(orm, final, { writer: 'server' });
    await writeProjection(orm, earlier, { writer: 'server' });

    expect(await rowsOf(`select count(*)::int as n from tasks where instance_id = ?`, [id])).toEqual([{ n: 0 }]);
    expect(await rowsOf(`select count(*)::int as n from instances where id = ?`, [id])).toEqual([{ n: 0 }]);
    const archived = await rowsOf(
      `select id, status, result, seq::int as seq from tasks_archive where instance_id = ? order by id`,
      [id],
    );
    // t1 keeps the final state's row (seq 3); the earlier state's other task still lands.
    expect(archived).toEqual([
      { id: t1, status: 'completed', result: 'approved', seq: 3 },
      { id: `${id}-t2`, status: 'active', result: null, seq: 2 },
    ]);
    const [inst] = await rowsOf(`select status, seq::int as seq from instances_archive where id = ?`, [id]);
    expect(inst).toEqual({ status: 'completed', seq: 3 });
    // Both states' trail entries are in, once each.
    const trail = await rowsOf(`select id from trail where instance_id = ? order by seq`, [id]);
    expect(trail.map((r: { id: string }) => r.id)).toEqual([`${id}-e2`, `${id}-e3`]);
  });

  it('in order, and the same state twice: each row once, at its newest seq', async () => {
    const id = randomUUID();
    const t1 = `${id}-t1`;
    const first = state(id, 1, false, [taskState(t1, 1, { status: 'active' })]);
    const second = state(id, 2, false, [taskState(t1, 2, { status: 'active', assignee: 'erin' })]);
    await writeProjection(orm, first, { writer: 'server' });
    await writeProjection(orm, second, { writer: 'server' });
    await writeProjection(orm, first, { writer: 'server' });
    expect(await rowsOf(`select assignee, seq::int as seq from tasks where instance_id = ?`, [id])).toEqual([
      { assignee: 'erin', seq: 2 },
    ]);
    expect(await rowsOf(`select seq::int as seq, variables from instances where id = ?`, [id])).toEqual([
      { seq: 2, variables: { seq: 2 } },
    ]);
    expect(await rowsOf(`select count(*)::int as n from trail where instance_id = ?`, [id])).toEqual([{ n: 2 }]);
  });

  it('assignment reasons: a state with no row for its task sets the row it finds; a late, older one changes nothing', async () => {
    const id = randomUUID();
    const t1 = `${id}-t1`;
    const reasonOf = async () =>
      (await rowsOf(`select assignment_reason->>'text' as text from tasks where id = ?`, [t1]))[0]?.text;
    const assign = (seq: number, reason: string) =>
      ({
        id: `${id}-a${seq}`,
        type: 'assign',
        activityId: 'approve',
        taskId: t1,
        userId: 'bob',
        comment: null,
        time,
        detail: { reason },
        seq,
      }) as ProjectionSnapshot['trail'][number];
    // The task row first, with the reason of its own entry (seq 1).
    await writeProjection(orm, state(id, 1, false, [taskState(t1, 1, {})]), { writer: 'server' });
    const first = await reasonOf();
    // A newer state that carries an entry for the task but not the task: the row takes its reason.
    await writeProjection(
      orm,
      { ...state(id, 3, false, []), trail: [assign(3, 'user: listed in userIds (again)')] },
      {
        writer: 'server',
      },
    );
    const newer = await reasonOf();
    expect(newer).not.toBe(first);
    // An older state arriving late, with the task (seq 2) and its entry: the row keeps the newer reason.
    await writeProjection(
      orm,
      { ...state(id, 2, false, [taskState(t1, 2, {})]), trail: [assign(2, 'user: an older reason')] },
      {
        writer: 'server',
      },
    );
    expect(await reasonOf()).toBe(newer);
    expect(await rowsOf(`select seq::int as seq from tasks where id = ?`, [t1])).toEqual([{ seq: 2 }]);
  });
});

// docs/engine.md "A start that does not wait": the server's predicted first state lands only on an
// unwritten row; the workflow's correction replaces it, and never a state newer than itself.
describe('a predicted first state and its correction', () => {
  const trailOf = async (id: string) =>
    (await rowsOf(`select id from trail where instance_id = ? order by seq`, [id])).map((r: { id: string }) => r.id);
  const tasksOf = async (id: string) =>
    rowsOf(`select id, assignee, seq::int as seq from tasks where instance_id = ? order by id`, [id]);

  it('the correction after the prediction: the prediction’s rows go, the workflow’s state stands', async () => {
    const id = randomUUID();
    const predicted = state(id, 5, false, [
      taskState(`${id}-t1`, 2, { assignee: 'erin' }),
      taskState(`${id}-phantom`, 3, { assignee: 'mallory' }),
    ]);
    expect(await writeProjection(orm, predicted, { writer: 'server', predicted: true })).toBe(true);
    const correction = {
      ...state(id, 6, false, [taskState(`${id}-t1`, 2, { assignee: 'bob' })]),
      replaces: { belowSeq: 6, dropTasks: [`${id}-phantom`] },
    };
    await writeProjection(orm, correction, { writer: 'worker' });
    expect(await tasksOf(id)).toEqual([{ id: `${id}-t1`, assignee: 'bob', seq: 2 }]);
    expect(await trailOf(id)).toEqual([`${id}-e6`]);
    expect(await rowsOf(`select seq::int as seq from instances where id = ?`, [id])).toEqual([{ seq: 6 }]);
  });

  it('the correction first: the late prediction is refused whole', async () => {
    const id = randomUUID();
    const correction = {
      ...state(id, 6, false, [taskState(`${id}-t1`, 2, { assignee: 'bob' })]),
      replaces: { belowSeq: 6, dropTasks: [`${id}-phantom`] },
    };
    await writeProjection(orm, correction, { writer: 'worker' });
    const predicted = state(id, 5, false, [
      taskState(`${id}-t1`, 2, { assignee: 'erin' }),
      taskState(`${id}-phantom`, 3, { assignee: 'mallory' }),
    ]);
    expect(await writeProjection(orm, predicted, { writer: 'server', predicted: true })).toBe(false);
    expect(await tasksOf(id)).toEqual([{ id: `${id}-t1`, assignee: 'bob', seq: 2 }]);
    expect(await trailOf(id)).toEqual([`${id}-e6`]);
  });

  it('a correction that arrives after a newer state removes only the tasks the workflow never had', async () => {
    const id = randomUUID();
    await writeProjection(
      orm,
      state(id, 5, false, [taskState(`${id}-t1`, 2, { assignee: 'bob' }), taskState(`${id}-phantom`, 3, {})]),
      { writer: 'server', predicted: true },
    );
    // A decision's state (seq 9) was written before the correction (seq 6) arrived.
    await writeProjection(
      orm,
      state(id, 9, false, [taskState(`${id}-t1`, 9, { assignee: 'bob', status: 'completed' })]),
      {
        writer: 'server',
      },
    );
    await writeProjection(
      orm,
      {
        ...state(id, 6, false, [taskState(`${id}-t1`, 2, { assignee: 'bob' })]),
        replaces: { belowSeq: 6, dropTasks: [`${id}-phantom`] },
      },
      { writer: 'worker' },
    );
    expect(await tasksOf(id)).toEqual([{ id: `${id}-t1`, assignee: 'bob', seq: 9 }]);
    expect(await trailOf(id)).toEqual([`${id}-e5`, `${id}-e6`, `${id}-e9`]);
    expect(await rowsOf(`select seq::int as seq from instances where id = ?`, [id])).toEqual([{ seq: 9 }]);
  });
});
