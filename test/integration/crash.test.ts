// Nothing acknowledged is lost when a process crashes: its own stack, processes killed with SIGKILL.
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../scripts/stack.js';
import { example } from '../helpers/flow.js';

let stack: Stack;
const tokens: Record<string, string> = {};
/** While this file exists, the server dies by SIGKILL before writing the next Update's answered state (engine-client.ts). */
const killFlag = path.join(os.tmpdir(), `crash-before-write-${process.pid}`);
/** The sweeper looks often here, and only at intents 3 s old: a test sees the gap before it is swept. */
const SWEEP = { PROJECTION_SWEEP_GRACE_MS: '3000', PROJECTION_SWEEP_INTERVAL_MS: '500' };

async function call(p: string, token?: string, body?: unknown) {
  const res = await fetch(`${stack.baseUrl}${p}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}
/** alice asks for `days` of leave (examples/leave-request.json: 1 day, bob decides; 5 days, bob and erin); the instance id. */
const startLeave = async (days: number) =>
  (
    await call('/api/v1/workflow/process-instances/start', tokens.alice, {
      processKey: 'leave_request',
      variables: { days },
    })
  ).body.data.instanceId as string;
const approve = (who: string, task: { id: string }, body: unknown) =>
  call(`/api/v1/workflow/tasks/${task.id}/approve`, tokens[who], body);
const taskOf = async (who: string, instanceId: string) =>
  (await call('/api/v1/workflow/process-instances/todo', tokens[who])).body.data.items.find(
    (x: any) => x.instanceId === instanceId,
  );
/** A 5-day leave whose first approval (bob's) was acknowledged; erin's countersign is next. */
async function approvedByBob() {
  const id = await startLeave(5);
  expect((await approve('bob', await taskOf('bob', id), {})).status).toBe(200);
  return id;
}
/** How many task_assigned messages `userId` got about the instance. */
const toldOfTask = async (db: pg.Client, instanceId: string, userId: string) =>
  (
    await db.query(
      `select count(*)::int as n from notifications where instance_id = $1 and user_id = $2 and kind = 'task_assigned'`,
      [instanceId, userId],
    )
  ).rows[0].n as number;
/** Who approved, in the order of the instance's trail. */
const approvers = async (id: string) =>
  (await call(`/api/v1/workflow/process-instances/${id}`, tokens.alice)).body.data.trail
    .filter((e: any) => e.type === 'approve')
    .map((e: any) => e.userId);

beforeAll(async () => {
  stack = await startStack({
    name: 'crash',
    logLevel: process.env.CRASH_LOG_LEVEL ?? 'error',
    env: { FAULT_KILL_BEFORE_STATE_WRITE: killFlag, ...SWEEP },
  });
  for (const u of ['admin', 'alice', 'bob', 'erin']) {
    tokens[u] = (
      await call('/api/v1/auth/login', undefined, {
        username: u,
        password: u === 'admin' ? 'admin' : 'demo',
        tenantId: 'demo',
      })
    ).body.data.accessToken;
  }
  expect(
    (await call('/api/v1/workflow/process-definitions/deploy', tokens.admin, { dsl: example('leave-request.json') }))
      .status,
  ).toBe(201);
}, 180_000);

afterAll(() => stack?.stop(), 60_000);

describe('crashes', () => {
  it('an approval sent while the worker is down completes once a worker is back', async () => {
    const id = await startLeave(5);
    const bobTask = await taskOf('bob', id);
    const worker = await stack.crash('worker');
    const approval = approve('bob', bobTask, { comment: 'sent during the outage' });
    await new Promise((r) => setTimeout(r, 1500));
    await worker.restart();
    const res = await approval;
    expect(res.status).toBe(200);
    expect(res.body.data.task.result).toBe('approved');
    const erinTask = await taskOf('erin', id);
    expect((await approve('erin', erinTask, {})).body.data.instance.status).toBe('completed');
  }, 120_000);

  it('a server crash loses no instance; another server process carries on', async () => {
    const id = await startLeave(1);
    const server = await stack.crash('server');
    await server.restart();
    const bobTask = await taskOf('bob', id);
    expect(bobTask).toBeTruthy();
    expect((await approve('bob', bobTask, {})).body.data.instance.status).toBe('completed');
  }, 120_000);

  it('a server killed between an Update and its write: the sweeper writes the state, once, within its interval', async () => {
    const id = await startLeave(5);
    const bobTask = await taskOf('bob', id);
    const key = `crash-${id}`;
    const approveOnce = (task: { id: string }) =>
      fetch(`${stack.baseUrl}/api/v1/workflow/tasks/${task.id}/approve`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens.bob}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify({ comment: 'fine' }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    try {
      writeFileSync(killFlag, '');
      // The workflow records bob's approval and answers; the server dies before it writes it.
      await expect(approveOnce(bobTask)).rejects.toThrow();
      expect(existsSync(killFlag)).toBe(false);
      const killedAt = Date.now();
      const trail = async () =>
        (await db.query(`select type, user_id from trail where instance_id = $1 order by seq`, [id])).rows;
      const intents = async () =>
        (await db.query(`select update_id from projection_intents where instance_id = $1`, [id])).rows;
      // The gap the intent is for: recorded in Temporal, missing from PostgreSQL, the intent waiting.
      expect((await trail()).filter((e: { type: string }) => e.type === 'approve')).toEqual([]);
      expect((await intents()).map((r: { update_id: string }) => r.update_id)).toEqual([
        expect.stringMatching(/^approve:/),
      ]);
      // No server is running: the worker's sweeper alone closes it.
      while ((await intents()).length && Date.now() - killedAt < 30_000) await new Promise((r) => setTimeout(r, 200));
      const sweptAfterMs = Date.now() - killedAt;
      expect(await intents()).toEqual([]);
      expect(sweptAfterMs).toBeLessThan(30_000);
      console.info(`crash test: the sweeper wrote the missing state ${sweptAfterMs} ms after the kill (grace 3000 ms)`);
      expect((await trail()).filter((e: { type: string }) => e.type === 'approve')).toEqual([
        { type: 'approve', user_id: 'bob' },
      ]);
      const open = await db.query(`select assignee, status from tasks where instance_id = $1 and status = 'active'`, [
        id,
      ]);
      expect(open.rows.map((r: { assignee: string }) => r.assignee)).toEqual(['erin']);
      // erin's message about her task came from the sweep too, once.
      expect(await toldOfTask(db, id, 'erin')).toBe(1);
    } finally {
      await db.end();
    }
    const server = await stack.crash('server'); // already gone: crash() just waits for the exit
    await server.restart();
    // bob's client never got an answer: its retry with the same Idempotency-Key answers like the
    // first request would have (Temporal answers the same Update id with its recorded outcome), once.
    const retry = await approveOnce(bobTask);
    expect(retry.status).toBe(200);
    expect(retry.body.data.task).toMatchObject({ id: bobTask.id, status: 'completed', result: 'approved' });
    expect(retry.body.data.instance.status).toBe('active');
    expect(await approvers(id)).toEqual(['bob']);
    const erinTask = await taskOf('erin', id);
    expect((await approve('erin', erinTask, {})).body.data.instance.status).toBe('completed');
    expect(await approvers(id)).toEqual(['bob', 'erin']);
  }, 120_000);

  it('a server killed between a start that does not wait and its first write: the sweeper writes the first state from the workflow', async () => {
    // The start predicts its first state (docs/engine.md "A start that does not wait"): the
    // workflow is started, then the server dies before it writes the tasks. The intent stays; the
    // workflow confirmed the prediction without writing; the sweeper writes it from the workflow.
    const key = `crash-start-${process.pid}-${Date.now()}`;
    const startOnce = () =>
      fetch(`${stack.baseUrl}/api/v1/workflow/process-instances/start`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${tokens.alice}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': key,
        },
        body: JSON.stringify({ processKey: 'leave_request', variables: { days: 5 } }),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    let id: string;
    try {
      const before = new Date();
      writeFileSync(killFlag, '');
      await expect(startOnce()).rejects.toThrow();
      expect(existsSync(killFlag)).toBe(false);
      const killedAt = Date.now();
      const row = await db.query(
        `select i.id, i.seq from instances i join projection_intents p on p.instance_id = i.id
         where i.start_time >= $1 and p.update_id like 'start-%'`,
        [before],
      );
      expect(row.rows).toHaveLength(1);
      id = row.rows[0].id;
      // The gap: the row as the start inserted it, no task written, the start's intent waiting.
      expect(Number(row.rows[0].seq)).toBe(0);
      const tasks = async () =>
        (await db.query(`select assignee, status from tasks where instance_id = $1 order by assignee`, [id])).rows;
      const intents = async () =>
        (await db.query(`select update_id from projection_intents where instance_id = $1`, [id])).rows;
      expect(await tasks()).toEqual([]);
      while ((await intents()).length && Date.now() - killedAt < 30_000) await new Promise((r) => setTimeout(r, 200));
      expect(await intents()).toEqual([]);
      console.info(`crash test: the sweeper wrote the first state ${Date.now() - killedAt} ms after the kill`);
      // 5 days: bob and erin decide side by side (examples/leave-request.json).
      expect((await tasks()).filter((t: { status: string }) => t.status === 'active')).toEqual([
        { assignee: 'bob', status: 'active' },
        { assignee: 'erin', status: 'active' },
      ]);
      const trail = await db.query(`select type from trail where instance_id = $1 order by seq`, [id]);
      expect(trail.rows.map((r: { type: string }) => r.type).slice(0, 2)).toEqual(['start', 'assign']);
      expect(await toldOfTask(db, id, 'bob')).toBe(1);
    } finally {
      await db.end();
    }
    const server = await stack.crash('server'); // already gone: crash() just waits for the exit
    await server.restart();
    // alice's client never got an answer: its retry with the same key answers that instance.
    const retry = await startOnce();
    expect(retry.status).toBe(201);
    expect(retry.body.data.instanceId).toBe(id!);
    expect((await approve('bob', await taskOf('bob', id!), {})).status).toBe(200);
    expect((await approve('erin', await taskOf('erin', id!), {})).body.data.instance.status).toBe('completed');
  }, 120_000);

  it('a worker crash right after an acknowledged approval keeps it', async () => {
    const id = await approvedByBob();
    const worker = await stack.crash('worker');
    await worker.restart();
    expect(await approvers(id)).toEqual(['bob']);
    const erinTask = await taskOf('erin', id);
    expect((await approve('erin', erinTask, {})).body.data.instance.status).toBe('completed');
  }, 120_000);
});

describe('crashes of the stateful parts', () => {
  it('PostgreSQL down: requests answer 503, nothing half-written; once it is back the approval goes through', async () => {
    const id = await startLeave(1);
    const bobTask = await taskOf('bob', id);
    const pg = await stack.crash('postgres');
    const during = await approve('bob', bobTask, {});
    expect(during.status).toBe(503);
    expect(during.body.code).toBe(50300);
    expect((await fetch(`${stack.baseUrl}/readyz`)).status).toBe(503);
    await pg.restart();
    const after = await approve('bob', bobTask, {});
    expect(after.status).toBe(200);
    expect(after.body.data.instance.status).toBe('completed');
  }, 120_000);

  it('Temporal dev server killed: running instances carry on once it is back', async () => {
    const id = await approvedByBob();
    const temporal = await stack.crash('temporal');
    expect((await fetch(`${stack.baseUrl}/readyz`)).status).toBe(503);
    await temporal.restart();
    // Give the worker a moment to poll the restarted server again.
    const deadline = Date.now() + 60_000;
    while ((await fetch(`${stack.baseUrl}/readyz`)).status !== 200 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 500));
    const erinTask = await taskOf('erin', id);
    const res = await approve('erin', erinTask, {});
    expect(res.status).toBe(200);
    expect(res.body.data.instance.status).toBe('completed');
    expect(await approvers(id)).toEqual(['bob', 'erin']);
  }, 180_000);
});
