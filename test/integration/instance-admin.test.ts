// Instance repairs and deletion over real HTTP (docs/monitoring.md): the stuck list, re-drive of a
// failed and of a stuck instance, force-resume past a join that never fired, delete and batch
// delete — each with its refusals, permissions and tenancy.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- pg ships no type declarations and @types/pg is not a dependency
import pg from 'pg';
import { api, createDemoLikeTenant, createTenant } from '../helpers/api.js';
import { actOk, deploy, instance, myTask, oneStep, start } from '../helpers/flow.js';
import { graphDoc as doc, node, parallelProcess, pickyProcess, user, wire } from '../helpers/dsl.js';

const base = '/api/v1/workflow/process-instances';
const picky = pickyProcess;
const parallel = parallelProcess;

let t: Record<string, string>;
let foreign: string;
let db: any;

const post = (token: string, path: string, body: unknown = {}) => api(`${base}${path}`, { token, body });
const del = (token: string, path: string, body?: unknown) => api(`${base}${path}`, { method: 'DELETE', token, body });
const stuck = async (token = t.admin) => (await api(`${base}/stuck?pageSize=200`, { token })).body.data.items as any[];
const openTasks = async (id: string) =>
  (await api(`/api/v1/workflow/tasks?instanceId=${id}&status=pending,active,waiting`, { token: t.admin })).body.data
    .items as any[];

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('ia'));
  ({ adminToken: foreign } = await createTenant('ia-x'));
  for (const body of [
    { code: 'auditor', permissions: [] },
    { code: 'ops', permissions: ['workflow:monitor'] },
  ]) {
    expect((await api('/api/v1/roles', { token: t.admin, body })).status).toBe(201);
  }
  expect(
    (await api('/api/v1/users/erin', { method: 'PATCH', token: t.admin, body: { roles: ['employee', 'ops'] } })).status,
  ).toBe(200);
  await deploy(t.admin, picky);
  await deploy(t.admin, parallel);
  await deploy(t.admin, oneStep('linear', { approver: { type: 'user', userIds: ['bob'] } }));
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
});
afterAll(async () => db?.end());

describe('stuck list', () => {
  it('lists failed instances with their reason and leaves out those that wait on people or time; monitor or manage only', async () => {
    const failed = await start(t.alice, 'picky', { amount: 5 });
    const waiting = await start(t.alice, 'linear');
    await deploy(
      t.admin,
      doc(
        'sleepy',
        [node('s', 'startTask'), node('d', 'delay', { delayMs: 600_000 }), node('end', 'end')],
        wire('s>d d>end'),
      ),
    );
    const sleeping = await start(t.alice, 'sleepy');
    const paused = await start(t.alice, 'linear');
    expect((await post(t.admin, `/${paused}/suspend`)).status).toBe(200);

    const items = await stuck();
    const mine = items.find((i) => i.id === failed);
    expect(mine).toMatchObject({
      status: 'failed',
      processKey: 'picky',
      initiatorId: 'alice',
      detail: { failedNode: 'sw', nodeType: 'switch' },
    });
    expect(mine.detail.reason).toContain('no case matched');
    for (const id of [waiting, sleeping, paused]) expect(items.map((i) => i.id)).not.toContain(id);

    expect((await api(`${base}/stuck`, { token: t.erin })).status).toBe(200); // workflow:monitor
    expect((await api(`${base}/stuck`, { token: t.alice })).status).toBe(403);
    const paged = await api(`${base}/stuck?pageSize=1&processKey=picky`, { token: t.admin });
    expect(paged.body.data).toMatchObject({ page: 1, pageSize: 1 });
    expect(paged.body.data.total).toBeGreaterThanOrEqual(1);
    expect((await api(`${base}/stuck`, { token: foreign })).body.data.total).toBe(0);
  });
});

describe('re-drive', () => {
  it('a failed instance runs its node again once its variables are fixed', async () => {
    const id = await start(t.alice, 'picky', { amount: 5 });
    // The instance and its detail say why it failed, as the /stuck row does.
    const failed = await instance(t.alice, id);
    expect(failed.status).toBe('failed');
    expect(failed.failure).toMatchObject({ failedNode: 'sw', nodeType: 'switch' });
    expect(failed.failure.reason).toContain('no case matched');
    expect(Date.parse(failed.failure.at)).not.toBeNaN();
    const detail = await api(`${base}/${id}/detail`, { token: t.alice });
    expect(detail.body.data.instance.failure).toEqual(failed.failure);
    expect((await post(t.alice, `/${id}/re-drive`)).status).toBe(403);
    expect((await post(t.erin, `/${id}/re-drive`)).status).toBe(403); // monitor is not admin
    expect((await post(t.admin, `/${id}/re-drive`, { reason: 'x', other: 1 })).status).toBe(400);

    // Nothing fixed: the switch fails again, and says so.
    const again = await post(t.admin, `/${id}/re-drive`, { reason: 'try again' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ id, status: 'failed', detail: { failedNode: 'sw' } });

    expect((await post(t.alice, `/${id}/variables`, { variables: { amount: 500 } })).status).toBe(200);
    const res = await post(t.admin, `/${id}/re-drive`, { reason: 'amount corrected' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'active', currentNodes: ['big'], detail: null });
    expect((await instance(t.alice, id)).failure).toBeNull();
    expect((await stuck()).map((i) => i.id)).not.toContain(id);
    const trail = (await instance(t.admin, id)).trail as any[];
    expect(trail.filter((e) => e.detail?.action === 're_drive')).toHaveLength(2);
    expect(trail.at(-1)).toMatchObject({ type: 'assign', activityId: 'big', userId: 'carol' });

    // Running again: not stuck any more.
    const refused = await post(t.admin, `/${id}/re-drive`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('not stuck');
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    expect((await post(t.admin, `/${id}/re-drive`)).status).toBe(409); // ended
  });

  it('a pool nobody is in is stuck; re-drive resolves its approvers again without duplicating the task', async () => {
    await deploy(
      t.admin,
      oneStep('audit', { approver: { type: 'role', roleIds: ['auditor'] }, emptyApproverPolicy: 'park' }),
    );
    const id = await start(t.alice, 'audit');
    const [parkedTask] = await openTasks(id);
    // The parked task names the role it waits for, and the fallback names the rule and its ids.
    expect(parkedTask).toMatchObject({
      status: 'pending',
      candidates: { userIds: [], roleIds: ['auditor'], deptIds: [] },
    });
    const parkedFull = (await api(`/api/v1/workflow/tasks/${parkedTask.id}/variables`, { token: t.admin })).body.data;
    expect(parkedFull).toMatchObject({
      fallback_policy: 'park',
      fallback_from: 'role:auditor',
      fallback_reason: 'role auditor has no active members',
    });
    const listed = (await stuck()).find((i) => i.id === id);
    expect(listed.status).toBe('active');
    expect(listed.detail.reason).toContain('No candidates');

    expect(
      (
        await api('/api/v1/users/grace', {
          method: 'PATCH',
          token: t.admin,
          body: { roles: ['employee', 'finance', 'auditor'] },
        })
      ).status,
    ).toBe(200);
    const res = await post(t.admin, `/${id}/re-drive`);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('active');
    const open = await openTasks(id);
    expect(open).toHaveLength(1);
    expect(open[0].id).not.toBe(parkedTask.id);
    expect(open[0]).toMatchObject({ status: 'pending', candidates: { roleIds: ['auditor'] } });
    const old = (await api(`/api/v1/workflow/tasks/${parkedTask.id}`, { token: t.admin })).body.data;
    expect(old).toMatchObject({ status: 'cancelled', result: 'cancelled' });
    expect((await stuck()).map((i) => i.id)).not.toContain(id);

    // The new pool has a member: not stuck, so a second re-drive is refused (no duplicate tasks).
    expect((await post(t.admin, `/${id}/re-drive`)).status).toBe(409);
    expect(await openTasks(id)).toHaveLength(1);
    await actOk(t.grace, open[0].id, 'claim');
    expect((await actOk(t.grace, open[0].id, 'approve')).instance.status).toBe('completed');
  });

  it('starts the workflow of an instance row whose start was cut off (a crash between insert and start)', async () => {
    // The server inserts the row, then starts the workflow; a crash in between leaves this row.
    const defId = (await api('/api/v1/workflow/process-definitions/key/linear', { token: t.admin })).body.data.id;
    const tenant = (await db.query(`select tenant_id from process_definitions where id = $1`, [defId])).rows[0]
      .tenant_id;
    const id = `orphan-${Date.now()}`;
    await db.query(
      `insert into instances (id, tenant_id, workflow_id, definition_id, process_key, process_version, process_name, status, initiator_id, variables)
       values ($1, $2, $3, $4, 'linear', 1, 'Process linear', 'active', 'alice', '{}')`,
      [id, tenant, `approval-${tenant}-${id}`, defId],
    );
    expect((await stuck()).map((i) => i.id)).toContain(id);
    const res = await post(t.admin, `/${id}/re-drive`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'active', currentNodes: ['approve'] });
    const task = await myTask(t.bob, id);
    expect((await actOk(t.bob, task.id, 'approve')).instance.status).toBe('completed');
  });

  it('is refused on drafts, suspended and ended instances; other tenants get 404', async () => {
    const draft = (await post(t.alice, '/start', { processKey: 'linear', draft: true })).body.data.instanceId;
    expect((await post(t.admin, `/${draft}/re-drive`)).status).toBe(409);
    const running = await start(t.alice, 'linear');
    expect((await post(t.admin, `/${running}/suspend`)).status).toBe(200);
    const suspended = await post(t.admin, `/${running}/re-drive`);
    expect(suspended.status).toBe(409);
    expect(suspended.body.message).toContain('activate');
    expect((await post(foreign, `/${running}/re-drive`)).status).toBe(404);
    expect((await post(t.admin, `/no-such-instance/re-drive`)).status).toBe(404);
  });
});

describe('force-resume', () => {
  it('moves a fork/join on past its join when the branch that never arrives has failed', async () => {
    const id = await start(t.alice, 'parallel', { go: false });
    expect((await instance(t.admin, id)).status).toBe('failed');
    // bob's branch is still open.
    const early = await post(t.admin, `/${id}/force-resume`);
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('ta');

    expect((await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve')).instance.status).toBe('failed');
    expect(await openTasks(id)).toHaveLength(0);
    expect((await stuck()).find((i) => i.id === id)?.detail.failedNode).toBe('sw');

    expect((await post(t.erin, `/${id}/force-resume`)).status).toBe(403);
    expect((await post(foreign, `/${id}/force-resume`)).status).toBe(404);
    const res = await post(t.admin, `/${id}/force-resume`, { reason: 'the switch branch is not needed' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'active', currentNodes: ['after'], detail: null });
    const trail = (await instance(t.admin, id)).trail as any[];
    expect(trail.find((e) => e.detail?.action === 'force_resume')).toMatchObject({
      activityId: 'j',
      userId: 'admin',
      detail: { abandoned: ['sw'], arrived: 1, expected: 2 },
    });
    expect((await stuck()).map((i) => i.id)).not.toContain(id);

    // The region is gone: a second force-resume has nothing to move.
    expect((await post(t.admin, `/${id}/force-resume`)).status).toBe(409);
    expect((await actOk(t.dave, (await myTask(t.dave, id)).id, 'approve')).instance.status).toBe('completed');
  });

  it('is refused on a linear instance and while every branch is open', async () => {
    const linear = await start(t.alice, 'linear');
    const res = await post(t.admin, `/${linear}/force-resume`);
    expect(res.status).toBe(409);
    expect(res.body.message).toContain('No open parallel region');
    const both = await start(t.alice, 'parallel', { go: true });
    const open = await post(t.admin, `/${both}/force-resume`);
    expect(open.status).toBe(409);
    expect(open.body.message).toMatch(/still open.*(ta|tb)/);
    expect((await post(t.alice, `/${both}/force-resume`)).status).toBe(403);
  });
});

describe('delete', () => {
  const rowsOf = async (id: string) => {
    const counts: Record<string, number> = {};
    for (const table of ['instances', 'instances_archive'])
      counts[table] = (await db.query(`select count(*)::int as n from ${table} where id = $1`, [id])).rows[0].n;
    for (const table of ['tasks', 'tasks_archive', 'trail', 'cc_records', 'task_comments', 'notifications']) {
      counts[table] = (
        await db.query(`select count(*)::int as n from ${table} where instance_id = $1`, [id])
      ).rows[0].n;
    }
    return counts;
  };

  it('a draft by its initiator; an ended instance by workflow:admin, with every row; a running one is 409', async () => {
    const draft = (await post(t.alice, '/start', { processKey: 'linear', draft: true })).body.data.instanceId;
    expect((await del(t.bob, `/${draft}`)).status).toBe(404); // cannot even see it
    expect((await del(t.admin, `/${draft}`)).status).toBe(403); // someone else's draft
    expect((await del(t.alice, `/${draft}`)).body).toMatchObject({ code: 0, data: { id: draft, deleted: true } });
    expect((await api(`${base}/${draft}`, { token: t.alice })).status).toBe(404);
    expect((await del(t.alice, `/${draft}`)).status).toBe(404);

    await deploy(
      t.admin,
      doc(
        'copied',
        [
          node('s', 'startTask'),
          node('cc', 'ccTask', { ccUserIds: ['erin'] }),
          user('ok', ['bob']),
          node('end', 'end'),
        ],
        wire('s>cc cc>ok ok>end'),
      ),
    );
    const id = await start(t.alice, 'copied');
    const task = await myTask(t.bob, id);
    const running = await del(t.admin, `/${id}`);
    expect(running.status).toBe(409);
    expect(running.body.message).toContain('terminate');
    expect(
      (await api(`/api/v1/workflow/tasks/${task.id}/comments`, { token: t.bob, body: { comment: 'looks fine' } }))
        .status,
    ).toBe(201);
    await actOk(t.bob, task.id, 'approve');
    const before = await rowsOf(id);
    expect(before).toMatchObject({
      instances: 0,
      instances_archive: 1,
      tasks_archive: 1,
      cc_records: 1,
      task_comments: 1,
    });
    expect(before.trail).toBeGreaterThan(0);
    expect(before.notifications).toBeGreaterThan(0);

    expect((await del(t.alice, `/${id}`)).status).toBe(403); // the initiator, but not an admin
    expect((await del(foreign, `/${id}`)).status).toBe(404);
    expect((await del(t.admin, `/${id}`)).status).toBe(200);
    expect(Object.values(await rowsOf(id)).every((n) => n === 0)).toBe(true);
    expect((await api(`${base}/${id}`, { token: t.admin })).status).toBe(404);
    expect((await api(`/api/v1/workflow/tasks/${task.id}`, { token: t.admin })).status).toBe(404);
    expect((await api(`${base}/cc`, { token: t.erin })).body.data.items.map((c: any) => c.instanceId)).not.toContain(
      id,
    );
  });

  it("batch delete answers per id: someone else's draft, running, ended, unknown", async () => {
    const bobsDraft = (await post(t.bob, '/start', { processKey: 'linear', draft: true })).body.data.instanceId;
    const mine = (await post(t.admin, '/start', { processKey: 'linear', draft: true })).body.data.instanceId;
    const running = await start(t.alice, 'linear');
    const ended = await start(t.alice, 'linear');
    expect((await post(t.admin, `/${ended}/terminate`, { reason: 'duplicate' })).body.data.status).toBe('terminated');

    expect((await del(t.admin, '/batch', { ids: [ended], extra: 1 })).status).toBe(400);
    expect((await del(t.admin, '/batch', { ids: [] })).status).toBe(400);
    const res = await del(t.admin, '/batch', { ids: [bobsDraft, running, ended, 'no-such-instance', mine, ended] });
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.data.results.map((r: any) => [r.id, r]));
    expect(res.body.data.results).toHaveLength(5);
    expect(byId[bobsDraft]).toMatchObject({ ok: false, code: 40304 });
    expect(byId[running]).toMatchObject({ ok: false, code: 40901 });
    expect(byId[running].message).toContain('terminate');
    expect(byId[ended]).toEqual({ id: ended, ok: true, code: 0, message: 'deleted' });
    expect(byId['no-such-instance']).toMatchObject({ ok: false, code: 40400 });
    expect(byId[mine]).toMatchObject({ ok: true, code: 0 });
    expect((await api(`${base}/${ended}`, { token: t.admin })).status).toBe(404);
    expect((await api(`${base}/${bobsDraft}`, { token: t.bob })).status).toBe(200);
    expect((await api(`${base}/${running}`, { token: t.alice })).body.data.status).toBe('active');

    // An employee's batch: their own draft goes, the rest is not theirs to see.
    const alicesDraft = (await post(t.alice, '/start', { processKey: 'linear', draft: true })).body.data.instanceId;
    const theirs = await del(t.alice, '/batch', { ids: [alicesDraft, bobsDraft, running] });
    expect(theirs.body.data.results.map((r: any) => [r.ok, r.code])).toEqual([
      [true, 0],
      [false, 40400],
      [false, 40300],
    ]);
  });
});
