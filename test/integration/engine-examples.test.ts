import { beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { actOk, deploy, example, instance, myTask, start, todo } from '../helpers/flow.js';

describe('example processes', () => {
  let t: Record<string, string>;
  beforeAll(async () => {
    ({ tokens: t } = await createDemoLikeTenant('ex'));
    for (const f of ['leave-request.json', 'expense-claim.json', 'purchase-legacy-keys.json'])
      await deploy(t.admin, example(f));
  });

  it('leave request, short: the manager approves, HR is copied, the instance completes and is archived', async () => {
    const id = await start(t.alice, 'leave_request', { days: 2, reason: 'trip' }, 'LR-1');
    const task = await myTask(t.bob, id);
    expect(task).toMatchObject({ activityId: 'manager_approval', status: 'active', assignee: 'bob', kind: 'approval' });
    expect(task.dueDate).toBeTruthy();
    const after = await actOk(t.bob, task.id, 'approve', { comment: 'enjoy' });
    expect(after.task).toMatchObject({ id: task.id, status: 'completed', result: 'approved', comment: 'enjoy' });
    expect(after.instance).toEqual({ id, status: 'completed' });
    const inst = await instance(t.alice, id);
    expect(inst.status).toBe('completed');
    expect(inst.trail.map((e: any) => e.type)).toEqual(['start', 'assign', 'approve', 'cc']);
    expect(inst.trail[1].detail.reason).toContain('manager');
    const cc = await api('/api/v1/workflow/process-instances/cc', { token: t.erin });
    expect(cc.body.data.items.map((r: any) => r.instanceId)).toContain(id);
    const apps = await api('/api/v1/workflow/process-instances/applications', { token: t.alice });
    expect(apps.body.data.items.find((i: any) => i.id === id).status).toBe('completed');
    const done = await api('/api/v1/workflow/process-instances/done', { token: t.bob });
    expect(done.body.data.items.map((x: any) => x.id)).toContain(task.id);
    expect((await todo(t.bob)).filter((x) => x.instanceId === id)).toHaveLength(0);
  });

  it('leave request, medium: bob and erin countersign (all)', async () => {
    const id = await start(t.alice, 'leave_request', { days: 5 });
    const bobTask = await myTask(t.bob, id);
    const erinTask = await myTask(t.erin, id);
    expect(bobTask.parentTaskId).toBeTruthy();
    expect(bobTask.parentTaskId).toBe(erinTask.parentTaskId);
    const first = await actOk(t.bob, bobTask.id, 'approve');
    expect(first.instance.status).toBe('active');
    const second = await actOk(t.erin, erinTask.id, 'approve');
    expect(second.instance.status).toBe('completed');
  });

  it('leave request, long: the management chain signs one after another', async () => {
    const id = await start(t.alice, 'leave_request', { days: 10 });
    const bob = await myTask(t.bob, id);
    expect((await todo(t.carol)).filter((x) => x.instanceId === id)).toHaveLength(0);
    await actOk(t.bob, bob.id, 'approve');
    const carol = await myTask(t.carol, id);
    const end = await actOk(t.carol, carol.id, 'approve');
    expect(end.instance.status).toBe('completed');
  });

  it('leave request: a rejection terminates the instance as rejected', async () => {
    const id = await start(t.alice, 'leave_request', { days: 1 });
    const task = await myTask(t.bob, id);
    const res = await actOk(t.bob, task.id, 'reject', { comment: 'busy week' });
    expect(res.instance.status).toBe('rejected');
    expect((await instance(t.alice, id)).endReason).toContain('busy week');
  });
});
