// Recall, approve/reject on behalf and autoApproveRepeated over real HTTP (docs/task-actions.md#recall,
// docs/dsl.md): success paths (task states, trail, notifications, views right after the 200), every
// refusal with its code, and a recall racing the next approver (exactly one wins).
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { findTemporalCli } from '../../src/runtime/temporal-cli.js';
import { createLogger } from '../../src/observability/logger.js';
import { api, createDemoLikeTenant, expectError, notifiedUsers } from '../helpers/api.js';
import { act, actOk, deploy, instance, myTask, start, todo } from '../helpers/flow.js';
import { linear, steps, users } from '../helpers/dsl.js';

const ROUNDS = 10;

describe('recall and approve on behalf', () => {
  let t: Record<string, string>;
  let tenantId: string;
  let foreign: Record<string, string>;
  let db: any;

  const trail = async (instanceId: string) => (await instance(t.admin, instanceId)).trail as any[];
  const tasksOf = async (instanceId: string) =>
    (await api(`/api/v1/workflow/tasks?instanceId=${instanceId}&pageSize=200`, { token: t.admin })).body.data
      .items as any[];
  const notified = (instanceId: string, kind: string) => notifiedUsers(db, instanceId, kind);

  /** bob → carol → erin */
  const chain = (key: string, processInfo: Record<string, unknown> = {}) =>
    linear(key, steps(users('bob'), users('carol'), users('erin')), processInfo);

  beforeAll(async () => {
    ({ tokens: t, tenantId } = await createDemoLikeTenant('rc'));
    ({ tokens: foreign } = await createDemoLikeTenant('rd'));
    db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    await deploy(t.admin, chain('rc_chain'));
    await deploy(t.admin, chain('rc_off', { actionPermissions: { recall: false } }));
    await deploy(
      t.admin,
      linear('rc_seq', [{ id: 's', configuration: { ...users('bob', 'carol'), approveMode: 'sequential' } }]),
    );
    await deploy(t.admin, linear('rc_pool', [{ id: 'p', configuration: users('bob', 'carol') }]));
  });
  afterAll(async () => db?.end());

  describe('recall', () => {
    it('re-opens the approver’s task and cancels what the approval created; the flow runs on', async () => {
      const id = await start(t.alice, 'rc_chain');
      const mine = await myTask(t.bob, id);
      await actOk(t.bob, mine.id, 'approve', { comment: 'ok' });
      const next = await myTask(t.carol, id);

      const answer = await actOk(t.bob, mine.id, 'recall', { reason: 'attached the wrong quote' });
      expect(answer.task).toMatchObject({ id: mine.id, status: 'active', assignee: 'bob' });
      expect(answer.instance).toEqual({ id, status: 'active' });
      // the views agree right after the 200
      expect((await todo(t.carol)).filter((x) => x.instanceId === id)).toEqual([]);
      expect((await myTask(t.bob, id)).id).toBe(mine.id);
      const rows = await tasksOf(id);
      expect(rows.find((r) => r.id === next.id)).toMatchObject({ status: 'cancelled' });
      const entry = (await trail(id)).find((e) => e.type === 'recall');
      expect(entry).toMatchObject({
        userId: 'bob',
        comment: 'attached the wrong quote',
        detail: { scope: 'node', from: 'n2', cancelled: [next.id] },
      });
      expect(await notified(id, 'task_recalled')).toEqual(['carol']);

      await actOk(t.bob, mine.id, 'approve');
      await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
      const last = await actOk(t.erin, (await myTask(t.erin, id)).id, 'approve');
      expect(last.instance.status).toBe('completed');
    });

    it('409 ALREADY_ACTED naming who acted; 409 not yet decided / ended; 40902 not the approver; 403 switch; 404 foreign tenant', async () => {
      const id = await start(t.alice, 'rc_chain');
      const mine = await myTask(t.bob, id);
      expectError(await act(t.bob, mine.id, 'recall'), 409, 40901); // not decided yet
      await actOk(t.bob, mine.id, 'approve');
      expectError(await act(t.carol, mine.id, 'recall'), 409, 40902);
      expectError(await act(foreign.bob, mine.id, 'recall'), 404, 40400);
      expectError(await act(t.bob, mine.id, 'recall', { why: 'x' }), 400, 40003);
      await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
      const res = await act(t.bob, mine.id, 'recall');
      expectError(res, 409, 40960);
      expect(res.body.data).toEqual({ actedBy: ['carol'] });
      expect(res.body.message).toContain('carol');
      expect((await trail(id)).map((e) => e.type)).not.toContain('recall');
      // ended instance
      await actOk(t.erin, (await myTask(t.erin, id)).id, 'reject');
      expectError(await act(t.bob, mine.id, 'recall'), 409, 40901);

      const off = await start(t.alice, 'rc_off');
      const task = await myTask(t.bob, off);
      await actOk(t.bob, task.id, 'approve');
      expectError(await act(t.bob, task.id, 'recall'), 403, 40302);
    });

    it('a sequential ballot: recalled while the node is open, the next turn waits again', async () => {
      const id = await start(t.alice, 'rc_seq');
      const mine = await myTask(t.bob, id);
      await actOk(t.bob, mine.id, 'approve');
      const carols = await myTask(t.carol, id);
      const answer = await actOk(t.bob, mine.id, 'recall');
      expect(answer.task.status).toBe('active');
      expect((await tasksOf(id)).find((r) => r.id === carols.id)).toMatchObject({ status: 'waiting' });
      expectError(await act(t.carol, carols.id, 'approve'), 409, 40901);
      await actOk(t.bob, mine.id, 'approve');
      expect((await actOk(t.carol, carols.id, 'approve')).instance.status).toBe('completed');
    });

    it(`a recall racing the next approver's approve has exactly one winner (${ROUNDS} rounds)`, async () => {
      const ids = await Promise.all(Array.from({ length: ROUNDS }, () => start(t.alice, 'rc_chain')));
      for (const id of ids) {
        const mine = await myTask(t.bob, id);
        await actOk(t.bob, mine.id, 'approve');
        const next = await myTask(t.carol, id);
        const [recall, approve] = await Promise.all([act(t.bob, mine.id, 'recall'), act(t.carol, next.id, 'approve')]);
        const statuses = [recall.status, approve.status].sort();
        expect(statuses, JSON.stringify([recall.body, approve.body])).toEqual([200, 409]);
        const rows = await tasksOf(id);
        if (recall.status === 200) {
          expect(approve.body.code).toBe(40901);
          expect(rows.find((r) => r.id === next.id).status).toBe('cancelled');
          expect(rows.find((r) => r.id === mine.id).status).toBe('active');
        } else {
          expect(recall.body).toMatchObject({ code: 40960, data: { actedBy: ['carol'] } });
          expect(rows.find((r) => r.id === next.id)).toMatchObject({ status: 'completed', result: 'approved' });
          expect(rows.find((r) => r.id === mine.id).status).toBe('completed');
        }
        const types = (await trail(id)).map((e) => e.type);
        expect(types.filter((x) => x === 'recall').length + types.filter((x) => x === 'approve').length).toBe(2);
      }
    });
  });

  describe('approve on behalf', () => {
    it('an admin approves for the assignee: trail names both with the reason, the assignee is notified', async () => {
      const id = await start(t.alice, 'rc_chain');
      const task = await myTask(t.bob, id);
      const answer = await actOk(t.admin, task.id, 'approve', {
        onBehalfOf: true,
        reason: 'bob is on leave',
        comment: 'fine',
      });
      expect(answer.task).toMatchObject({ id: task.id, status: 'completed', result: 'approved', assignee: 'bob' });
      const entry = (await trail(id)).find((e) => e.type === 'approve');
      expect(entry).toMatchObject({
        comment: 'fine',
        detail: { onBehalfOf: 'bob', reason: 'bob is on leave' },
      });
      // both people: the admin who decided (userId, detail.admin) and the assignee it was for
      expect(entry.userId).not.toBe('bob');
      expect(entry.detail.admin).toBe(entry.userId);
      expect(await notified(id, 'task_decided_on_behalf')).toEqual(['bob']);
      // reject on behalf ends it
      const next = await myTask(t.carol, id);
      const rejected = await actOk(t.admin, next.id, 'reject', { onBehalfOf: true, reason: 'over budget' });
      expect(rejected.instance.status).toBe('rejected');
    });

    it('403 without workflow:admin; 400 without a reason; 409 on a pool task; nothing written', async () => {
      const id = await start(t.alice, 'rc_chain');
      const task = await myTask(t.bob, id);
      expectError(await act(t.carol, task.id, 'approve', { onBehalfOf: true, reason: 'x' }), 403, 40300);
      expectError(await act(t.bob, task.id, 'approve', { onBehalfOf: true, reason: 'x' }), 403, 40300);
      expectError(await act(t.admin, task.id, 'approve', { onBehalfOf: true }), 400, 40001);
      expectError(await act(t.admin, task.id, 'reject', { onBehalfOf: true, reason: '   ' }), 400, 40001);
      expectError(await act(t.admin, task.id, 'approve', { onBehalfOf: 'yes', reason: 'x' }), 400, 40001);
      expect((await trail(id)).map((e) => e.type)).not.toContain('approve');
      expect((await myTask(t.bob, id)).status).toBe('active');

      const pool = await start(t.alice, 'rc_pool');
      const [poolTask] = (await tasksOf(pool)).filter((r) => r.status === 'pending');
      expectError(await act(t.admin, poolTask.id, 'approve', { onBehalfOf: true, reason: 'x' }), 409, 40901);
    });
  });

  describe('autoApproveRepeated', () => {
    const repeated = (key: string, setting?: unknown) =>
      linear(
        key,
        [
          { id: 'a', configuration: users('bob') },
          { id: 'b', configuration: { ...users('bob', 'carol'), approveMode: 'all' } },
          { id: 'c', configuration: users('erin') },
        ],
        setting === undefined ? {} : { autoApproveRepeated: setting },
      );

    it('adjacent: who just approved the previous node is approved automatically, per ballot, with the reason in the trail', async () => {
      await deploy(t.admin, repeated('rc_adj', 'adjacent'));
      const id = await start(t.alice, 'rc_adj');
      await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
      // bob's ballot at b passed by itself; carol still signs
      expect((await todo(t.bob)).filter((x) => x.instanceId === id)).toEqual([]);
      const bobs = (await tasksOf(id)).find((r) => r.activityId === 'b' && r.assignee === 'bob');
      expect(bobs).toMatchObject({ status: 'completed', result: 'auto_approved' });
      const auto = (await trail(id)).find((e) => e.type === 'auto_approve');
      expect(auto).toMatchObject({
        userId: 'bob',
        comment: expect.stringContaining('already approved'),
        detail: { rule: 'autoApproveRepeated: adjacent', approvedAt: 'a' },
      });
      await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
      expect((await myTask(t.erin, id)).activityId).toBe('c');
    });

    it('none (default) asks everyone; a value outside none/adjacent/all is refused at deploy', async () => {
      await deploy(t.admin, repeated('rc_none'));
      const id = await start(t.alice, 'rc_none');
      await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
      expect((await myTask(t.bob, id)).activityId).toBe('b');
      const bad = await api('/api/v1/workflow/process-definitions/deploy', {
        token: t.admin,
        body: { dsl: repeated('rc_bad', 'sometimes') },
      });
      expect(bad.status, JSON.stringify(bad.body)).toBe(422);
      expect(JSON.stringify(bad.body)).toContain('autoApproveRepeated');
    });
  });

  it('records a history with a recall, a decision on behalf and automatic repeats for the replay test', async () => {
    await deploy(
      t.admin,
      linear('rc_history', steps(users('bob'), users('carol'), { ...users('bob', 'erin'), approveMode: 'all' }), {
        autoApproveRepeated: 'all',
      }),
    );
    const id = await start(t.alice, 'rc_history');
    const first = await myTask(t.bob, id);
    await actOk(t.bob, first.id, 'approve');
    await actOk(t.bob, first.id, 'recall', { reason: 'one more look' });
    await actOk(t.admin, first.id, 'approve', { onBehalfOf: true, reason: 'bob is away' });
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    await actOk(t.erin, (await myTask(t.erin, id)).id, 'approve');
    const done = await instance(t.alice, id);
    expect(done.status).toBe('completed');
    expect(done.trail.map((e: any) => e.type).filter((x: string) => x !== 'assign')).toEqual([
      'start',
      'approve',
      'recall',
      'approve',
      'approve',
      'auto_approve',
      'approve',
    ]);
    if (process.env.RECORD_HISTORIES !== '1') return;
    // Every run, newest first back through continue-as-new (the test stack rolls over after 60 events).
    const cli = await findTemporalCli(createLogger('warn'));
    const args = ['workflow', 'show', '--address', inject('temporalAddress'), '-w', `approval-${tenantId}-${id}`];
    let runId: string | undefined;
    for (let n = 1; ; n++) {
      const { stdout } = await promisify(execFile)(
        cli,
        [...args, ...(runId ? ['-r', runId] : []), '--output', 'json'],
        {
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      await writeFile(path.resolve(import.meta.dirname, `../histories/recall-behalf-repeat-${n}.json`), stdout);
      runId = JSON.parse(stdout).events[0].workflowExecutionStartedEventAttributes.continuedExecutionRunId;
      if (!runId) break;
    }
  });
});
