// Idempotency-Key (docs/contract.md, docs/http.md): validated, scoped to the caller and the request, bound to the body.
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { act, deploy, instance, myTask, oneStep, start } from '../helpers/flow.js';

let t: Record<string, string>;
const SEQ = 'idem_seq';
const ONE = 'idem_one';

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('idem'));
  await deploy(
    t.admin,
    oneStep(SEQ, { approver: { type: 'user', userIds: ['bob', 'carol'] }, approveMode: 'sequential' }),
  );
  await deploy(t.admin, oneStep(ONE, { approver: { type: 'user', userIds: ['bob'] } }));
});

const approvals = async (id: string) =>
  ((await instance(t.alice, id)).trail as any[]).filter((e) => e.type === 'approve');
const task = async (token: string, id: string) => (await api(`/api/v1/workflow/tasks/${id}`, { token })).body.data;

describe('the header is validated', () => {
  it('a 10 KB key is 400 VALIDATION_FAILED naming the header, and the action does not happen', async () => {
    const id = await start(t.alice, ONE);
    const mine = await myTask(t.bob, id);
    const res = await act(t.bob, mine.id, 'approve', {}, { 'Idempotency-Key': 'k'.repeat(10 * 1024) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(40001);
    expect(res.body.message).toContain('Idempotency-Key');
    expect((await task(t.bob, mine.id)).status).toBe('active');
    expect(await approvals(id)).toHaveLength(0);
  });

  it('256 characters or a character outside printable ASCII is 400 on every route that takes the header; 255 is fine', async () => {
    const id = await start(t.alice, ONE);
    const mine = await myTask(t.bob, id);
    for (const key of ['k'.repeat(256), 'caf\u00e9', 'a\tb']) {
      const res = await act(t.bob, mine.id, 'approve', {}, { 'Idempotency-Key': key });
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.code).toBe(40001);
      const vars = await api(`/api/v1/workflow/process-instances/${id}/variables`, {
        token: t.alice,
        body: { variables: { x: 1 } },
        headers: { 'Idempotency-Key': key },
      });
      expect(vars.status).toBe(400);
      expect(vars.body.message).toContain('Idempotency-Key');
    }
    expect((await instance(t.alice, id)).variables?.x).toBeUndefined();
    const ok = await act(t.bob, mine.id, 'approve', {}, { 'Idempotency-Key': `${'k'.repeat(250)} ~!@#` });
    expect(ok.status).toBe(200);
  });

  it('the OpenAPI document declares the header on the routes that take it', async () => {
    const doc = (await api('/openapi.json')).body as any;
    const params = (p: string, m: string) =>
      (doc.paths[p]?.[m]?.parameters ?? []).map((x: any) => `${x.in}:${String(x.name).toLowerCase()}`);
    expect(params('/api/v1/workflow/tasks/{id}/approve', 'post')).toContain('header:idempotency-key');
    expect(params('/api/v1/workflow/tasks/{id}/transfer', 'post')).toContain('header:idempotency-key');
    expect(params('/api/v1/workflow/process-instances/{id}/variables', 'post')).toContain('header:idempotency-key');
    expect(params('/api/v1/workflow/process-instances/{id}/suspend', 'post')).toContain('header:idempotency-key');
    expect(params('/api/v1/workflow/process-instances/{id}/re-drive', 'post')).toContain('header:idempotency-key');
    expect(params('/api/v1/workflow/process-instances/start', 'post')).toContain('header:idempotency-key');
  });
});

describe('the key is scoped to the caller and the request', () => {
  it('bob approves step 1 and carol step 2 with the same key: both take effect', async () => {
    const id = await start(t.alice, SEQ);
    const key = `shared-${id}`;
    const first = await act(t.bob, (await myTask(t.bob, id)).id, 'approve', {}, { 'Idempotency-Key': key });
    expect(first.status).toBe(200);
    const carolTask = await myTask(t.carol, id);
    const second = await act(t.carol, carolTask.id, 'approve', {}, { 'Idempotency-Key': key });
    expect(second.status).toBe(200);
    expect(second.body.data.task.id).toBe(carolTask.id);
    expect(second.body.data.task.status).not.toBe('active');
    expect(second.body.data.instance.status).toBe('completed');
    expect((await approvals(id)).map((e) => e.userId)).toEqual(['bob', 'carol']);
  });

  it('the same caller with the same key on two tasks: both take effect', async () => {
    const a = await start(t.alice, ONE);
    const b = await start(t.alice, ONE);
    const key = `mine-${a}`;
    for (const id of [a, b]) {
      const res = await act(t.bob, (await myTask(t.bob, id)).id, 'approve', {}, { 'Idempotency-Key': key });
      expect(res.status).toBe(200);
      expect(res.body.data.instance).toEqual({ id, status: 'completed' });
    }
  });

  it('the same caller, key and body: the first answer again and one effect; another body: 422', async () => {
    const id = await start(t.alice, SEQ);
    const mine = await myTask(t.bob, id);
    const headers = { 'Idempotency-Key': `again-${id}` };
    const first = await act(t.bob, mine.id, 'approve', { comment: 'fine', variables: {} }, headers);
    expect(first.status).toBe(200);
    // The same body with its keys in another order is the same request.
    const again = await act(t.bob, mine.id, 'approve', { variables: {}, comment: 'fine' }, headers);
    expect(again.status).toBe(200);
    expect(again.body.data.instance).toEqual(first.body.data.instance);
    const other = await act(t.bob, mine.id, 'approve', { comment: 'something else' }, headers);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 42201, data: null });
    expect(other.body.message).toContain('Idempotency-Key');
    const trail = await approvals(id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ userId: 'bob', comment: 'fine' });
    // carol's step is untouched by bob's retries.
    expect((await myTask(t.carol, id)).status).toBe('active');
  });

  it('the final decision repeated with its key after the instance ended answers as the first did', async () => {
    // The first answer was lost (a server or PostgreSQL died after the workflow recorded it): the
    // workflow that remembered it is closed, and the task's row answers the repeat.
    const id = await start(t.alice, ONE);
    const mine = await myTask(t.bob, id);
    const headers = { 'Idempotency-Key': `final-${id}` };
    const first = await act(t.bob, mine.id, 'approve', {}, headers);
    expect(first.status).toBe(200);
    expect(first.body.data.instance).toEqual({ id, status: 'completed' });
    const again = await act(t.bob, mine.id, 'approve', {}, headers);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.instance).toEqual(first.body.data.instance);
    expect(again.body.data.task).toMatchObject({
      id: mine.id,
      status: first.body.data.task.status,
      result: 'approved',
    });
    // Another decision, or no key, is refused as before; the trail has one approval.
    expect((await act(t.bob, mine.id, 'reject', {}, headers)).status).toBe(409);
    expect((await act(t.bob, mine.id, 'approve', {})).status).toBe(409);
    expect(await approvals(id)).toHaveLength(1);
  });

  it('a reused key with another body on variables is 422 and writes nothing', async () => {
    const id = await start(t.alice, ONE);
    const headers = { 'Idempotency-Key': `vars-${id}` };
    const path = `/api/v1/workflow/process-instances/${id}/variables`;
    expect((await api(path, { token: t.alice, body: { variables: { x: 1 } }, headers })).status).toBe(200);
    expect((await api(path, { token: t.alice, body: { variables: { x: 1 } }, headers })).status).toBe(200);
    const other = await api(path, { token: t.alice, body: { variables: { x: 2 } }, headers });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe(42201);
    expect((await instance(t.alice, id)).variables.x).toBe(1);
  });
});

describe('a start with Idempotency-Key', () => {
  const startWith = (token: string, key: string, body: Record<string, unknown>) =>
    api('/api/v1/workflow/process-instances/start', { token, body, headers: { 'Idempotency-Key': key } });
  /** The instances (running or ended) with this business key. */
  const withBusinessKey = async (businessKey: string) =>
    (
      await api(`/api/v1/workflow/process-instances?businessKey=${encodeURIComponent(businessKey)}&pageSize=50`, {
        token: t.admin,
      })
    ).body.data.items as Array<{ id: string; status: string }>;

  it('the same key and body answers the first answer (the same instance) and starts nothing more; another body: 422', async () => {
    const key = `start-${Date.now()}`;
    const body = { processKey: ONE, businessKey: `BK-${key}`, variables: { amount: 3 } };
    const first = await startWith(t.alice, key, body);
    expect(first.status).toBe(201);
    const id = first.body.data.instanceId as string;
    expect(first.body.data.instance).toMatchObject({ id, status: 'active' });
    // The same body with its keys in another order is the same request.
    const again = await startWith(t.alice, key, {
      variables: { amount: 3 },
      businessKey: `BK-${key}`,
      processKey: ONE,
    });
    expect(again.status).toBe(201);
    expect(again.body.data).toEqual(first.body.data);
    const other = await startWith(t.alice, key, { ...body, variables: { amount: 4 } });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 42201, data: null });
    expect(other.body.message).toContain('Idempotency-Key');
    expect(await withBusinessKey(`BK-${key}`)).toEqual([expect.objectContaining({ id, status: 'active' })]);
    // One start in the trail, one task for bob.
    expect(((await instance(t.alice, id)).trail as any[]).filter((e) => e.type === 'start')).toHaveLength(1);
    expect((await myTask(t.bob, id)).status).toBe('active');
  });

  it('a retry after the instance moved on answers that instance as it is now; without a business key too', async () => {
    const key = `moved-${Date.now()}`;
    const first = await startWith(t.alice, key, { processKey: ONE });
    expect(first.status).toBe(201);
    const id = first.body.data.instanceId as string;
    expect((await act(t.bob, (await myTask(t.bob, id)).id, 'approve', {})).status).toBe(200);
    const again = await startWith(t.alice, key, { processKey: ONE });
    expect(again.status).toBe(201);
    expect(again.body.data.instanceId).toBe(id);
    expect(again.body.data.instance.status).toBe('completed');
  });

  it('five retries at once on one key: one instance, the same answer to each', async () => {
    const key = `burst-${Date.now()}`;
    const body = { processKey: ONE, businessKey: `BK-${key}` };
    const answers = await Promise.all(Array.from({ length: 5 }, () => startWith(t.alice, key, body)));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
    const ids = new Set(answers.map((a) => a.body.data.instanceId));
    expect(ids.size).toBe(1);
    expect(answers.map((a) => a.body.data.instance.status)).toEqual(Array(5).fill('active'));
    expect((await withBusinessKey(`BK-${key}`)).map((i) => i.id)).toEqual([...ids]);
  });

  it('the same key from another user, or without the header, starts another instance', async () => {
    const key = `shared-start-${Date.now()}`;
    const mine = await startWith(t.alice, key, { processKey: ONE });
    const theirs = await startWith(t.carol, key, { processKey: ONE });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.data.instanceId).not.toBe(mine.body.data.instanceId);
    expect(theirs.body.data.instance.initiatorId).toBe('carol');
    const a = await start(t.alice, ONE);
    const b = await start(t.alice, ONE);
    expect(a).not.toBe(b);
  });

  it('a draft created with a key is answered again, not created twice', async () => {
    const key = `draft-${Date.now()}`;
    const body = { processKey: ONE, draft: true, variables: { note: 'later' } };
    const first = await startWith(t.alice, key, body);
    const again = await startWith(t.alice, key, body);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.data.instanceId).toBe(first.body.data.instanceId);
    expect(again.body.data.instance.status).toBe('draft');
  });

  it("a retry whose first request's server died before writing the first state: the retry writes it and answers", async () => {
    const key = `lost-${Date.now()}`;
    const body = { processKey: SEQ, businessKey: `BK-${key}` };
    const first = await startWith(t.alice, key, body);
    expect(first.status).toBe(201);
    const id = first.body.data.instanceId as string;
    // As a server that died between the workflow's answer and its write leaves the read model:
    // the row as inserted (seq 0, no task yet).
    const db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    const tasksOf = async () =>
      (await db.query(`select id, assignee, status from tasks where instance_id = $1 order by id`, [id])).rows;
    try {
      const before = await tasksOf();
      expect(before.filter((r: { status: string }) => r.status === 'active')).toEqual([
        expect.objectContaining({ assignee: 'bob' }),
      ]);
      await db.query(`delete from tasks where instance_id = $1`, [id]);
      await db.query(`update instances set seq = 0 where id = $1`, [id]);
      const again = await startWith(t.alice, key, body);
      expect(again.status).toBe(201);
      expect(again.body.data.instanceId).toBe(id);
      expect(again.body.data.instance.status).toBe('active');
      expect(await tasksOf()).toEqual(before);
      expect(Number((await db.query(`select seq from instances where id = $1`, [id])).rows[0].seq)).toBeGreaterThan(0);
    } finally {
      await db.end();
    }
    expect(await withBusinessKey(`BK-${key}`)).toHaveLength(1);
  });
});
