// Service functions over real HTTP (docs/service-functions.md): the catalogue and its refusals,
// deploy against it, and processes whose functions are served by a separate function-worker
// process (examples/function-worker) and by a webhook receiver that checks the signature.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { actOk, deploy, eventually, instance, myTask, start } from '../helpers/flow.js';
import { conn, graphDoc as doc, node, user, wire } from '../helpers/dsl.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';

const FUNCTIONS = '/api/v1/service-functions';
const INSTANCES = '/api/v1/workflow/process-instances';
const SECRET = 'webhook-secret-0123456789';

let t: Record<string, string>;
let n = 0;
const key = () => `sf${++n}`;
/** start → fn (calling `functionName`) → bob's review → end; `failure` adds fn's Failure edge to carol's task. */
function fnDoc(k: string, functionName: string, param?: string, failure = false) {
  return doc(
    k,
    [
      node('s', 'startTask'),
      node('fn', 'serviceTask', { functionName, ...(param ? { param } : {}) }),
      user('review', ['bob']),
      ...(failure ? [user('fallback', ['carol'])] : []),
      node('end', 'end'),
    ],
    [
      conn('s', 'fn'),
      conn('fn', 'review'),
      ...(failure ? wire('fn>fallback:Failure fallback>end') : []),
      conn('review', 'end'),
    ],
  );
}
const post = (token: string, path: string, body?: unknown) => api(path, { token, body: body ?? {} });
const register = async (body: Record<string, unknown>) => {
  const res = await post(t.admin, FUNCTIONS, body);
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
};
/** A webhook entry at `url`, signed with the receiver's secret. */
const registerWebhook = (name: string, url: string, settings: Record<string, unknown> = {}) =>
  register({ name, kind: 'webhook', url, secret: SECRET, ...settings });

/** The function call runs after the answer of a start or a re-drive: wait until the path is at `nodeId`. */
const reached = (id: string, nodeId: string) =>
  eventually(
    () => instance(t.admin, id),
    (i) => (i.currentNodes as string[]).includes(nodeId),
    30_000,
  );
/** Likewise, wait until the call has failed the instance. */
const untilFailed = (id: string) =>
  eventually(
    () => instance(t.admin, id),
    (i) => i.status === 'failed',
    30_000,
  );
const stuckEntry = async (id: string) => {
  const items = (await api(`${INSTANCES}/stuck?pageSize=200`, { token: t.admin })).body.data.items as any[];
  return items.find((i) => i.id === id);
};

// ---------- the separate function worker ----------

const taskQueue = `functions-${randomUUID().slice(0, 8)}`;
let worker: ChildProcess;
let workerOutput = '';

function startFunctionWorker(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../..');
  worker = spawn(process.execPath, ['--import', 'tsx', 'examples/function-worker/worker.ts'], {
    cwd: root,
    env: { ...process.env, TEMPORAL_ADDRESS: inject('temporalAddress'), TASK_QUEUE: taskQueue },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`function worker did not start: ${workerOutput}`)), 60_000);
    const read = (chunk: Buffer) => {
      workerOutput += chunk.toString();
      if (workerOutput.includes('function worker ready')) {
        clearTimeout(timer);
        resolve();
      }
    };
    worker.stdout!.on('data', read);
    worker.stderr!.on('data', read);
    worker.once('exit', (code) => reject(new Error(`function worker exited with ${code}: ${workerOutput}`)));
  });
}

// ---------- the webhook receiver ----------

interface Received {
  path: string;
  body: any;
  callId: string | undefined;
  validSignature: boolean;
  timestamp: number;
}
let receiver: Receiver | undefined;
let port = 0;
const received: Received[] = [];
/** Calls answered 500 so far, by callId, for /flaky. */
const flakyFailures = new Map<string, number>();

/** What a receiver does: recompute the HMAC over `${timestamp}.${body}` and refuse stale timestamps. */
function verify(req: http.IncomingMessage, body: string): boolean {
  const timestamp = String(req.headers['x-gflow-timestamp'] ?? '');
  const given = String(req.headers['x-gflow-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;
  const fresh = Math.abs(Date.now() / 1000 - Number(timestamp)) < 300;
  return fresh && given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

beforeAll(async () => {
  ({ tokens: t } = await createDemoLikeTenant('sf'));
  receiver = await startReceiver((req, text, res) => {
    const validSignature = verify(req, text);
    const body = JSON.parse(text);
    received.push({
      path: req.url!,
      body,
      callId: req.headers['x-gflow-call-id'] as string | undefined,
      validSignature,
      timestamp: Number(req.headers['x-gflow-timestamp']),
    });
    if (!validSignature) return res.writeHead(401).end('bad signature');
    if (req.url === '/flaky') {
      const failures = flakyFailures.get(body.callId) ?? 0;
      if (failures < 3) {
        flakyFailures.set(body.callId, failures + 1);
        return res.writeHead(503).end('try later');
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ approvedBy: 'webhook', webhookCallId: body.callId, seenAmount: body.variables.amount }));
  });
  port = receiver.port;
  await startFunctionWorker();
}, 120_000);

afterAll(async () => {
  worker?.kill('SIGTERM');
  await receiver?.close();
});

describe('catalogue', () => {
  it('lists the built-ins read-only, registers entries and never answers a secret', async () => {
    const list = await api(`${FUNCTIONS}?pageSize=200`, { token: t.alice }); // workflow:definition:read
    expect(list.status).toBe(200);
    const builtins = list.body.data.items.filter((f: any) => f.builtin);
    expect(builtins.map((f: any) => f.name)).toEqual(['setVariables', 'increment', 'sum', 'fail']);
    expect(builtins[0]).toMatchObject({ kind: 'builtin', id: null, description: expect.any(String) });

    const created = await registerWebhook('Docs.webhookOne', `http://localhost:${port}/ok`, {
      description: 'documentation sample',
      inputSchema: { type: 'object' },
    });
    expect(created).toMatchObject({
      name: 'Docs.webhookOne',
      kind: 'webhook',
      builtin: false,
      hasSecret: true,
      timeoutMs: 30_000,
      retry: { maximumAttempts: 3, initialIntervalMs: 1000, backoffCoefficient: 2, maximumIntervalMs: null },
      inputSchema: { type: 'object' },
    });
    const got = await api(`${FUNCTIONS}/Docs.webhookOne`, { token: t.admin });
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(SECRET);
    expect(JSON.stringify((await api(`${FUNCTIONS}?pageSize=200`, { token: t.admin })).body)).not.toContain(SECRET);

    // An update without a secret keeps the old one; a change of kind drops url and secret.
    const updated = await api(`${FUNCTIONS}/Docs.webhookOne`, {
      token: t.admin,
      method: 'PUT',
      body: { kind: 'webhook', url: `http://localhost:${port}/other`, timeoutMs: 5000 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      url: `http://localhost:${port}/other`,
      hasSecret: true,
      timeoutMs: 5000,
    });
    const toActivity = await api(`${FUNCTIONS}/Docs.webhookOne`, {
      token: t.admin,
      method: 'PUT',
      body: { kind: 'activity', taskQueue: 'q', activityType: 'a' },
    });
    expect(toActivity.body.data).toMatchObject({ kind: 'activity', url: null, hasSecret: false, taskQueue: 'q' });
    const del = await api(`${FUNCTIONS}/Docs.webhookOne`, { token: t.admin, method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await api(`${FUNCTIONS}/Docs.webhookOne`, { token: t.admin })).status).toBe(404);
  });

  it('refuses bad entries, changes to built-ins, duplicates and callers without workflow:admin', async () => {
    const refused = async (body: unknown, status: number, code?: number) => {
      const res = await post(t.admin, FUNCTIONS, body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (code) expect(res.body.code).toBe(code);
      return res;
    };
    await refused({ name: 'A.b', kind: 'activity', taskQueue: 'q' }, 400); // no activityType
    await refused({ name: 'A.b', kind: 'webhook', url: 'http://localhost/x' }, 400); // no secret
    await refused({ name: 'A.b', kind: 'webhook', url: 'http://localhost/x', secret: 'short' }, 400);
    await refused({ name: 'A.b', kind: 'webhook', url: 'ftp://host/x', secret: SECRET }, 400);
    await refused({ name: 'A.b', kind: 'webhook', url: 'http://h/x', secret: SECRET, timeoutMs: 600_000 }, 400);
    await refused({ name: 'bad name', kind: 'activity', taskQueue: 'q', activityType: 'a' }, 400);
    await refused({ name: 'A..b', kind: 'activity', taskQueue: 'q', activityType: 'a' }, 400);
    await refused(
      { name: 'A.b', kind: 'activity', taskQueue: 'q', activityType: 'a', retry: { maximumAttempts: 0 } },
      400,
    );
    await refused({ name: 'A.b', kind: 'activity', taskQueue: 'q', activityType: 'a', extra: 1 }, 400);
    await refused({ name: 'sum', kind: 'activity', taskQueue: 'q', activityType: 'a' }, 409, 40940);
    expect((await api(`${FUNCTIONS}/sum`, { token: t.admin, method: 'DELETE' })).body.code).toBe(40940);
    const putBuiltin = await api(`${FUNCTIONS}/fail`, {
      token: t.admin,
      method: 'PUT',
      body: { kind: 'activity', taskQueue: 'q', activityType: 'a' },
    });
    expect(putBuiltin.status).toBe(409);
    expect((await api(`${FUNCTIONS}/sum`, { token: t.admin })).body.data).toMatchObject({ builtin: true });

    await register({ name: 'Dup.fn', kind: 'activity', taskQueue: 'q', activityType: 'a' });
    await refused({ name: 'Dup.fn', kind: 'activity', taskQueue: 'q', activityType: 'a' }, 409, 40903);
    // Two creations of one name at once: one is created, the other is told the name is taken.
    const race = await Promise.all(
      [1, 2, 3].map(() =>
        post(t.admin, FUNCTIONS, { name: 'Race.fn', kind: 'activity', taskQueue: 'q', activityType: 'a' }),
      ),
    );
    expect(race.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(race.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual([40903, 40903]);
    expect(
      (await post(t.alice, FUNCTIONS, { name: 'X.y', kind: 'activity', taskQueue: 'q', activityType: 'a' })).status,
    ).toBe(403);
    expect((await api(`${FUNCTIONS}/Dup.fn`, { token: t.alice, method: 'DELETE' })).status).toBe(403);
    expect((await api(`${FUNCTIONS}/No.such`, { token: t.admin })).status).toBe(404);
    expect((await api(`${FUNCTIONS}/No.such`, { token: t.admin, method: 'DELETE' })).status).toBe(404);
    // Another tenant sees only the built-ins.
    const other = await createDemoLikeTenant('sg');
    const names = (await api(`${FUNCTIONS}?pageSize=200`, { token: other.tokens.admin })).body.data.items.map(
      (f: any) => f.name,
    );
    expect(names).not.toContain('Dup.fn');
  });

  it('deploy accepts a catalogue name, pins it, and the entry cannot be removed while an active definition uses it', async () => {
    const k = key();
    const name = 'NotificationService.sendApprovalNotification';
    const before = await post(t.admin, '/api/v1/workflow/process-definitions/deploy', { dsl: fnDoc(k, name) });
    expect(before.status).toBe(422);
    expect(before.body.message).toContain('node fn');
    expect(before.body.data.problems[0]).toMatchObject({ nodeId: 'fn', field: 'configuration.functionName' });

    await register({
      name,
      kind: 'activity',
      taskQueue,
      activityType: 'sendApprovalNotification',
      timeoutMs: 10_000,
      retry: { maximumAttempts: 2, initialIntervalMs: 100 },
    });
    const def = await deploy(t.admin, fnDoc(k, name));
    expect(def.dsl.functions[name]).toMatchObject({
      kind: 'activity',
      taskQueue,
      activityType: 'sendApprovalNotification',
    });
    expect(JSON.stringify(def.dsl)).not.toContain(SECRET);

    const inUse = await api(`${FUNCTIONS}/${name}`, { token: t.admin, method: 'DELETE' });
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe(40906);
    expect(inUse.body.message).toContain(`${k} v1`);
    expect(inUse.body.data.definitions).toEqual([{ id: def.id, key: k, version: 1 }]);

    // Re-deploying the stored document (with its pinned section) works: the section is computed again.
    expect((await deploy(t.admin, def.dsl)).version).toBe(2);
  });
});

describe('activity functions on a separate worker', () => {
  it('runs NotificationService.sendApprovalNotification on the function worker and merges its answer', async () => {
    const k = key();
    await deploy(t.admin, fnDoc(k, 'NotificationService.sendApprovalNotification', '{"to":"${msg.who}"}'));
    const id = await start(t.alice, k, { who: 'bob' });
    await reached(id, 'review');
    const inst = await instance(t.admin, id);
    expect(inst.variables).toMatchObject({ notified: true, notifiedTo: 'bob' });
    expect(inst.variables.servedBy).toMatch(/^function-worker pid \d+$/);
    expect(inst.variables.servedBy).not.toBe(`function-worker pid ${process.pid}`);
    expect(inst.variables.notificationCallId).toMatch(new RegExp(`-${id}:fn:\\d+$`));
  });

  it('a failing function is retried per its policy, then takes the Failure edge', async () => {
    await register({
      name: 'RiskService.manualReview',
      kind: 'activity',
      taskQueue,
      activityType: 'manualReview',
      retry: { maximumAttempts: 2, initialIntervalMs: 100, backoffCoefficient: 1 },
    });
    const k = key();
    await deploy(t.admin, fnDoc(k, 'RiskService.manualReview', '{"failTimes": 5}', true));
    const id = await start(t.alice, k);
    await eventually(
      () => instance(t.admin, id),
      (i) => (i.currentNodes as string[]).includes('fallback'),
      30_000,
    );
    const inst = await instance(t.admin, id);
    const note = inst.trail.find((e: any) => e.comment?.startsWith('Service function RiskService.manualReview failed'));
    expect(note.comment).toContain('review system unavailable (attempt 2)'); // two attempts, as the policy says
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
  });

  it('a re-drive while the call is still running (nobody polls its queue) answers 409 and changes nothing', async () => {
    await register({
      name: 'Idle.wait',
      kind: 'activity',
      taskQueue: `nobody-${randomUUID().slice(0, 8)}`,
      activityType: 'wait',
    });
    const k = key();
    await deploy(t.admin, fnDoc(k, 'Idle.wait'));
    const id = await start(t.alice, k);
    await reached(id, 'fn');
    const res = await post(t.admin, `${INSTANCES}/${id}/re-drive`, { reason: 'hurry' });
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.code).toBe(40901);
    expect(res.body.message).toBe('The instance is not stuck: fn (serviceTask) waits for an external result');
    const still = await instance(t.admin, id);
    expect(still).toMatchObject({ status: 'active', currentNodes: ['fn'], failure: null });
    expect((await post(t.admin, `${INSTANCES}/${id}/terminate`, { reason: 'test done' })).status).toBe(200);
  });

  it('without a Failure edge the instance fails, shows in /stuck, and a re-drive calls it again with the same callId', async () => {
    const k = key();
    // 3 failures: attempts 1–2 fail (policy: 2), the re-drive's first attempt fails, its second succeeds.
    await deploy(t.admin, fnDoc(k, 'RiskService.manualReview', '{"failTimes": 3}'));
    const id = await start(t.alice, k);
    const failed = await untilFailed(id);
    expect(failed.currentNodes).toEqual(['fn']);
    const { detail } = await stuckEntry(id);
    expect(detail).toMatchObject({ failedNode: 'fn', nodeType: 'serviceTask' });
    expect(detail.reason).toContain('service function RiskService.manualReview failed');
    expect(detail.reason).toContain('review system unavailable (attempt 2)');
    // The instance itself says why, as the /stuck row does.
    expect(failed.failure).toMatchObject({ failedNode: 'fn', nodeType: 'serviceTask', reason: detail.reason });

    expect((await post(t.admin, `${INSTANCES}/${id}/re-drive`, { reason: 'review system back' })).status).toBe(200);
    await reached(id, 'review');
    // Attempts counted by callId reached 4: the re-drive reused the first call's id.
    expect((await instance(t.admin, id)).variables).toMatchObject({ reviewed: true, reviewAttempts: 4 });
  });
});

describe('webhook functions', () => {
  it('POSTs the signed call and merges the JSON answer', async () => {
    await registerWebhook('ApprovalHooks.check', `http://localhost:${port}/check`, { timeoutMs: 5000 });
    const k = key();
    await deploy(t.admin, fnDoc(k, 'ApprovalHooks.check', '{"level":"${msg.amount}"}'));
    const id = await start(t.alice, k, { amount: 70 }, `BK-${k}`);
    await reached(id, 'review');
    const call = received.find((r) => r.path === '/check' && r.body.instanceId === id)!;
    expect(call.validSignature).toBe(true);
    expect(Math.abs(call.timestamp - Date.now() / 1000)).toBeLessThan(120);
    expect(Object.keys(call.body).sort()).toEqual([
      'businessKey',
      'callId',
      'instanceId',
      'nodeId',
      'param',
      'variables',
    ]);
    expect(call.body).toMatchObject({
      nodeId: 'fn',
      businessKey: `BK-${k}`,
      variables: { amount: 70 },
      param: { level: '70' },
    });
    expect(call.callId).toBe(call.body.callId);
    // <workflowId>:<nodeId>:<visit>, the workflow id approval-<tenant>-<instance> (docs/service-functions.md).
    const tenant = (await api('/api/v1/auth/me', { token: t.admin })).body.data.tenant.id;
    expect(call.callId).toMatch(new RegExp(`^approval-${tenant}-${id}:fn:\\d+$`));
    expect((await instance(t.admin, id)).variables).toMatchObject({
      approvedBy: 'webhook',
      webhookCallId: call.body.callId,
      seenAmount: 70,
    });
  });

  it('a failing webhook is retried, fails the instance, and a re-drive succeeds with the same callId', async () => {
    await registerWebhook('ApprovalHooks.flaky', `http://localhost:${port}/flaky`, {
      timeoutMs: 5000,
      retry: { maximumAttempts: 2, initialIntervalMs: 100, backoffCoefficient: 1 },
    });
    const k = key();
    await deploy(t.admin, fnDoc(k, 'ApprovalHooks.flaky'));
    const id = await start(t.alice, k, { amount: 1 });
    const failed = await untilFailed(id);
    expect(failed.status).toBe('failed');
    expect((await stuckEntry(id)).detail.reason).toContain('answered 503');
    const calls = () => received.filter((r) => r.path === '/flaky' && r.body.instanceId === id);
    expect(calls()).toHaveLength(2);
    expect((await post(t.admin, `${INSTANCES}/${id}/re-drive`, {})).status).toBe(200);
    await reached(id, 'review');
    expect(calls()).toHaveLength(4); // 503, 503 | re-drive: 503, 200
    expect(new Set(calls().map((c) => c.body.callId)).size).toBe(1);
    expect(calls().every((c) => c.validSignature)).toBe(true);
  });

  it('follows the network rules of httpCall: a loopback address is refused without a retry', async () => {
    await registerWebhook('ApprovalHooks.loopback', `http://127.0.0.1:${port}/check`, {
      retry: { maximumAttempts: 5, initialIntervalMs: 100 },
    });
    const k = key();
    await deploy(t.admin, fnDoc(k, 'ApprovalHooks.loopback', undefined, true));
    const id = await start(t.alice, k);
    const inst = await reached(id, 'fallback');
    expect(inst.trail.map((e: any) => e.comment ?? '').join('\n')).toContain('loopback');
    expect(received.some((r) => r.body.instanceId === id)).toBe(false);
  });

  it('a running instance keeps the entry it was deployed with', async () => {
    await registerWebhook('ApprovalHooks.pinned', `http://localhost:${port}/check`);
    const k = key();
    const d = doc(
      k,
      [
        node('s', 'startTask'),
        user('first', ['bob']),
        node('fn', 'serviceTask', { functionName: 'ApprovalHooks.pinned' }),
        user('review', ['bob']),
        node('end', 'end'),
      ],
      wire('s>first first>fn fn>review review>end'),
    );
    await deploy(t.admin, d);
    const id = await start(t.alice, k);
    const moved = await api(`${FUNCTIONS}/ApprovalHooks.pinned`, {
      token: t.admin,
      method: 'PUT',
      body: { kind: 'webhook', url: `http://localhost:${port}/moved` },
    });
    expect(moved.status).toBe(200);
    await actOk(t.bob, (await myTask(t.bob, id, 'first')).id, 'approve');
    await reached(id, 'review');
    expect(received.find((r) => r.body.instanceId === id)?.path).toBe('/check');
  });
});
