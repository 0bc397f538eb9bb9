// Batch decisions over real HTTP (docs/task-actions.md, "Batch decisions"): each task decided by
// its own Update with its own rules, the per-task answer, Idempotency-Key retries and refusals.
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant, login } from '../helpers/api.js';
import { actOk, deploy, instance, myTask, oneStep, start } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';

let t: Record<string, string>;
const ONE = 'batch_one';
const SEQ = 'batch_seq';
const CAROL = 'batch_carol';

const batch = (token: string | undefined, decision: string, body: unknown, headers?: Record<string, string>) =>
  api(`/api/v1/workflow/tasks/batch/${decision}`, { token, body, headers });
const decisions = async (id: string) =>
  ((await instance(t.admin, id)).trail as any[]).filter((e) => e.type === 'approve' || e.type === 'reject');
const taskStatus = async (id: string) => (await api(`/api/v1/workflow/tasks/${id}`, { token: t.admin })).body.data;

beforeAll(async () => {
  const demo = await createDemoLikeTenant('batch');
  t = demo.tokens;
  await deploy(t.admin, oneStep(ONE, users('bob')));
  await deploy(t.admin, oneStep(SEQ, { ...users('bob', 'carol'), approveMode: 'sequential' }));
  await deploy(t.admin, oneStep(CAROL, users('carol')));
  const role = await api('/api/v1/roles', { token: t.admin, body: { code: 'reader', permissions: [] } });
  expect(role.status).toBe(201);
  const user = await api('/api/v1/users', {
    token: t.admin,
    body: { id: 'vic', username: 'vic', password: 'pw-vic', deptId: 'eng', roles: ['reader'] },
  });
  expect(user.status).toBe(201);
  t.vic = await login('vic', 'pw-vic', demo.tenantId);
});

describe('batch approve and reject', () => {
  it('approves several tasks with one comment: every task decided, each answer with task and instance status', async () => {
    const ids = [await start(t.alice, ONE), await start(t.alice, ONE), await start(t.alice, SEQ)];
    const tasks = await Promise.all(ids.map((id) => myTask(t.bob, id)));
    const res = await batch(t.bob, 'approve', { taskIds: tasks.map((x) => x.id), comment: 'all fine' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ succeeded: 3, failed: 0 });
    const okAnswer = (i: number, instanceStatus: string) => ({
      taskId: tasks[i].id,
      ok: true,
      code: 0,
      message: 'OK',
      task: { id: tasks[i].id, status: 'completed' },
      instance: { id: ids[i], status: instanceStatus },
    });
    expect(res.body.data.results).toEqual([okAnswer(0, 'completed'), okAnswer(1, 'completed'), okAnswer(2, 'active')]);
    for (const id of ids) {
      expect((await decisions(id)).map((e) => [e.type, e.userId, e.comment])).toEqual([['approve', 'bob', 'all fine']]);
    }
    // The sequential instance moved on to carol.
    expect((await myTask(t.carol, ids[2])).status).toBe('active');
  });

  it('rejects several tasks: each instance follows its reject strategy', async () => {
    const ids = [await start(t.alice, ONE), await start(t.alice, ONE)];
    const tasks = await Promise.all(ids.map((id) => myTask(t.bob, id)));
    const res = await batch(t.bob, 'reject', { taskIds: tasks.map((x) => x.id), comment: 'no budget' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ succeeded: 2, failed: 0 });
    for (const [i, r] of (res.body.data.results as any[]).entries()) {
      expect(r).toMatchObject({
        ok: true,
        task: { status: 'completed' },
        instance: { id: ids[i], status: 'rejected' },
      });
      expect((await decisions(ids[i])).map((e) => [e.type, e.comment])).toEqual([['reject', 'no budget']]);
    }
  });

  it('a mixed batch: one decided; not the assignee, an unknown id and a closed task refused with their codes', async () => {
    const mine = await myTask(t.bob, await start(t.alice, ONE));
    // bob started it, so he may see it, but carol is the approver.
    const notMineInstance = await start(t.bob, CAROL);
    const notMine = await myTask(t.carol, notMineInstance);
    // bob's first step of a sequential instance, already approved (the instance runs on at carol).
    const seq = await start(t.alice, SEQ);
    const closed = await myTask(t.bob, seq);
    await actOk(t.bob, closed.id, 'approve');
    const res = await batch(t.bob, 'approve', { taskIds: [mine.id, notMine.id, 'no-such-task', closed.id] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ succeeded: 1, failed: 3 });
    const [a, b, c, d] = res.body.data.results as any[];
    expect(a).toMatchObject({ taskId: mine.id, ok: true, code: 0, task: { status: 'completed' } });
    expect(b).toMatchObject({ taskId: notMine.id, ok: false, code: 40902, task: null, instance: null });
    expect(c).toMatchObject({ taskId: 'no-such-task', ok: false, code: 40400 });
    expect(d).toMatchObject({ taskId: closed.id, ok: false, code: 40901 });
    for (const r of [b, c, d]) expect(r.message.length).toBeGreaterThan(0);
    // Nothing happened to the refused ones.
    expect((await taskStatus(notMine.id)).status).toBe('active');
    expect(await decisions(notMineInstance)).toEqual([]);
    expect((await decisions(seq)).map((e) => e.userId)).toEqual(['bob']);
    expect((await myTask(t.carol, seq)).status).toBe('active');
  });

  it('a retry with the same Idempotency-Key repeats no decision; another body with it is 422', async () => {
    const ids = [await start(t.alice, SEQ), await start(t.alice, SEQ)];
    const tasks = await Promise.all(ids.map((id) => myTask(t.bob, id)));
    const headers = { 'Idempotency-Key': `batch-${ids[0]}` };
    const body = { taskIds: tasks.map((x) => x.id), comment: 'once' };
    const first = await batch(t.bob, 'approve', body, headers);
    expect(first.status).toBe(200);
    expect(first.body.data.succeeded).toBe(2);
    const again = await batch(t.bob, 'approve', { comment: 'once', taskIds: body.taskIds }, headers);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(first.body.data);
    for (const id of ids) {
      expect((await decisions(id)).map((e) => [e.userId, e.comment])).toEqual([['bob', 'once']]);
      // carol's step is untouched by bob's retry.
      expect((await myTask(t.carol, id)).status).toBe('active');
    }
    const other = await batch(t.bob, 'approve', { ...body, comment: 'twice' }, headers);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe(42201);
    // The same key on the reject path is another request: it takes effect (and is refused per task here).
    const reject = await batch(t.bob, 'reject', body, headers);
    expect(reject.status).toBe(200);
    expect(reject.body.data).toMatchObject({ succeeded: 0, failed: 2 });
    for (const id of ids) expect(await decisions(id)).toHaveLength(1);
  });

  it('refuses an empty list, more than 100 ids, a duplicate id and an unknown field with 400, deciding nothing', async () => {
    const id = await start(t.alice, ONE);
    const task = await myTask(t.bob, id);
    const bad: Array<[unknown, number, string]> = [
      [{ taskIds: [] }, 40001, 'taskIds'],
      [{ taskIds: Array.from({ length: 101 }, (_, i) => (i === 0 ? task.id : `x${i}`)) }, 40001, 'taskIds'],
      [{ taskIds: [task.id, task.id] }, 40001, 'at most once'],
      [{ taskIds: [task.id], reason: 'x' }, 40003, 'reason'],
      [{ comment: 'no ids' }, 40001, 'taskIds'],
      [{ taskIds: [task.id, ''] }, 40001, 'taskIds'],
    ];
    for (const [body, code, text] of bad) {
      const res = await batch(t.bob, 'approve', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe(code);
      expect(res.body.message).toContain(text);
    }
    expect((await taskStatus(task.id)).status).toBe('active');
    expect(await decisions(id)).toEqual([]);
  });

  it('without a token 401; without approval:operate 403; a task of another tenant is 404 in its row', async () => {
    const id = await start(t.alice, ONE);
    const task = await myTask(t.bob, id);
    for (const decision of ['approve', 'reject']) {
      const res = await batch(undefined, decision, { taskIds: [task.id] });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(40100);
      const denied = await batch(t.vic, decision, { taskIds: [task.id] });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe(40300);
    }
    const { tokens: other } = await createDemoLikeTenant('batchx');
    const res = await batch(other.bob, 'approve', { taskIds: [task.id] });
    expect(res.status).toBe(200);
    expect(res.body.data.results[0]).toMatchObject({ ok: false, code: 40400 });
    expect((await taskStatus(task.id)).status).toBe('active');
  });

  it('/batch/approve is its own route, not /{id}/approve with the id "batch"', async () => {
    const doc = (await api('/openapi.json')).body as any;
    expect(doc.paths['/api/v1/workflow/tasks/batch/approve']?.post).toBeDefined();
    expect(doc.paths['/api/v1/workflow/tasks/batch/reject']?.post).toBeDefined();
    const params = (doc.paths['/api/v1/workflow/tasks/batch/approve'].post.parameters ?? []).map((x: any) =>
      String(x.name).toLowerCase(),
    );
    expect(params).toContain('idempotency-key');
  });
});
