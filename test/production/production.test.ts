// The production topology end to end (`npm run test:production`, part of `npm test`): PostgreSQL,
// a real Temporal server on it (built from the Go module proxy, not the dev server), two HTTP
// servers and two workers from the production build (dist/), configured as docker-compose.yml
// configures its services (scripts/production-stack.ts reads the compose file). The leave-request
// and expense examples run through both servers alternately while a worker is SIGKILLed, an HTTP
// server is SIGKILLed and the Temporal server restarts; every instance must end as expected with
// its exact trail, notifications must reach a WebSocket client of the other server, and the
// read model's runtime tables, once emptied, must come back equal from `npm run rebuild-read-model`.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrm, type Orm } from '../../src/db/orm.js';
import { restore } from '../../scripts/pg-backup.js';
import { startProductionStack, type ProductionStack } from '../../scripts/production-stack.js';
import { example } from '../helpers/flow.js';
import { graphDoc, node, parallelProcess, pickyProcess, user, wire } from '../helpers/dsl.js';
import { parseExposition, promtool, sampleSum, scrape } from '../helpers/prometheus.js';
import { startOtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver.js';
import { faultSoak, soakLines } from './fault-soak.js';

let stack: ProductionStack;
let orm: Orm;
const DEMO_PASSWORD = 'demo-production-pass';
const tokens: Record<string, string> = {};
const timings: Record<string, number> = {};
/** Which server answers the next call: the two alternate; one that is down is skipped (a load balancer would). */
let turn = 0;
const down = new Set<number>();

interface Res {
  status: number;
  body: any;
  server: number;
}

async function call(p: string, opts: { token?: string; body?: unknown; server?: number } = {}): Promise<Res> {
  let server = opts.server ?? turn++ % stack.baseUrls.length;
  if (opts.server === undefined && down.has(server)) server = (server + 1) % stack.baseUrls.length;
  const res = await fetch(`${stack.baseUrls[server]}${p}`, {
    method: opts.body ? 'POST' : 'GET',
    headers: {
      ...(opts.token ? { Authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: opts.body ? JSON.stringify(opts.body) : undefined,
  });
  return { status: res.status, body: await res.json(), server };
}

async function ok(p: string, opts: { token?: string; body?: unknown; server?: number } = {}) {
  const res = await call(p, opts);
  if (res.status >= 300) throw new Error(`${p} on server ${res.server}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const startInstance = async (
  who: string,
  processKey: string,
  variables: Record<string, unknown>,
  businessKey: string,
) =>
  (
    await ok('/api/v1/workflow/process-instances/start', {
      token: tokens[who],
      body: { processKey, variables, businessKey },
    })
  ).instanceId as string;

async function openTasks(who: string, instanceId: string) {
  const items = (await ok('/api/v1/workflow/process-instances/todo?pageSize=200', { token: tokens[who] }))
    .items as any[];
  return items.filter((t) => t.instanceId === instanceId);
}

/** The user's one open task on the instance (at a node), waiting a little for projections. */
async function taskOf(who: string, instanceId: string, activityId?: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const mine = (await openTasks(who, instanceId)).filter((t) => !activityId || t.activityId === activityId);
    if (mine.length === 1) return mine[0];
    if (Date.now() > deadline)
      throw new Error(`${who} has ${mine.length} open tasks on ${instanceId} ${activityId ?? ''}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const act = (who: string, taskId: string, action: string, body: Record<string, unknown> = {}) =>
  ok(`/api/v1/workflow/tasks/${taskId}/${action}`, { token: tokens[who], body });

/** The trail as [type, user, node] triples: the exact record every run must produce. */
async function trailOf(instanceId: string) {
  const detail = await ok(`/api/v1/workflow/process-instances/${instanceId}`, { token: tokens.admin });
  return {
    status: detail.status,
    trail: (detail.trail as any[]).map((e) => [e.type, e.userId ?? null, e.activityId ?? null]),
  };
}

async function waitReady(server: number) {
  const deadline = Date.now() + 120_000;
  while (
    !(await fetch(`${stack.baseUrls[server]}/readyz`)
      .then((r) => r.ok)
      .catch(() => false))
  ) {
    if (Date.now() > deadline) throw new Error(`server ${server} not ready`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const runbookText = readFileSync(path.resolve(import.meta.dirname, '../../docs/operations.md'), 'utf8');
/** The JSON report the rebuild prints (after npm's own header lines). */
const reportOf = (stdout: string) => JSON.parse(/^\{[\s\S]*^\}/m.exec(stdout)![0]);

/** A `<!-- runbook: name -->` shell block of docs/operations.md, run as written. */
async function runbook(name: string, vars: Record<string, string> = {}) {
  const found = new RegExp(
    `^([ \\t]*)<!-- runbook: ${name} -->\\s*\\n[ \\t]*\`\`\`sh\\n([\\s\\S]*?)\\n[ \\t]*\`\`\``,
    'm',
  ).exec(runbookText);
  if (!found) throw new Error(`docs/operations.md has no runbook block ${name}`);
  const script = found[2]
    .split('\n')
    .map((l) => l.slice(found[1].length))
    .join('\n');
  return (await stack.shell(script, { API: stack.baseUrls[turn++ % 2], TOKEN: tokens.admin, TENANT: 'demo', ...vars }))
    .stdout;
}

/** A WebSocket client of one server, collecting notifications. */
function listen(server: number, token: string) {
  const url = `${stack.baseUrls[server].replace(/^http/, 'ws')}/api/v1/ws/notifications?token=${encodeURIComponent(token)}`;
  const ws = new WebSocket(url);
  const received: any[] = [];
  const ready = new Promise<void>((resolve, reject) => {
    ws.addEventListener('message', (ev) => {
      const msg = JSON.parse(String(ev.data));
      if (msg.type === 'ready') resolve();
      if (msg.type === 'notification') received.push(msg.notification);
    });
    ws.addEventListener('error', () => reject(new Error('websocket error')));
  });
  return { ws, received, ready };
}

beforeAll(async () => {
  const started = Date.now();
  // The demo directory is seeded (SEED_DEMO and DEMO_PASSWORD are compose variables), so the
  // examples' approvers exist; the build is the one CI ships (npm run build).
  // Tracing is off, as compose ships it; the metrics case switches it on for itself.
  stack = await startProductionStack({
    name: 'production',
    build: process.env.PRODUCTION_BUILD !== '0',
    // PRODUCTION_KEEP_DATA=1 keeps the data folder (logs of every process) after the run.
    keepData: process.env.PRODUCTION_KEEP_DATA === '1',
    vars: { SEED_DEMO: 'true', DEMO_PASSWORD },
  });
  timings.startSeconds = (Date.now() - started) / 1000;
  orm = await createOrm(stack.databaseUrl, { poolMax: 2 });
  tokens.admin = (
    await ok('/api/v1/auth/login', { body: { username: 'admin', password: stack.adminPassword, tenantId: 'demo' } })
  ).accessToken;
  for (const u of ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace']) {
    tokens[u] = (
      await ok('/api/v1/auth/login', { body: { username: u, password: DEMO_PASSWORD, tenantId: 'demo' } })
    ).accessToken;
  }
  for (const f of ['leave-request.json', 'expense-claim.json'])
    await ok('/api/v1/workflow/process-definitions/deploy', { token: tokens.admin, body: { dsl: example(f) } });
}, 900_000);

afterAll(async () => {
  await orm?.close();
  await stack?.stop();
  console.log(`production topology: ${JSON.stringify(timings)}`);
}, 120_000);

describe('production topology (compose configuration, real Temporal server)', () => {
  it('serves /metrics on every server and worker, moving with a start, an approve and a failed webhook; one approve is one connected trace', async () => {
    // Traces go to a real OTLP/HTTP receiver (docs/operations.md "Traces"): every server and worker
    // restarts with tracing on for this case, and without it at its end, so the other cases run the
    // configuration compose ships. The case ends the instance it fails (through the API), so they
    // see only their own instances running.
    const started = Date.now();
    const otlp = await startOtlpReceiver();
    await stack.restartWith({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url });
    try {
      await metricsAndTraces(otlp);
    } finally {
      // A failed assertion must not leave its instance running into the other cases' counts.
      if (observabilityOpen)
        await ok(`/api/v1/workflow/process-instances/${observabilityOpen}/terminate`, {
          token: tokens.admin,
          body: { reason: 'observability case failed' },
        }).catch(() => undefined);
      await stack.restartWith({});
      await otlp.stop();
    }
    timings.observabilitySeconds = (Date.now() - started) / 1000;
  });

  /** The instance the observability case leaves failed until its end (terminated there). */
  let observabilityOpen: string | undefined;

  async function metricsAndTraces(otlp: Awaited<ReturnType<typeof startOtlpReceiver>>) {
    const urls = [...stack.metricsUrls.server, ...stack.metricsUrls.worker];
    const before = await scrape(urls);
    // A one-step process, and one whose webhook is refused (a loopback address) and fails it.
    const okKey = 'obs_one_step';
    const failKey = 'obs_webhook';
    await ok('/api/v1/service-functions', {
      token: tokens.admin,
      body: {
        name: 'Obs.down',
        kind: 'webhook',
        url: 'http://127.0.0.1:9/hook',
        secret: 'obs-webhook-secret-0123456789',
      },
    });
    for (const dsl of [
      graphDoc(
        okKey,
        [node('s', 'startTask'), user('review', ['bob']), node('end', 'end')],
        wire('s>review review>end'),
      ),
      graphDoc(
        failKey,
        [node('s', 'startTask'), node('fn', 'serviceTask', { functionName: 'Obs.down' }), node('end', 'end')],
        wire('s>fn fn>end'),
      ),
    ])
      await ok('/api/v1/workflow/process-definitions/deploy', { token: tokens.admin, body: { dsl } });
    const socket = listen(0, tokens.carol);
    await socket.ready;

    const okId = await startInstance('alice', okKey, {}, 'OBS-1');
    const task = await taskOf('bob', okId);
    const approveServer = turn % stack.baseUrls.length;
    await act('bob', task.id, 'approve', { comment: 'fine' });
    const failId = await startInstance('alice', failKey, {}, 'OBS-2');
    observabilityOpen = failId;
    const deadline = Date.now() + 60_000;
    while ((await trailOf(failId)).status !== 'failed') {
      if (Date.now() > deadline) throw new Error('the webhook instance did not fail');
      await new Promise((r) => setTimeout(r, 250));
    }
    expect((await trailOf(okId)).status).toBe('completed');

    // Counters are summed over the processes (any server or worker may have done the work).
    const delta = (after: typeof before.families, name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before.families, name, labels);
    let after = (await scrape(urls)).families;
    const moved = () =>
      delta(after, 'approval_instances_ended_total', { process_key: okKey, status: 'completed' }) === 1 &&
      delta(after, 'approval_instances_failed_total', { process_key: failKey }) === 1;
    for (const until = Date.now() + 30_000; !moved() && Date.now() < until;) {
      await new Promise((r) => setTimeout(r, 500));
      after = (await scrape(urls)).families;
    }
    expect(delta(after, 'approval_instances_started_total', { process_key: okKey })).toBe(1);
    expect(delta(after, 'approval_instances_started_total', { process_key: failKey })).toBe(1);
    expect(delta(after, 'approval_instances_ended_total', { process_key: okKey, status: 'completed' })).toBe(1);
    expect(delta(after, 'approval_instances_failed_total', { process_key: failKey })).toBe(1);
    const approveRoute = { method: 'POST', route: '/api/v1/workflow/tasks/:id/approve', status: '200' };
    expect(delta(after, 'approval_http_requests_total', approveRoute)).toBe(1);
    expect(delta(after, 'approval_http_request_duration_seconds', { route: approveRoute.route })).toBe(1);
    expect(delta(after, 'approval_update_duration_seconds', { action: 'approve', outcome: 'ok' })).toBe(1);
    expect(delta(after, 'approval_update_duration_seconds', { action: 'start', outcome: 'ok' })).toBe(2);
    expect(
      delta(after, 'approval_activity_attempts_total', {
        activity: 'callWebhook',
        function: 'Obs.down',
        outcome: 'error',
      }),
    ).toBeGreaterThanOrEqual(1);
    // Engine version 4: the states the start and the approve answered are written by the server; the
    // failed webhook's state is the one the projection activity writes (and times).
    expect(delta(after, 'approval_projection_lag_seconds')).toBeGreaterThanOrEqual(1);
    expect(
      delta(after, 'approval_projection_writes_total', { writer: 'server', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(3);
    expect(delta(after, 'approval_projection_writes_total', { outcome: 'ok' })).toBeGreaterThanOrEqual(3);
    // Scrape-time gauges from PostgreSQL (the failed webhook instance is still failed).
    expect(after.some((e) => e.families.has('approval_open_tasks'))).toBe(true);
    expect(sampleSum(after, 'approval_failed_instances', { tenant: 'demo' })).toBeGreaterThanOrEqual(1);
    expect(
      sampleSum((await scrape([stack.metricsUrls.server[0]])).families, 'approval_websocket_connections'),
    ).toBeGreaterThanOrEqual(1);
    socket.ws.close();
    // The Temporal SDK's own worker metrics on the worker's scrape.
    const workerText = (await scrape(stack.metricsUrls.worker)).texts[0];
    expect(workerText).toMatch(/^temporal_[a-z_]+(\{| )/m);
    const temporalFamilies = parseExposition(workerText).families;
    console.log(`Temporal SDK families: ${[...temporalFamilies].filter((f) => f.startsWith('temporal_')).join(' ')}`);
    expect(temporalFamilies.has('temporal_workflow_task_schedule_to_start_latency_seconds')).toBe(true);
    expect(temporalFamilies.has('temporal_worker_task_slots_available')).toBe(true);
    // No instance or user ids in any label.
    const all = (await scrape(urls)).texts.join('\n');
    for (const id of [okId, failId, task.id, 'alice', 'bob']) expect(all).not.toMatch(new RegExp(`="${id}"`));
    // Prometheus's own parser and linter accept every exposition.
    for (const text of (await scrape(urls)).texts) {
      const checked = await promtool(['check', 'metrics'], text);
      expect(checked.output).not.toMatch(/error while linting|parse error/i);
    }

    // One approve, one trace: the server's request span, the Temporal client call, the workflow's
    // Update handling, the projection, and the PostgreSQL statements, all connected.
    const approveSpan = async () => {
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 500))) {
        const span = otlp.spans.find(
          (sp) =>
            sp.role === 'server' &&
            sp.attributes['http.route'] === approveRoute.route &&
            sp.attributes['url.path'] === `/api/v1/workflow/tasks/${task.id}/approve`,
        );
        if (span) return span;
      }
      throw new Error('no server span of the approve');
    };
    const root = await approveSpan();
    // The server and the worker export on timers of their own: wait for the last span of each.
    const workerUpdate = (sp: ReceivedSpan) =>
      sp.role === 'worker' && /^(HandleUpdate|ValidateUpdate):approve$/.test(sp.name);
    const traceSpans = async () => {
      let spans: ReceivedSpan[] = [];
      for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 500))) {
        spans = otlp.spans.filter((sp) => sp.traceId === root.traceId);
        if (spans.some((sp) => sp.role === 'server' && sp.name === 'projection.write') && spans.some(workerUpdate))
          break;
      }
      return spans;
    };
    const spans = await traceSpans();
    const names = spans.map((sp) => `${sp.role}:${sp.name}`);
    console.log(`approve trace ${root.traceId}: ${JSON.stringify(names)}`);
    expect(root.parentSpanId).toBe('');
    expect(root.attributes['http.request_id']).toMatch(/\S/);
    const ids = new Set(spans.map((sp) => sp.spanId));
    // Connected: every span but the request's hangs under another span of the same trace.
    for (const sp of spans) if (sp !== root) expect(ids.has(sp.parentSpanId), `${sp.role}:${sp.name}`).toBe(true);
    expect(names).toContain('server:StartWorkflowUpdate:approve');
    expect(spans.some(workerUpdate)).toBe(true);
    // The projection of the approve's state: written by the server from the Update's answer
    // (docs/engine.md, engine version 2), its statements under it.
    const projection = spans.find((sp) => sp.role === 'server' && sp.name === 'projection.write');
    expect(projection?.attributes['approval.writer']).toBe('server');
    expect(
      spans.some((sp) => sp.parentSpanId === projection!.spanId && sp.attributes['db.system'] === 'postgresql'),
    ).toBe(true);
    // The worker's projection activity runs in the workflow's own trace (the start's): the activity
    // span and its PostgreSQL statements hang under the start request.
    const startTraces = () =>
      new Set(
        otlp.spans
          .filter((sp) => sp.role === 'server' && sp.name === 'POST /api/v1/workflow/process-instances/start')
          .map((sp) => sp.traceId),
      );
    // Spans come in batches from four processes: the activity's and the start's may arrive late.
    let activity: ReceivedSpan | undefined;
    for (
      const until = Date.now() + 30_000;
      !activity && Date.now() < until;
      await new Promise((r) => setTimeout(r, 500))
    ) {
      const starts = startTraces();
      activity = otlp.spans.find(
        (sp) => starts.has(sp.traceId) && sp.role === 'worker' && sp.name === 'RunActivity:project',
      );
    }
    // What was received, by trace, when the activity is missing from a start's trace.
    const received = () =>
      JSON.stringify(
        otlp.spans
          .filter((sp) => !sp.attributes['db.system'])
          .map(
            (sp) =>
              `${sp.role}:${startTraces().has(sp.traceId) ? 'start' : sp.traceId.slice(0, 8)}:${sp.name}:${sp.parentSpanId ? 'child' : 'root'}`,
          ),
      );
    expect(activity, received()).toBeDefined();
    expect(
      otlp.spans.some(
        (sp) => sp.traceId === activity!.traceId && sp.role === 'worker' && sp.attributes['db.system'] === 'postgresql',
      ),
    ).toBe(true);
    // The trace id is in the request's log line.
    const serverLog = readFileSync(path.join(stack.logDir, `server-${approveServer}.log`), 'utf8');
    expect(serverLog).toContain(`"traceId":"${root.traceId}"`);

    // The failed webhook instance ends through the API (the runbook's terminate) and closes in Temporal.
    await ok(`/api/v1/workflow/process-instances/${failId}/terminate`, {
      token: tokens.admin,
      body: { reason: 'observability case done' },
    });
    expect((await trailOf(failId)).status).toBe('terminated');
    observabilityOpen = undefined;
    await stack.shell(`temporal workflow result --workflow-id "approval-demo-${failId}"`, {
      TEMPORAL_CLI_TIMEOUT: '60s',
    });
  }

  it('runs both examples through both servers while a worker and a server are killed and Temporal restarts', async () => {
    const started = Date.now();
    // A WebSocket client of server 1 sees what actions on server 0 cause.
    const bobSocket = listen(1, tokens.bob);
    await bobSocket.ready;
    const seenOnSocket = await startInstance('alice', 'leave_request', { days: 2 }, 'P-LEAVE-SHORT');
    const deadline = Date.now() + 30_000;
    while (!bobSocket.received.some((n) => n.instanceId === seenOnSocket && n.kind === 'task_assigned')) {
      if (Date.now() > deadline)
        throw new Error(`no notification on server 1's socket: ${JSON.stringify(bobSocket.received)}`);
      await new Promise((r) => setTimeout(r, 100));
    }

    const ids = {
      leaveShort: seenOnSocket,
      leaveMedium: await startInstance('alice', 'leave_request', { days: 5 }, 'P-LEAVE-MEDIUM'),
      leaveLong: await startInstance('alice', 'leave_request', { days: 10 }, 'P-LEAVE-LONG'),
      leaveRejected: await startInstance('alice', 'leave_request', { days: 1 }, 'P-LEAVE-REJECTED'),
      expenseSmall: await startInstance('alice', 'expense_claim', { amount: 50 }, 'P-EXPENSE-SMALL'),
      expenseLarge: await startInstance('alice', 'expense_claim', { amount: 20000 }, 'P-EXPENSE-LARGE'),
    };

    // Round 1, with worker 0 SIGKILLed while the approvals are in flight.
    const round1 = Promise.all([
      taskOf('bob', ids.leaveShort).then((t) => act('bob', t.id, 'approve', { comment: 'enjoy' })),
      taskOf('bob', ids.leaveMedium).then((t) => act('bob', t.id, 'approve')),
      taskOf('bob', ids.leaveLong).then((t) => act('bob', t.id, 'approve')),
      taskOf('bob', ids.leaveRejected).then((t) => act('bob', t.id, 'reject', { comment: 'busy week' })),
      taskOf('bob', ids.expenseSmall).then((t) => act('bob', t.id, 'reject', { comment: 'receipt missing' })),
      taskOf('bob', ids.expenseLarge).then((t) => act('bob', t.id, 'approve')),
    ]);
    await new Promise((r) => setTimeout(r, 300));
    const worker0 = await stack.kill('worker', 0);
    await round1;

    // Server 0 SIGKILLed: server 1 carries every call meanwhile.
    const server0 = await stack.kill('server', 0);
    down.add(0);
    await act('erin', (await taskOf('erin', ids.leaveMedium)).id, 'approve');
    await act('alice', (await taskOf('alice', ids.expenseSmall)).id, 'approve', { comment: 'receipt added' });
    await worker0.restart();
    await server0.restart();
    down.delete(0);

    // The Temporal server restarts (SIGTERM, then start on the same databases).
    await stack.restartTemporal();
    await Promise.all([waitReady(0), waitReady(1)]);
    await act('carol', (await taskOf('carol', ids.leaveLong)).id, 'approve');
    await act('bob', (await taskOf('bob', ids.expenseSmall)).id, 'approve');
    for (const id of [ids.expenseSmall, ids.expenseLarge]) {
      for (const [who, node] of [
        ['grace', 'finance_check'],
        ['frank', 'budget_owner'],
      ] as const) {
        const task = await taskOf(who, id, node);
        await act(who, task.id, 'claim');
        await act(who, task.id, 'approve');
      }
    }
    await act('carol', (await taskOf('carol', ids.expenseLarge, 'directors')).id, 'approve');
    await act('dave', (await taskOf('dave', ids.expenseLarge, 'directors')).id, 'approve');

    type Entry = [string, string | null, string | null];
    const leave = (...middle: Entry[]): Entry[] => [['start', 'alice', null], ...middle, ['cc', null, 'notify_hr']];
    // After the fork both branches assign their pools; which comes first varies (sorted below).
    const forkAssigns: Entry[] = [
      ['assign', null, 'budget_owner'],
      ['assign', null, 'finance_check'],
    ];
    const checks: Entry[] = [
      ['claim', 'grace', 'finance_check'],
      ['approve', 'grace', 'finance_check'],
      ['claim', 'frank', 'budget_owner'],
      ['approve', 'frank', 'budget_owner'],
    ];
    /** The split, both pools assigned, then each claimed and approved. */
    const parallelChecks: Entry[] = [['system', null, 'split'], ...forkAssigns, ...checks];
    /** `node` assigned to each of `who`, then decided (`approve`, `reject`) by each, in that order. */
    const decidedBy = (action: string, node: string, ...who: string[]): Entry[] => [
      ...who.map((w): Entry => ['assign', w, node]),
      ...who.map((w): Entry => [action, w, node]),
    ];
    const expected: Record<keyof typeof ids, { status: string; trail: Entry[] }> = {
      leaveShort: {
        status: 'completed',
        trail: leave(...decidedBy('approve', 'manager_approval', 'bob')),
      },
      leaveMedium: {
        status: 'completed',
        trail: leave(...decidedBy('approve', 'manager_and_hr', 'bob', 'erin')),
      },
      leaveLong: {
        status: 'completed',
        trail: leave(...decidedBy('approve', 'management_chain', 'bob', 'carol')),
      },
      leaveRejected: {
        status: 'rejected',
        trail: [['start', 'alice', null], ...decidedBy('reject', 'manager_approval', 'bob')],
      },
      expenseSmall: {
        status: 'completed',
        trail: [
          ['start', 'alice', null],
          ...decidedBy('reject', 'manager', 'bob'),
          ['assign', 'alice', 'start'],
          ['complete', 'alice', 'start'],
          ['submit', 'alice', 'start'],
          ...decidedBy('approve', 'manager', 'bob'),
          ...parallelChecks,
        ],
      },
      expenseLarge: {
        status: 'completed',
        trail: [
          ['start', 'alice', null],
          ...decidedBy('approve', 'manager', 'bob'),
          ...parallelChecks,
          ['assign', 'carol', 'directors'],
          ['assign', 'dave', 'directors'],
          ['assign', 'frank', 'directors'],
          ['approve', 'carol', 'directors'],
          ['approve', 'dave', 'directors'],
        ],
      },
    };
    const actual: Record<string, { status: string; trail: Entry[] }> = {};
    for (const [name, id] of Object.entries(ids)) {
      const got = (await trailOf(id)) as { status: string; trail: Entry[] };
      const split = got.trail.findIndex((e) => e[0] === 'system' && e[2] === 'split');
      if (split >= 0)
        got.trail.splice(
          split + 1,
          2,
          ...got.trail.slice(split + 1, split + 3).sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
        );
      actual[name] = got;
    }
    expect(actual).toEqual(expected);
    // Every ended instance is archived; the runtime tables hold none of them.
    const all = Object.values(ids);
    const marks = all.map(() => '?').join(', ');
    const archived = await orm.em
      .fork()
      .execute<{ id: string; status: string }[]>(
        `select id, status from instances_archive where id in (${marks}) order by id`,
        all,
      );
    expect(Object.fromEntries(archived.map((r) => [r.id, r.status]))).toEqual(
      Object.fromEntries(Object.entries(ids).map(([name, id]) => [id, expected[name as keyof typeof ids].status])),
    );
    expect(await orm.em.fork().execute(`select id from instances where id in (${marks})`, all)).toEqual([]);
    bobSocket.ws.close();
    timings.scenarioSeconds = (Date.now() - started) / 1000;
  });

  it('rebuilds the runtime read-model tables from the running workflows: npm run rebuild-read-model', async () => {
    const started = Date.now();
    const medium = await startInstance('alice', 'leave_request', { days: 5 }, 'R-LEAVE-MEDIUM');
    await act('bob', (await taskOf('bob', medium)).id, 'approve', { comment: 'fine by me' });
    const long = await startInstance('alice', 'leave_request', { days: 10 }, 'R-LEAVE-LONG');
    await act('bob', (await taskOf('bob', long)).id, 'approve');
    const expense = await startInstance('alice', 'expense_claim', { amount: 20000, purpose: 'servers' }, 'R-EXPENSE');
    await act('bob', (await taskOf('bob', expense)).id, 'approve');
    await act('grace', (await taskOf('grace', expense, 'finance_check')).id, 'claim');
    const running = [medium, long, expense];
    await taskOf('erin', medium);
    await taskOf('carol', long);

    const em = () => orm.em.fork();
    const rows = async () => ({
      // updated_at is the time of the write, not part of the state.
      instances: await em()
        .execute(`select * from instances order by id`)
        .then((r) => r.map(({ updated_at: _updatedAt, ...rest }: any) => rest)),
      tasks: await em().execute(`select * from tasks order by id`),
    });
    const before = await rows();
    expect(before.instances.map((i: any) => i.id).sort()).toEqual([...running].sort());
    expect(before.tasks.length).toBeGreaterThanOrEqual(6);

    await em().execute('truncate instances, tasks');
    expect(await openTasks('erin', medium)).toEqual([]);

    const report = reportOf(await runbook('rebuild-read-model'));
    // Instances of the case before may still be listed as running for a moment after they end.
    expect(report).toMatchObject({ rebuilt: 3, failed: [], orphans: [] });
    expect(report.running).toBe(report.rebuilt + report.ended.length);
    // …and they do close: nothing is left running with an ended state.
    for (const id of report.ended)
      await stack.shell(`temporal workflow result --workflow-id "${id}"`, { TEMPORAL_CLI_TIMEOUT: '60s' });
    expect(await rows()).toEqual(before);

    // A second run changes nothing; the rebuilt model serves the lists and the instances finish.
    const again = reportOf(await runbook('rebuild-read-model'));
    expect(again.rebuilt).toBe(3);
    expect(await rows()).toEqual(before);
    await act('erin', (await taskOf('erin', medium)).id, 'approve');
    await act('carol', (await taskOf('carol', long)).id, 'approve');
    await act('grace', (await taskOf('grace', expense, 'finance_check')).id, 'approve');
    await act('frank', (await taskOf('frank', expense, 'budget_owner')).id, 'claim');
    await act('frank', (await taskOf('frank', expense, 'budget_owner')).id, 'approve');
    await act('carol', (await taskOf('carol', expense, 'directors')).id, 'approve');
    await act('dave', (await taskOf('dave', expense, 'directors')).id, 'approve');
    for (const id of running) expect((await trailOf(id)).status).toBe('completed');
    timings.rebuildSeconds = (Date.now() - started) / 1000;
  });

  it("runs the runbook's commands: find an instance, the stuck list, re-drive, force-resume, terminate, replay production histories", async () => {
    const started = Date.now();
    for (const dsl of [pickyProcess, parallelProcess])
      await ok('/api/v1/workflow/process-definitions/deploy', { token: tokens.admin, body: { dsl } });
    const statusOf = async (id: string) => (await trailOf(id)).status;
    const until = async (id: string, status: string) => {
      const deadline = Date.now() + 30_000;
      while ((await statusOf(id)) !== status) {
        if (Date.now() > deadline) throw new Error(`${id} never became ${status}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    };

    // Finding an instance: API, detail, Temporal.
    const leave = await startInstance('alice', 'leave_request', { days: 2 }, 'OPS-LEAVE');
    await act('bob', (await taskOf('bob', leave)).id, 'approve');
    expect((await runbook('find-instance', { BUSINESS_KEY: 'OPS-LEAVE' })).trim()).toBe(
      `${leave} completed leave_request`,
    );
    expect(JSON.parse(await runbook('instance-detail', { INSTANCE_ID: leave }))).toEqual({
      status: 'completed',
      currentNodes: [],
      trail: (await trailOf(leave)).trail,
    });
    const listed = await runbook('find-workflow', { BUSINESS_KEY: 'OPS-LEAVE', INSTANCE_ID: leave });
    expect(listed).toContain(`approval-demo-${leave}`);
    expect(listed).toMatch(/Completed/);

    // A failed instance: in the stuck list with its reason; fixed variables, re-drive, it goes on.
    const failing = await startInstance('alice', 'picky', { amount: 5 }, 'OPS-PICKY');
    await until(failing, 'failed');
    expect(await runbook('stuck')).toMatch(new RegExp(`${failing} failed .*no case matched`));
    await ok(`/api/v1/workflow/process-instances/${failing}/variables`, {
      token: tokens.admin,
      body: { variables: { amount: 500 } },
    });
    expect(JSON.parse(await runbook('re-drive', { INSTANCE_ID: failing }))).toMatchObject({
      id: failing,
      status: 'active',
      currentNodes: ['big'],
    });
    await act('carol', (await taskOf('carol', failing)).id, 'approve');
    await until(failing, 'completed');

    // A fork whose failed branch holds the join: force-resume moves on after the join.
    const forked = await startInstance('alice', 'parallel', { go: false }, 'OPS-FORK');
    await until(forked, 'failed');
    await act('bob', (await taskOf('bob', forked)).id, 'approve');
    expect(JSON.parse(await runbook('force-resume', { INSTANCE_ID: forked }))).toMatchObject({
      id: forked,
      status: 'active',
      currentNodes: ['after'],
    });
    await taskOf('dave', forked, 'after');

    // Before a release: replay the running workflows' histories against this code.
    const historyDir = await mkdtemp(path.join(os.tmpdir(), 'histories-'));
    try {
      const replay = await runbook('replay-production-histories', { HISTORY_DIR: historyDir });
      const lines = replay
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.history)).toContain(`approval-demo-${forked}.json`);
      expect(lines.every((l) => l.ok)).toBe(true);
    } finally {
      await rm(historyDir, { recursive: true, force: true });
    }

    // Terminate: the instance ends, its tasks close, it is archived.
    expect(JSON.parse(await runbook('terminate', { INSTANCE_ID: forked }))).toMatchObject({
      id: forked,
      status: 'terminated',
    });
    expect(await openTasks('dave', forked)).toEqual([]);
    expect((await trailOf(forked)).status).toBe('terminated');
    timings.runbookSeconds = (Date.now() - started) / 1000;
  });

  it("backs up the three databases and restores them into fresh ones with the runbook's commands; the data comes back equal", async () => {
    const started = Date.now();
    const backupDir = await mkdtemp(path.join(os.tmpdir(), 'approvals-backup-'));
    const { Client } = createRequire(import.meta.url)('pg');
    const server = new URL(stack.databaseUrl);
    const urlOf = (db: string) => Object.assign(new URL(stack.databaseUrl), { pathname: `/${db}` }).toString();
    /** One hash per table over every row (as JSON text, sorted), for the tables named. */
    const hashes = async (db: string, tables: string[]) => {
      const client = new Client({ connectionString: urlOf(db) });
      await client.connect();
      try {
        const out: Record<string, string> = {};
        for (const t of tables)
          out[t] = (
            await client.query(
              `select count(*)::text || ':' || coalesce(md5(string_agg(j, ',' order by j)), '') as h from (select to_jsonb(x)::text as j from ${t} x) r`,
            )
          ).rows[0].h;
        return out;
      } finally {
        await client.end();
      }
    };
    const compare = {
      approvals: [
        'instances',
        'instances_archive',
        'tasks',
        'tasks_archive',
        'trail',
        'cc_records',
        'process_definitions',
        'users',
        'open_task_counts',
        'tasks_archive_counts',
      ],
      temporal: ['executions', 'current_executions', 'history_node', 'history_tree', 'namespaces'],
      temporal_visibility: ['executions_visibility'],
    };
    try {
      // Nothing changes any more (the instances above ended or wait for people), so the copies must
      // equal the sources. A run completes just after its last answer (once its final projection is
      // in), and Temporal's visibility follows a moment later: wait until it stops changing.
      const visibilityHash = async () =>
        JSON.stringify(await hashes('temporal_visibility', compare.temporal_visibility));
      for (let i = 0, last = await visibilityHash(); ; i++) {
        await new Promise((r) => setTimeout(r, 1000));
        const now = await visibilityHash();
        if (now === last) break;
        expect(i, 'visibility stopped changing').toBeLessThan(30);
        last = now;
      }
      const before = Object.fromEntries(
        await Promise.all(Object.entries(compare).map(async ([db, t]) => [db, await hashes(db, t)] as const)),
      );
      const step = (name: string) => (timings[`backup:${name}`] = (Date.now() - started) / 1000);
      step('hashed');
      const backedUp = (await runbook('backup', { BACKUP_DIR: backupDir }))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(backedUp.map((r) => r.database)).toEqual(['approvals', 'temporal', 'temporal_visibility']);
      for (const r of backedUp) expect(r.rows).toBeGreaterThan(0);
      // The instances above have ended: their rows are in the archive.
      expect(before.approvals.instances_archive).not.toMatch(/^0:/);
      expect(before.approvals.trail).not.toMatch(/^0:/);
      expect(before.temporal.history_node).not.toMatch(/^0:/);

      step('backed up');
      // A restore of Temporal's rows where its schema is missing is refused, and changes nothing.
      // (In process: the same function `npm run restore` calls; the runbook blocks below run the command.)
      const restoreInto = (db: string) =>
        restore(`${backupDir}/temporal.backup.gz`, urlOf(db)).then(
          () => 'restored',
          (err: Error) => err.message,
        );
      expect(await restoreInto('temporal_absent')).toMatch(/database temporal_absent does not exist: create it/);
      const admin = new Client({ connectionString: urlOf('postgres') });
      await admin.connect();
      try {
        expect((await admin.query(`select 1 from pg_database where datname = 'temporal_absent'`)).rows).toEqual([]);
        await admin.query('create database temporal_empty');
      } finally {
        await admin.end();
      }
      expect(await restoreInto('temporal_empty')).toMatch(
        /the target database lacks table public\.\w+.*create its schema first/,
      );
      const empty = new Client({ connectionString: urlOf('temporal_empty') });
      await empty.connect();
      try {
        expect(
          (await empty.query(`select count(*)::int as n from pg_tables where schemaname = 'public'`)).rows[0].n,
        ).toBe(0);
      } finally {
        await empty.end();
      }

      step('refusals');
      const SUFFIX = '_restored';
      await runbook('restore-temporal-schemas', {
        SUFFIX,
        SQL_PLUGIN: 'postgres12',
        SQL_HOST: server.hostname,
        SQL_PORT: server.port,
        SQL_USER: decodeURIComponent(server.username),
        SQL_PASSWORD: decodeURIComponent(server.password),
      });
      step('schemas');
      const restored = (await runbook('restore', { BACKUP_DIR: backupDir, SUFFIX }))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(restored.map((r) => [r.database, r.rows])).toEqual(backedUp.map((r) => [r.database, r.rows]));
      for (const [db, tables] of Object.entries(compare))
        expect({ db, ...(await hashes(`${db}${SUFFIX}`, tables)) }).toEqual({ db, ...before[db] });
    } finally {
      await rm(backupDir, { recursive: true, force: true });
    }
    timings.backupRestoreSeconds = (Date.now() - started) / 1000;
  }, 900_000); // eight `npm run` start-ups and six temporal-sql-tool runs: minutes on a loaded machine

  // Last: it kills and restarts every part (test/production/fault-soak.ts; figures in docs/operations.md).
  it('fault soak: load on both servers while a worker, a server, Temporal and PostgreSQL die and come back, twice, and two at once; nothing lost, nothing duplicated, the read model equal to Temporal', async () => {
    const started = Date.now();
    const report = await faultSoak({
      stack,
      adminToken: tokens.admin,
      demoPassword: DEMO_PASSWORD,
      concurrency: Number(process.env.SOAK_CONCURRENCY ?? 4),
      downMs: Number(process.env.SOAK_DOWN_MS ?? 5000),
    });
    for (const line of soakLines(report)) console.log(line);
    timings.faultSoakSeconds = (Date.now() - started) / 1000;
    expect(report.windows.map((w) => w.name)).toEqual([
      'worker 0',
      'server 0',
      'temporal',
      'postgres',
      'worker 1',
      'server 1',
      'temporal',
      'postgres',
      'temporal + server 0',
    ]);
    expect(report.acknowledged.starts).toBeGreaterThanOrEqual(20);
    expect(report.failedWrites).toBe(0);
    expect(report.audit).toMatchObject({
      lost: 0,
      duplicated: 0,
      readModelMismatches: 0,
      notCompleted: 0,
      stuck: 0,
      openIntents: 0,
      problems: [],
    });
    // 5xx only once something is down; a lone worker's or server's death costs none.
    expect(report.http5xxBeforeFaults).toBe(0);
    for (const w of report.windows.filter((x) => /^(worker|server) \d$/.test(x.name)))
      expect(w.http5xx + w.http5xxAfter, w.name).toBe(0);
  }, 900_000);
});
