// Monitoring views over real HTTP (docs/monitoring.md): the caller's statistics, overdue tasks and
// the backlog by process — counts on a tenant of their own, permissions, tenancy, paging.
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createDemoLikeTenant, createTenant } from '../helpers/api.js';
import { actOk, deploy, myTask, oneStep, start } from '../helpers/flow.js';

const tasks = '/api/v1/workflow/tasks';
const PAST = '2020-01-01T00:00:00Z';

let t: Record<string, string>;
let foreign: string;
let tenantId: string;
const ids: Record<string, string> = {};

const get = async (token: string, path: string) => api(`${tasks}${path}`, { token });
const stats = async (token: string) => {
  const res = await get(token, '/statistics');
  expect(res.status).toBe(200);
  return res.body.data;
};

beforeAll(async () => {
  ({ tokens: t, tenantId } = await createDemoLikeTenant('mo'));
  ({ adminToken: foreign } = await createTenant('mo-x'));
  expect(
    (await api('/api/v1/roles', { token: t.admin, body: { code: 'ops', permissions: ['workflow:monitor'] } })).status,
  ).toBe(201);
  expect(
    (await api('/api/v1/users/dave', { method: 'PATCH', token: t.admin, body: { roles: ['employee', 'ops'] } })).status,
  ).toBe(200);

  await deploy(t.admin, oneStep('late', { approver: { type: 'user', userIds: ['bob'] }, dueDate: PAST }));
  await deploy(t.admin, oneStep('pool', { approver: { type: 'role', roleIds: ['finance'] } }));
  const copy = oneStep('copy', { approver: { type: 'user', userIds: ['carol'] } });
  copy.metadata.nodes.splice(1, 0, {
    id: 'cc',
    type: 'ccTask',
    name: 'Copy',
    configuration: { ccUserIds: ['bob'] },
  } as any);
  copy.metadata.connections = [
    { fromId: 'start', toId: 'cc', type: 'Success' },
    { fromId: 'cc', toId: 'approve', type: 'Success' },
    { fromId: 'approve', toId: 'end', type: 'Success' },
  ];
  await deploy(t.admin, copy);

  ids.late = await start(t.alice, 'late');
  ids.done = await start(t.carol, 'late');
  await actOk(t.bob, (await myTask(t.bob, ids.done)).id, 'approve');
  ids.pool = await start(t.alice, 'pool');
  ids.copy = await start(t.alice, 'copy');
  ids.paused = await start(t.erin, 'late');
  expect(
    (await api(`/api/v1/workflow/process-instances/${ids.paused}/suspend`, { token: t.admin, body: {} })).status,
  ).toBe(200);
});

describe('statistics', () => {
  it("counts the caller's to-do, pools, overdue work, unread copies, running applications and today's decisions", async () => {
    expect(await stats(t.bob)).toEqual({
      todo: 1,
      claimable: 0,
      overdue: 1,
      ccUnread: 1,
      applicationsRunning: 0,
      doneToday: 1,
    });
    expect(await stats(t.grace)).toEqual({
      todo: 1,
      claimable: 1,
      overdue: 0,
      ccUnread: 0,
      applicationsRunning: 0,
      doneToday: 0,
    });
    expect(await stats(t.alice)).toMatchObject({ todo: 0, applicationsRunning: 3 });
    expect(await stats(t.erin)).toMatchObject({ applicationsRunning: 1, todo: 0 }); // suspended: running, but not to-do
    // The badge equals the to-do list.
    const list = await api('/api/v1/workflow/process-instances/todo', { token: t.grace });
    expect(list.body.data.total).toBe(1);
  });

  it('adds the open work by process for workflow:monitor', async () => {
    const s = await stats(t.dave);
    expect(s.todo).toBe(0);
    const byKey = Object.fromEntries(s.byProcess.map((p: any) => [p.processKey, p]));
    expect(byKey.late).toEqual({ processKey: 'late', processName: 'Process late', open: 1, overdue: 1 }); // the suspended one is left out
    expect(byKey.pool).toMatchObject({ open: 1, overdue: 0 });
    expect(byKey.copy).toMatchObject({ open: 1, overdue: 0 });
    expect((await stats(t.bob)).byProcess).toBeUndefined();
    expect(await stats(foreign)).toEqual({
      todo: 0,
      claimable: 0,
      overdue: 0,
      ccUnread: 0,
      applicationsRunning: 0,
      doneToday: 0,
      byProcess: [],
    });
  });
});

describe('overdue and backlog', () => {
  it('overdue lists open tasks past due, oldest first, without suspended instances; workflow:monitor only', async () => {
    expect((await get(t.bob, '/overdue')).status).toBe(403);
    const res = await get(t.dave, '/overdue');
    expect(res.status).toBe(200);
    expect(res.body.data.items.map((x: any) => x.instanceId)).toEqual([ids.late]);
    expect(res.body.data.items[0]).toMatchObject({
      assignee: 'bob',
      status: 'active',
      dueDate: '2020-01-01T00:00:00.000Z',
    });
    expect(res.body.data.items[0].overdueSeconds).toBeGreaterThan(0);

    expect(
      (await api(`/api/v1/workflow/process-instances/${ids.paused}/activate`, { token: t.admin, body: {} })).status,
    ).toBe(200);
    const after = await get(t.dave, '/overdue?pageSize=1&page=2');
    expect(after.body.data).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect((await get(t.dave, '/overdue?assignee=nobody')).body.data.total).toBe(0);
    expect((await get(t.dave, '/overdue?pageSize=500')).status).toBe(400);
    expect((await get(foreign, '/overdue')).body.data.total).toBe(0);
    expect(
      (await api(`/api/v1/workflow/process-instances/${ids.paused}/suspend`, { token: t.admin, body: {} })).status,
    ).toBe(200);
  });

  it('backlog gives open, unclaimed and overdue work and the oldest age per process', async () => {
    expect((await get(t.alice, '/backlog')).status).toBe(403);
    const res = await get(t.dave, '/backlog');
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.data.items.map((r: any) => [r.processKey, r]));
    expect(res.body.data.total).toBe(3);
    expect(byKey.late).toMatchObject({ processName: 'Process late', open: 1, unclaimed: 0, overdue: 1 });
    expect(byKey.pool).toMatchObject({ open: 1, unclaimed: 1, overdue: 0 });
    expect(byKey.copy).toMatchObject({ open: 1, unclaimed: 0, overdue: 0 });
    for (const row of res.body.data.items) expect(row.oldestAgeSeconds).toBeGreaterThanOrEqual(0);
    const paged = await get(t.dave, '/backlog?pageSize=1&page=3');
    expect(paged.body.data).toMatchObject({ total: 3, page: 3, pageSize: 1 });
    expect(paged.body.data.items).toHaveLength(1);
    expect((await get(t.dave, '/backlog?processKey=pool')).body.data.items.map((r: any) => r.processKey)).toEqual([
      'pool',
    ]);
    expect((await get(foreign, '/backlog')).body.data).toMatchObject({ total: 0, items: [] });
  });

  it('the monitoring paths are not taken for task ids, and every endpoint is in the OpenAPI document', async () => {
    expect((await get(t.dave, '/no-such-task')).status).toBe(404);
    const doc = (await api('/openapi.json')).body as any;
    const paths = doc.paths as Record<string, Record<string, any>>;
    for (const [path, method] of [
      ['/api/v1/workflow/tasks/statistics', 'get'],
      ['/api/v1/workflow/tasks/overdue', 'get'],
      ['/api/v1/workflow/tasks/backlog', 'get'],
      ['/api/v1/workflow/process-instances/stuck', 'get'],
      ['/api/v1/workflow/process-instances/{id}/re-drive', 'post'],
      ['/api/v1/workflow/process-instances/{id}/force-resume', 'post'],
      ['/api/v1/workflow/process-instances/{id}', 'delete'],
      ['/api/v1/workflow/process-instances/batch', 'delete'],
    ] as const) {
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined();
      expect(paths[path][method].responses['200'], `${method} ${path}`).toBeDefined();
    }
    expect(paths['/api/v1/workflow/process-instances/batch'].delete.requestBody).toBeDefined();
  });
});

describe('open-work counters (open_task_counts, Migration20261124000800)', () => {
  it("count today's part of overdue exactly, drop a process once its work is done, and equal a recount of the tasks", async () => {
    // Due a few seconds from now: due today (UTC), so overdue comes from the index part, not the day counters.
    const due = new Date(Date.now() + 3000);
    await deploy(
      t.admin,
      oneStep('soon', { approver: { type: 'user', userIds: ['bob'] }, dueDate: due.toISOString() }),
    );
    const id = await start(t.alice, 'soon');
    const soon = async () =>
      (await get(t.dave, '/backlog?processKey=soon')).body.data.items.find((r: any) => r.processKey === 'soon');
    expect(await soon()).toMatchObject({ open: 1, unclaimed: 0, overdue: 0 });
    await new Promise((r) => setTimeout(r, Math.max(0, due.getTime() - Date.now()) + 500));
    expect(await soon()).toMatchObject({ open: 1, overdue: 1 });
    expect((await get(t.dave, '/overdue?processKey=soon')).body.data.total).toBe(1);
    expect((await get(t.dave, '/overdue')).body.data.total).toBe(2); // late, soon; the suspended one left out

    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    expect(await soon()).toBeUndefined();
    expect((await get(t.dave, '/overdue')).body.data.total).toBe(1);

    const { Client } = createRequire(import.meta.url)('pg');
    const db = new Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    try {
      const recount = `select tenant_id, process_key, status, coalesce((due_date at time zone 'UTC')::date, 'infinity'::date) as due_day, count(*)::bigint as n
        from tasks where tenant_id = $1 and status in ('pending', 'active') and kind <> 'delay' and not deleted group by 1, 2, 3, 4`;
      const counters =
        'select tenant_id, process_key, status, due_day, sum(n)::bigint as n from open_task_counts where tenant_id = $1 group by 1, 2, 3, 4 having sum(n) <> 0';
      const diff = await db.query(`(${counters} except ${recount}) union all (${recount} except ${counters})`, [
        tenantId,
      ]);
      expect(diff.rows).toEqual([]);
      expect(
        (
          await db.query(
            `select count(*)::int as n from (select process_key from open_task_counts where tenant_id = $1 group by 1 having sum(n) <> 0) p`,
            [tenantId],
          )
        ).rows[0].n,
      ).toBe(3);
      // Its rows dropped to 0 in the shard that closed the task and were removed there; any left sum to 0.
      const soonRows = await db.query(
        `select sum(n)::int as n from open_task_counts where tenant_id = $1 and process_key = 'soon' having sum(n) <> 0`,
        [tenantId],
      );
      expect(soonRows.rows).toEqual([]);
    } finally {
      await db.end();
    }
  });
});
