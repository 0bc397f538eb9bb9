// Outages of the stateful parts and how fast the service heals (issue 49), on a stack of its own
// (scripts/stack.ts, as crash.test.ts): /readyz says what is down within a second while PostgreSQL
// or Temporal is down, and an Update whose answering server died before its write is written by
// the intent sweeper within one sweep interval after a Temporal outage ends — its retries after a
// failed query start at a second and never wait longer than the interval (src/read-model/sweep-retry.ts).
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../scripts/stack.js';
import { readModelState } from '../../workflows/read-model.js';
import { workflowIdOf } from '../../workflows/search-attributes.js';
import { example } from '../helpers/flow.js';

let stack: Stack;
const tokens: Record<string, string> = {};
/** While this file exists, the server dies by SIGKILL before writing the next Update's answered state (engine-client.ts). */
const killFlag = path.join(os.tmpdir(), `outage-before-write-${process.pid}`);
/** The sweep interval here: the read model must be right within it once Temporal is back. */
const INTERVAL_MS = 5000;
/**
 * Intents younger than this are left alone (the answering server is still writing them). Long
 * enough that Temporal is down before the first sweep even on a loaded machine (a 2 s grace let
 * the sweeper write the state before the crash had landed).
 */
const GRACE_MS = 5000;

async function call(p: string, token?: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${stack.baseUrl}${p}`, {
    method: body ? 'POST' : 'GET',
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}
const startLeave = async (days: number) =>
  (
    await call('/api/v1/workflow/process-instances/start', tokens.alice, {
      processKey: 'leave_request',
      variables: { days },
    })
  ).body.data.instanceId as string;
const taskOf = async (who: string, instanceId: string) =>
  (await call('/api/v1/workflow/process-instances/todo', tokens[who])).body.data.items.find(
    (x: any) => x.instanceId === instanceId,
  );

/** /readyz's status, body and how long it took. */
async function ready() {
  const t0 = performance.now();
  const res = await fetch(`${stack.baseUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as any, ms: performance.now() - t0 };
}
async function readyAgain(timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await ready()).status !== 200) {
    if (Date.now() > deadline) throw new Error('/readyz did not come back');
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  stack = await startStack({
    name: 'outage',
    logLevel: process.env.CRASH_LOG_LEVEL ?? 'error',
    env: {
      FAULT_KILL_BEFORE_STATE_WRITE: killFlag,
      PROJECTION_SWEEP_GRACE_MS: String(GRACE_MS),
      PROJECTION_SWEEP_INTERVAL_MS: String(INTERVAL_MS),
    },
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

describe('/readyz while a dependency is down', () => {
  for (const part of ['postgres', 'temporal'] as const) {
    it(`${part} down: 503 within a second, naming it, every time; 200 once it is back`, async () => {
      expect((await ready()).status).toBe(200);
      const down = await stack.crash(part);
      const seen: number[] = [];
      let reasons = '';
      try {
        // Past the 1 s cache each time, so every round checks afresh.
        for (let round = 0; round < 4; round++) {
          await new Promise((r) => setTimeout(r, 1100));
          const res = await ready();
          seen.push(Math.round(res.ms));
          expect(res.status).toBe(503);
          expect(res.body.status).toBe('unavailable');
          expect(res.body.checks[part]).toBe(false);
          expect(res.body.notReady.map((n: { check: string }) => n.check)).toContain(part);
          expect(res.ms).toBeLessThan(1000);
          reasons = JSON.stringify(res.body.notReady);
        }
        expect((await fetch(`${stack.baseUrl}/healthz`)).status).toBe(200);
      } finally {
        await down.restart();
      }
      const back = Date.now();
      await readyAgain();
      console.info(
        `outage test: /readyz with ${part} down answered 503 in ${seen.join(', ')} ms (${reasons}); ready again ${Date.now() - back} ms after ${part} was back`,
      );
    }, 120_000);
  }
});

describe('the intent sweeper after a Temporal outage', () => {
  it('a server killed between an Update and its write during the outage: the read model is right within one sweep interval of Temporal being back', async () => {
    const id = await startLeave(5);
    const bobTask = await taskOf('bob', id);
    const key = `outage-${id}`;
    const approveOnce = () =>
      call(`/api/v1/workflow/tasks/${bobTask.id}/approve`, tokens.bob, { comment: 'fine' }, { 'Idempotency-Key': key });
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const approvals = async () =>
      (await db.query(`select user_id from trail where instance_id = $1 and type = 'approve'`, [id])).rows;
    const intents = async () =>
      (await db.query(`select update_id from projection_intents where instance_id = $1`, [id])).rows;
    const erinActive = async () =>
      (await db.query(`select assignee from tasks where instance_id = $1 and status = 'active'`, [id])).rows;
    try {
      writeFileSync(killFlag, '');
      // The workflow records bob's approval and answers; the server dies before it writes it …
      await expect(approveOnce()).rejects.toThrow();
      expect(existsSync(killFlag)).toBe(false);
      // … and Temporal goes down before the sweeper's grace is over: its queries fail.
      const temporal = await stack.crash('temporal');
      const outageMs = 12_000;
      await new Promise((r) => setTimeout(r, outageMs));
      // Still the gap: recorded in Temporal, missing from PostgreSQL, the intent waiting.
      expect(await approvals()).toEqual([]);
      expect((await intents()).map((r: { update_id: string }) => r.update_id)).toEqual([
        expect.stringMatching(/^approve:/),
      ]);
      await temporal.restart();
      const backAt = Date.now();
      // A query is answered by a worker: the sweeper can write nothing before a worker polls the
      // restarted Temporal again (the SDK's own poll backoff, seconds). When does one answer ours?
      const connection = await Connection.connect({ address: stack.temporalAddress });
      let workerBackAt = 0;
      const workerBack = (async () => {
        const handle = new Client({ connection }).workflow.getHandle(workflowIdOf('demo', id));
        while (!workerBackAt && Date.now() - backAt < 60_000) {
          await connection
            .withDeadline(Date.now() + 500, () => handle.query(readModelState))
            .then(() => (workerBackAt = Date.now()))
            .catch(() => new Promise((r) => setTimeout(r, 50)));
        }
      })();
      while ((await intents()).length && Date.now() - backAt < 60_000) await new Promise((r) => setTimeout(r, 50));
      const healedAt = Date.now();
      await workerBack;
      await connection.close();
      console.info(
        `outage test: Temporal down ${outageMs} ms; a worker answered a query ${workerBackAt - backAt} ms after Temporal was back, the sweeper wrote the missing state ${healedAt - backAt} ms after (interval ${INTERVAL_MS} ms)`,
      );
      expect(await intents()).toEqual([]);
      expect(workerBackAt).toBeGreaterThan(0);
      // Within one sweep interval of the workflow being able to answer (before: up to 5 minutes).
      expect(healedAt - workerBackAt).toBeLessThan(INTERVAL_MS);
      expect(healedAt - backAt).toBeLessThan(30_000);
      expect(await approvals()).toEqual([{ user_id: 'bob' }]);
      expect(await erinActive()).toEqual([{ assignee: 'erin' }]);
    } finally {
      await db.end();
    }
    // bob's client never got an answer: its retry with the same key answers like the first, once.
    const server = await stack.crash('server'); // already gone: crash() only waits for the exit
    await server.restart();
    const retry = await approveOnce();
    expect(retry.status).toBe(200);
    expect(retry.body.data.task).toMatchObject({ id: bobTask.id, result: 'approved' });
    const erinTask = await taskOf('erin', id);
    const done = await call(`/api/v1/workflow/tasks/${erinTask.id}/approve`, tokens.erin, {});
    expect(done.body.data.instance.status).toBe('completed');
  }, 180_000);
});
