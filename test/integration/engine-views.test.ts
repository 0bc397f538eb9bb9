import { beforeAll, describe, expect, it, inject } from 'vitest';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { processDoc, testChain, users } from '../helpers/dsl.js';
import { act, actOk, deploy, eventually, example, instance, myTask, oneStep, start } from '../helpers/flow.js';

let t: Record<string, string>;
let tenantId: string;
beforeAll(async () => {
  ({ tokens: t, tenantId } = await createDemoLikeTenant('vw'));
  await deploy(t.admin, example('leave-request.json'));
});

describe('timeouts (durable timers)', () => {
  const due = 0.03; // 1.8 s
  /** alice starts a process whose one task (bob's) is overdue after `due`, then `action` applies. */
  const startOverdue = async (key: string, action: string) => {
    await deploy(t.admin, oneStep(key, { ...users('bob'), timeout: { dueInMinutes: due, action } }));
    return start(t.alice, key);
  };
  const settled = (id: string) =>
    eventually(
      () => instance(t.alice, id),
      (i) => i.status !== 'active',
    );
  it('autoApprove decides for the approver when the task is overdue', async () => {
    const id = await startOverdue('to-approve', 'autoApprove');
    const inst = await settled(id);
    expect(inst.status).toBe('completed');
    expect(inst.trail.find((e: any) => e.type === 'auto_approve').detail.rule).toBe('timeout: autoApprove');
    const task = (await api(`/api/v1/workflow/tasks?instanceId=${id}`, { token: t.admin })).body.data.items[0];
    expect(task.result).toBe('auto_approved');
  });

  it('autoReject rejects, and the reject strategy applies', async () => {
    const id = await startOverdue('to-reject', 'autoReject');
    const inst = await settled(id);
    expect(inst.status).toBe('rejected');
  });

  it('remind notifies the assignee once and leaves the task open', async () => {
    const id = await startOverdue('to-remind', 'remind');
    const inst = await eventually(
      () => instance(t.alice, id),
      (i) => i.trail.some((e: any) => e.type === 'system' && e.comment?.includes('overdue')),
    );
    expect(inst.status).toBe('active');
    const client = new pg.Client({ connectionString: inject('databaseUrl') });
    await client.connect();
    const rows = (
      await client.query(`select kind, user_id from notifications where instance_id = $1 order by id`, [id])
    ).rows;
    await client.end();
    expect(rows.filter((r: any) => r.kind === 'task_overdue')).toEqual([{ kind: 'task_overdue', user_id: 'bob' }]);
    expect(rows[0]).toEqual({ kind: 'task_assigned', user_id: 'bob' });
    await myTask(t.bob, id);
  });
});

describe('instance views', () => {
  it('detail: trail, form with field permissions, allowed actions and upcoming', async () => {
    const id = await start(t.alice, 'leave_request', { days: 9, reason: 'sabbatical', hrNote: 'secret' });
    const bob = await api(`/api/v1/workflow/process-instances/${id}/detail`, { token: t.bob });
    expect(bob.status).toBe(200);
    const d = bob.body.data;
    expect(d.instance.status).toBe('active');
    expect(d.permissions).toEqual(expect.arrayContaining(['approve', 'reject', 'transfer', 'comment']));
    expect(d.permissions).not.toContain('withdraw');
    expect(d.form.fields.map((f: any) => f.name)).toEqual(['days', 'reason', 'hrNote']);
    const mine = await api(`/api/v1/workflow/process-instances/${id}/detail`, { token: t.alice });
    expect(mine.body.data.permissions).toEqual(expect.arrayContaining(['withdraw', 'urge']));
    expect(mine.body.data.form.fields.map((f: any) => f.name)).toEqual(['days', 'reason']);
    expect(mine.body.data.instance.variables.hrNote).toBeUndefined();
    expect(mine.body.data.trail[0].type).toBe('start');
    expect((await api(`/api/v1/workflow/process-instances/${id}/detail`, { token: t.grace })).status).toBe(404);
  });

  it('upcoming flags branches undecided while the variable their switch reads is missing', async () => {
    const draft = await api('/api/v1/workflow/process-instances/start', {
      token: t.alice,
      body: { processKey: 'leave_request', variables: { reason: 'later' }, draft: true },
    });
    const inst = await instance(t.alice, draft.body.data.instanceId);
    const ids = inst.upcoming.map((u: any) => u.activityId);
    expect(ids).toEqual(expect.arrayContaining(['manager_approval', 'manager_and_hr', 'management_chain']));
    expect(inst.upcoming.every((u: any) => u.undecided)).toBe(true);
    expect(inst.upcoming[0].undecidedBy).toEqual([{ nodeId: 'route_by_days', variable: 'days', setBy: null }]);
    expect(inst.upcoming.find((u: any) => u.activityId === 'manager_approval').approvers).toEqual(['bob']);
    expect(inst.upcoming.find((u: any) => u.activityId === 'manager_and_hr').approvers).toEqual(['bob', 'erin']);
  });

  it('upcoming evaluates the switch on the known variables: only the branch taken, decided', async () => {
    const draft = await api('/api/v1/workflow/process-instances/start', {
      token: t.alice,
      body: { processKey: 'leave_request', variables: { days: 5 }, draft: true },
    });
    const inst = await instance(t.alice, draft.body.data.instanceId);
    expect(inst.upcoming).toEqual([
      {
        activityId: 'manager_and_hr',
        name: expect.any(String),
        approvers: ['bob', 'erin'],
        candidates: { roleIds: [], deptIds: [] },
        undecided: false,
        undecidedBy: [],
      },
    ]);
    // A running instance: amount = 500 and a switch amount > 100 → big_task.
    await deploy(
      t.admin,
      processDoc(
        testChain('upcoming_switch'),
        [
          { id: 'first', type: 'userTask', name: 'First', configuration: users('bob') },
          {
            id: 'route',
            type: 'switch',
            name: 'Route',
            configuration: { cases: [{ case: 'msg.amount > 100', then: 'big' }] },
          },
          { id: 'big_task', type: 'userTask', name: 'Big', configuration: users('carol') },
          { id: 'small_task', type: 'userTask', name: 'Small', configuration: users('dave') },
        ],
        [
          ['start', 'first'],
          ['first', 'route'],
          ['route', 'big_task', 'big'],
          ['route', 'small_task', 'Default'],
          ['big_task', 'end'],
          ['small_task', 'end'],
        ],
      ),
    );
    const id = await start(t.alice, 'upcoming_switch', { amount: 500 });
    const running = await instance(t.alice, id);
    expect(running.upcoming.map((u: any) => [u.activityId, u.undecided, u.approvers])).toEqual([
      ['big_task', false, ['carol']],
    ]);
    const detail = await api(`/api/v1/workflow/process-instances/${id}/detail`, { token: t.alice });
    expect(detail.body.data.upcoming.map((u: any) => u.activityId)).toEqual(['big_task']);
  });

  it('lists filter and page, merging runtime and archive', async () => {
    const a = await start(t.carol, 'leave_request', { days: 1 }, 'LIST-A');
    const b = await start(t.carol, 'leave_request', { days: 1 }, 'LIST-B');
    await actOk(t.dave, (await myTask(t.dave, a)).id, 'approve');
    const q = (s: string) => api(`/api/v1/workflow/process-instances?${s}`, { token: t.admin });
    const byInitiator = await q('initiator=carol&processKey=leave_request');
    expect(byInitiator.body.data.items.map((i: any) => i.id).sort()).toEqual([a, b].sort());
    expect((await q('initiator=carol&status=completed')).body.data.items.map((i: any) => i.id)).toEqual([a]);
    expect((await q('businessKey=LIST-B')).body.data.items.map((i: any) => i.id)).toEqual([b]);
    const paged = await q('initiator=carol&pageSize=1&page=2');
    expect(paged.body.data).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    // Totals whether the first page is full or not (the to-do list counts only a full first page).
    expect((await q('initiator=carol&pageSize=3')).body.data).toMatchObject({ total: 2, page: 1 });
    expect((await q('initiator=carol&pageSize=2')).body.data).toMatchObject({ total: 2, page: 1 });
    const full = (await q('initiator=carol&pageSize=1')).body.data;
    expect({ total: full.total, items: full.items.length }).toEqual({ total: 2, items: 1 });
    expect((await q('initiator=carol&pageSize=1&page=3')).body.data).toMatchObject({ total: 2, items: [] });
    const todo = async (s: string) =>
      (await api(`/api/v1/workflow/process-instances/todo?${s}`, { token: t.dave })).body.data;
    const all = await todo('pageSize=100');
    expect(all.items.map((x: any) => x.instanceId)).toContain(b);
    expect(all.total).toBe(all.items.length);
    // The first page is read with a limit rounded up to 20, 50, 100 or 200 and cut to its size (read-model.ts paged).
    for (const size of [all.total, all.total + 1, 21, 199, 200])
      expect(await todo(`pageSize=${size}`)).toMatchObject({
        total: all.total,
        page: 1,
        items: all.items.slice(0, size),
      });
    if (all.total > 1) expect(await todo('pageSize=1')).toMatchObject({ total: all.total, items: [all.items[0]] });
    expect(await todo(`pageSize=1&page=${all.total + 1}`)).toMatchObject({ total: all.total, items: [] });
    expect(
      (await q(`startedAfter=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body.data.total,
    ).toBe(0);
    // An outsider sees neither.
    expect((await api('/api/v1/workflow/process-instances?initiator=carol', { token: t.grace })).body.data.total).toBe(
      0,
    );
    const tasks = await api(`/api/v1/workflow/tasks?assignee=dave&status=completed,active`, { token: t.admin });
    expect(tasks.body.data.items.some((x: any) => x.instanceId === a && x.status === 'completed')).toBe(true);
    const history = await api(`/api/v1/workflow/tasks/history?instanceId=${a}`, { token: t.admin });
    expect(history.body.data.total).toBe(1);
    const one = history.body.data.items[0];
    expect((await api(`/api/v1/workflow/tasks/history/${one.id}`, { token: t.dave })).body.data.result).toBe(
      'approved',
    );
    expect((await api(`/api/v1/workflow/tasks/${one.id}`, { token: t.dave })).status).toBe(200);
    const open = (await api(`/api/v1/workflow/tasks?instanceId=${b}`, { token: t.admin })).body.data.items[0];
    expect((await api(`/api/v1/workflow/tasks/history/${open.id}`, { token: t.admin })).status).toBe(404);
    const due = await api(
      `/api/v1/workflow/tasks?instanceId=${b}&dueBefore=${encodeURIComponent(new Date(Date.now() + 2 * 86_400_000).toISOString())}`,
      { token: t.admin },
    );
    expect(due.body.data.total).toBe(1);
    expect(
      (
        await api(
          `/api/v1/workflow/tasks?instanceId=${b}&dueAfter=${encodeURIComponent(new Date(Date.now() + 2 * 86_400_000).toISOString())}`,
          { token: t.admin },
        )
      ).body.data.total,
    ).toBe(0);
  });

  it('variables: list, get, batch set, update and delete go through the workflow', async () => {
    const id = await start(t.alice, 'leave_request', { days: 2 });
    const base = `/api/v1/workflow/process-instances/${id}/variables`;
    expect((await api(base, { token: t.alice })).body.data).toEqual({ days: 2 });
    expect((await api(base, { token: t.alice, body: { variables: { reason: 'x', extra: 1 } } })).body.data).toEqual({
      days: 2,
      reason: 'x',
      extra: 1,
    });
    expect((await api(`${base}/extra`, { method: 'PUT', token: t.alice, body: { value: 5 } })).body.data.extra).toBe(5);
    expect((await api(`${base}/extra`, { token: t.alice })).body.data).toEqual({ name: 'extra', value: 5 });
    expect((await api(`${base}/extra`, { method: 'DELETE', token: t.alice })).body.data).toEqual({
      days: 2,
      reason: 'x',
    });
    expect((await api(`${base}/extra`, { token: t.alice })).status).toBe(404);
    expect((await api(`${base}/nope`, { method: 'DELETE', token: t.alice })).status).toBe(404);
    expect((await api(base, { token: t.bob, body: { variables: { days: 1 } } })).status).toBe(403);
    expect((await api(base, { token: t.alice, body: { variables: { a: 1 }, other: 1 } })).status).toBe(400);
  });

  it('terminate and complete need workflow:instance:manage; repeating on an ended instance is a no-op', async () => {
    const id = await start(t.alice, 'leave_request', { days: 2 });
    expect((await api(`/api/v1/workflow/process-instances/${id}/terminate`, { token: t.alice, body: {} })).status).toBe(
      403,
    );
    const res = await api(`/api/v1/workflow/process-instances/${id}/terminate`, {
      token: t.admin,
      body: { reason: 'duplicate' },
    });
    expect(res.body.data).toEqual({ id, status: 'terminated' });
    expect(
      (await api(`/api/v1/workflow/process-instances/${id}/terminate`, { token: t.admin, body: {} })).body.data.status,
    ).toBe('terminated');
    const task = (await api(`/api/v1/workflow/tasks?instanceId=${id}`, { token: t.admin })).body.data.items[0];
    expect(task).toMatchObject({ status: 'cancelled', result: 'cancelled' });
    expect((await act(t.bob, task.id, 'approve')).status).toBe(409);
    const id2 = await start(t.alice, 'leave_request', { days: 2 });
    expect(
      (await api(`/api/v1/workflow/process-instances/${id2}/complete`, { token: t.admin, body: {} })).body.data.status,
    ).toBe('completed');
    void tenantId;
  });
});
