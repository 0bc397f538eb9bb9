// `npm run bench` (docs/performance.md): one invocation on a throwaway embedded stack.
//  1. The same workload on the service (over HTTP, real auth) and on a bare-Temporal baseline
//     (bench/baseline: a minimal workflow with the same three Updates, its own worker process,
//     the same Temporal server), one after the other: a 3-step sequential approval — start,
//     then three approvers each find their task and approve. Latencies, instances/s, CPU ms
//     per instance per process (from /proc), history events per instance, and ratio lines.
//  2. The read model at scale: seeds archived and runtime tasks with SQL and times the lists
//     for a typical user and a monitor.
//  3. Delivery (bench/delivery.ts): BENCH_DELIVERY (10,000) task messages through the outbox, the
//     dispatcher and the e-mail channel to an SMTP server in this process — messages per second, p99
//     from the notification row to the message accepted, duplicates by Message-ID. BENCH_DELIVERY=0
//     skips it; BENCH_ONLY=delivery runs it alone.
//  5. Attachments (bench/attachments.ts): files of 5 and 20 MB up and down over HTTP, MB/s and the
//     server's peak resident memory above its level (it must not grow with the file's size).
//     BENCH_ATTACHMENTS=0 skips it; BENCH_ONLY=attachments runs it alone.
//  Also: instance views of the largest allowed definition (500 nodes).
// BENCH_N, BENCH_CONCURRENCY size part 1 (defaults 200 and 8); BENCH_SCALE=0 skips part 2;
// BENCH_ONLY=scale runs part 2 only; BENCH_HOLD=<s> pauses after seeding (database URL printed).
// BENCH_PROFILE=1 adds --cpu-prof to the workers and the HTTP server, and pg_stat_statements; BENCH_OPEN (default 300) instances
// are left open to read the worker's memory per 1,000 open instances. BENCH_TOPOLOGY=production runs the
// same on scripts/production-stack.ts (a real Temporal server on PostgreSQL, the dist/ build with
// docker-compose.yml's settings); BENCH_TOPOLOGY=both runs both, one after the other, and prints them
// side by side. BENCH_BARE_UNTIMED=1 runs the bare worker (bare and the API floor) without the SDK's
// per-call vm timeout, BENCH_BARE_UNTRACED=1 without its stack tracking, BENCH_BARE_MAIN_THREAD=1
// (with UNTRACED) with workflow code on its main thread, as the service's worker runs
// (src/main/workflow-worker.ts). BENCH_FLOWABLE=1 adds, to every round of part 1, the same workload on
// Flowable 7's REST API (bench/flowable.ts: a Spring Boot app under bench/flowable/, built with Maven,
// on a database of its own in the stack's PostgreSQL) and the ratio lines service/flowable.
// Nothing is asserted.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import proto from '@temporalio/proto';
import { SignJWT } from 'jose';
import { startProductionStack } from '../scripts/production-stack.js';
import { freePort, startStack, type Stack } from '../scripts/stack.js';
import { createOrm } from '../src/db/orm.js';
import * as bare from './baseline/workflows.js';
import { loadRatios, median, type LoadFigures, type Stats } from './median.js';
import { cpuByThreadName, cpuOfTrees, diffCpu, loadAverage, residentMb, stopChild } from './proc.js';
import {
  ensurePgStatStatements,
  genericPlans,
  resetPgStatStatements,
  summarizeCpuProfile,
  topStatements,
  type ProfileSummary,
  type StatementRow,
} from './profile.js';
import { chainPhase } from './chains.js';
import { attachmentPhase } from './attachments.js';
import { deliveryPhase } from './delivery.js';
import { sample, seedScale } from './scale.js';
import {
  againstFlowable,
  buildFlowableApp,
  checkApprovers,
  FLOWABLE_TARGETS,
  flowablePhase,
  startFlowable,
  type FlowableApp,
  type FlowableResult,
} from './flowable.js';
import { userChain } from '../test/helpers/dsl.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const N = env('BENCH_N', env('BENCH_INSTANCES', 200));
const CONCURRENCY = env('BENCH_CONCURRENCY', 8);
const WARMUP = env('BENCH_WARMUP', 24);
const HISTORY_SAMPLE = env('BENCH_HISTORY_SAMPLE', 20);
const SCALE =
  process.env.BENCH_SCALE !== '0' &&
  process.env.BENCH_ONLY !== 'delivery' &&
  process.env.BENCH_ONLY !== 'chains' &&
  process.env.BENCH_ONLY !== 'attachments';
const SCALE_SIZE = {
  archivedTasks: env('BENCH_ARCHIVED_TASKS', 1_000_000),
  runtimeTasks: env('BENCH_RUNTIME_TASKS', 100_000),
  users: env('BENCH_USERS', 10_000),
};
const LIST_CALLS = env('BENCH_LIST_CALLS', 200);
const DETAIL_CALLS = env('BENCH_DETAIL_CALLS', 50);
const OPEN_INSTANCES = env('BENCH_OPEN', 300);
const PROFILE = process.env.BENCH_PROFILE === '1';
/** BENCH_BARE_RECORD=0 skips phase 1c (bare Temporal plus one no-op activity per recorded state). */
const BARE_RECORD = process.env.BENCH_BARE_RECORD !== '0';
/**
 * BENCH_BARE_INTENT=0 skips phase 1d: bare Temporal plus exactly engine version 4's mechanism —
 * a write-ahead intent inserted before each Update, and after its answer one statement that
 * writes a state row and deletes the intent (the caller's write, no activity).
 */
const BARE_INTENT = process.env.BENCH_BARE_INTENT !== '0';
/**
 * BENCH_BARE_LOOKUP=1 adds phase 1e: bare Temporal plus one no-op local activity in each approve
 * that opens the next step — what the service's next node spends on looking its approvers up.
 */
const BARE_LOOKUP = process.env.BENCH_BARE_LOOKUP === '1';
/**
 * BENCH_BARE_API=0 skips phase 1f: bare Temporal behind the least HTTP API with the service's
 * guarantees (bench/baseline/api-server.ts: verified JWTs, write-ahead intents, the answered
 * state written before the answer, the to-do list from PostgreSQL) — the floor of any service of
 * this shape on this stack; the service against it is the part that is ours.
 */
const BARE_API = process.env.BENCH_BARE_API !== '0';
/**
 * BENCH_BARE_API_PARTS=1 adds phase 1f's parts, each on top of the one before: the service's
 * operator metadata (search attributes, memo, summary, status upsert), then its payload sizes,
 * then its approver look-up per step (bench/baseline/api-server.ts) — what of the Temporal
 * server's and the worker's cost the service's workflow carries by what it records.
 */
const BARE_API_PARTS = process.env.BENCH_BARE_API_PARTS === '1';
/**
 * BENCH_RUNS (3): rounds of part 1, each running every phase in turn on the same stack. The ratio
 * lines are the medians of the rounds' ratios (each round's in brackets); the table shows the
 * round whose service/bare CPU ratio is the median.
 */
const RUNS = env('BENCH_RUNS', 3);
/**
 * BENCH_EQUAL_RATE: after the rounds at concurrency 8, the service and bare Temporal again, BENCH_RUNS
 * rounds, with instances arriving at one rate for both (an open loop): the latencies at equal load.
 * Unset: three quarters of the lower of the two median throughputs at concurrency 8; a number: that
 * many instances/s; 0 skips it. At a fixed concurrency an instance's time is fixed by the
 * throughput, so there the start's and the approve's share of it also depends on how long the other
 * requests (the to-do lists) take; at equal arrivals it does not (docs/performance.md).
 */
const EQUAL_RATE = process.env.BENCH_EQUAL_RATE === undefined ? null : Number(process.env.BENCH_EQUAL_RATE);
if (EQUAL_RATE !== null && !(EQUAL_RATE >= 0))
  throw new Error(`BENCH_EQUAL_RATE must be a number of instances/s (0 skips), not ${process.env.BENCH_EQUAL_RATE}`);
/** The ratio lines service/bare and their targets (issue 10). */
const RATIO_TARGETS: Record<string, string> = {
  approveP50: '≤ 1.3',
  startP50: '≤ 1.3',
  throughput: '≥ 0.85',
  cpuPerInstance: '≤ 1.25',
  historyEvents: '',
};
const API_PARTS = [
  { key: 'bareApiMetadata', name: '+ operator metadata', parts: { metadata: true } },
  { key: 'bareApiPayloads', name: '+ payload sizes', parts: { metadata: true, payloads: true } },
  { key: 'bareApiLookUps', name: '+ look-up/step', parts: { metadata: true, payloads: true, lookUps: true } },
] as const;
/** Phases 1c–1e: bare Temporal plus one mechanism each; `key` is where the report keeps it. */
const BARE_VARIANTS = [
  { on: BARE_RECORD, key: 'bareRecord', name: 'bare + 1 activity/state', options: { recordEachState: true } },
  { on: BARE_INTENT, key: 'bareIntent', name: 'bare + write-ahead intent', options: { intent: true } },
  { on: BARE_LOOKUP, key: 'bareLookUp', name: 'bare + local activity/step', options: { lookUpEachStep: true } },
] as const;
/**
 * BENCH_FLOWABLE=1: every round of part 1 also runs the workload on Flowable 7 REST
 * (bench/flowable.ts), BENCH_FLOWABLE_WARMUP (20) unmeasured instances first, and the ratio lines
 * service/flowable print beside service/bare.
 */
const FLOWABLE = process.env.BENCH_FLOWABLE === '1';
const FLOWABLE_WARMUP = env('BENCH_FLOWABLE_WARMUP', 20);
/** BENCH_ONLY=scale: skip part 1 (service vs bare Temporal and the 500-node views), only the read model at scale. */
const ONLY_SCALE = process.env.BENCH_ONLY === 'scale';
/** BENCH_ONLY=delivery: only the delivery phase (part 3). */
const ONLY_DELIVERY = process.env.BENCH_ONLY === 'delivery';
/** BENCH_ONLY=chains: only the chain phase (part 4). */
const ONLY_CHAINS = process.env.BENCH_ONLY === 'chains';
/** BENCH_ONLY=attachments: only the attachment phase (part 5); BENCH_ATTACHMENTS=0 skips it. */
const ONLY_ATTACHMENTS = process.env.BENCH_ONLY === 'attachments';
const ATTACHMENTS = process.env.BENCH_ATTACHMENTS !== '0';
/**
 * Part 4, rule chains (bench/chains.ts): BENCH_CHAIN_RUNS runs a round (0 skips the part),
 * BENCH_CHAIN_FLAVOURS the chain's script nodes: `js` (QuickJS activities), `expr` (in the workflow).
 */
const CHAINS = {
  runs: env('BENCH_CHAIN_RUNS', 200),
  flavours: (process.env.BENCH_CHAIN_FLAVOURS ?? 'js,expr').split(',').filter(Boolean) as Array<'js' | 'expr'>,
};
/** Part 3, delivery: BENCH_DELIVERY task messages (0 skips it) about BENCH_DELIVERY_INSTANCES real tasks. */
const DELIVERY = {
  count: env('BENCH_DELIVERY', 10_000),
  instances: env('BENCH_DELIVERY_INSTANCES', 50),
  timeoutS: env('BENCH_DELIVERY_TIMEOUT_S', 1200),
};
/** BENCH_HOLD=<s>: after seeding, print the database URL and wait that long (to EXPLAIN by hand) before timing the lists. */
const HOLD_S = env('BENCH_HOLD', 0);
const root = path.resolve(import.meta.dirname, '..');
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const outFile = process.env.BENCH_OUT ?? path.join(root, '.data', `bench-${stamp}.json`);
const profileDir = path.join(root, '.data', `profile-${stamp}`);
const APPROVERS = ['bob', 'erin', 'carol'];
/** embedded (scripts/stack.ts, the default), production (scripts/production-stack.ts) or both. */
const TOPOLOGY = process.env.BENCH_TOPOLOGY ?? 'embedded';
if (!['embedded', 'production', 'both'].includes(TOPOLOGY))
  throw new Error(`BENCH_TOPOLOGY must be embedded, production or both, not ${TOPOLOGY}`);
if (TOPOLOGY === 'production' && PROFILE) throw new Error('BENCH_PROFILE=1 needs the embedded topology');

function stats(ms: number[]): Stats {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? NaN;
  const r = (v: number) => Math.round(v * 10) / 10;
  const mean = s.length ? s.reduce((a, v) => a + v, 0) / s.length : NaN;
  return {
    n: s.length,
    mean: r(mean),
    p50: r(q(0.5)),
    p95: r(q(0.95)),
    p99: r(q(0.99)),
    max: r(s[s.length - 1] ?? NaN),
  };
}
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

async function call(base: string, urlPath: string, token?: string, body?: unknown, method?: string) {
  const res = await fetch(`${base}${urlPath}`, {
    method: method ?? (body ? 'POST' : 'GET'),
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  if (res.status >= 300)
    throw Object.assign(new Error(`${urlPath}: ${res.status} ${JSON.stringify(json)}`), { status: res.status });
  return json.data;
}

async function timed<T>(into: number[] | null, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  into?.push(performance.now() - t0);
  return out;
}

interface Recorder {
  start: number[];
  approve: number[];
  /** The service's approves by step: the first may wait for the instance's first workflow task (a predicted start). */
  approveByStep?: number[][];
  todo: number[];
  ids: string[];
}
const recorder = (): Recorder => ({ start: [], approve: [], todo: [], ids: [] });

/** Runs `count` instances, `CONCURRENCY` at a time; answers the wall time in seconds. */
async function load(
  count: number,
  one: (i: number, rec: Recorder | null) => Promise<void>,
  rec: Recorder | null,
): Promise<number> {
  const wall0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await one(next++, rec);
    }),
  );
  return (performance.now() - wall0) / 1000;
}

/**
 * Runs `count` instances arriving at `perSecond`, evenly spaced, each on its own however many are
 * still running (an open loop); answers the wall time from the first arrival to the last instance
 * done, and the most instances running at once.
 */
async function loadAtRate(
  count: number,
  perSecond: number,
  one: (i: number, rec: Recorder | null) => Promise<void>,
  rec: Recorder | null,
): Promise<{ wallS: number; maxInFlight: number }> {
  const wall0 = performance.now();
  let running = 0;
  let maxInFlight = 0;
  const all: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = wall0 + (i * 1000) / perSecond - performance.now();
    if (due > 0) await new Promise((r) => setTimeout(r, due));
    maxInFlight = Math.max(maxInFlight, ++running);
    all.push(one(i, rec).finally(() => running--));
  }
  await Promise.all(all);
  return { wallS: (performance.now() - wall0) / 1000, maxInFlight };
}

const eventName = (t: unknown) =>
  String(proto.temporal.api.enums.v1.EventType[Number(t)] ?? t).replace(/^EVENT_TYPE_/, '');
const tsMs = (t: any) => (t ? Number(t.seconds ?? 0) * 1000 + Number(t.nanos ?? 0) / 1e6 : NaN);

function describeEvent(e: proto.temporal.api.history.v1.IHistoryEvent): string {
  const name = eventName(e.eventType);
  const marker = e.markerRecordedEventAttributes?.markerName;
  const upsert = e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields;
  const activity = e.activityTaskScheduledEventAttributes?.activityType?.name;
  const detail = marker ?? (upsert ? Object.keys(upsert).join(',') : activity);
  return detail ? `${name} ${detail}` : name;
}

/**
 * Events per instance, by type, how long workflow tasks waited for a worker (scheduled → started)
 * and how long the worker held them (started → completed), by server timestamps; the tasks that
 * accepted an Update (an approve) separately, since a request waits on exactly those; and the
 * start's part inside Temporal (execution started → its Update completed).
 */
async function histories(client: Client, workflowIds: string[]) {
  const pick = workflowIds
    .filter((_, i) => i % Math.max(1, Math.floor(workflowIds.length / HISTORY_SAMPLE)) === 0)
    .slice(0, HISTORY_SAMPLE);
  const byType: Record<string, number> = {};
  let events = 0;
  const firstWft: number[] = [];
  const firstPickup: number[] = [];
  const startAnswered: number[] = [];
  const laterWft: number[] = [];
  const pickup: number[] = [];
  const updatePickup: number[] = [];
  const updateHeld: number[] = [];
  // One instance's events in order (markers by name, upserts by key), kept in the JSON: where the events go.
  let example: string[] = [];
  for (const id of pick) {
    const history = await client.workflow.getHandle(id).fetchHistory();
    const list = history.events ?? [];
    events += list.length;
    if (!example.length) example = list.map(describeEvent);
    const started = new Map<number, number>();
    const scheduled = new Map<number, number>();
    const waited = new Map<number, number>();
    let last: { waited?: number; held: number } | null = null;
    let first = true;
    let startedAt: number | null = null;
    for (const e of list) {
      const name = eventName(e.eventType);
      if (name === 'WORKFLOW_EXECUTION_STARTED') startedAt = tsMs(e.eventTime);
      if (name === 'WORKFLOW_EXECUTION_UPDATE_COMPLETED' && startedAt !== null) {
        startAnswered.push(tsMs(e.eventTime) - startedAt);
        startedAt = null;
      }
      byType[name] = (byType[name] ?? 0) + 1;
      if (name === 'WORKFLOW_TASK_SCHEDULED') scheduled.set(Number(e.eventId), tsMs(e.eventTime));
      if (name === 'WORKFLOW_TASK_STARTED') {
        started.set(Number(e.eventId), tsMs(e.eventTime));
        const at = scheduled.get(Number(e.workflowTaskStartedEventAttributes?.scheduledEventId));
        if (at !== undefined) waited.set(Number(e.eventId), tsMs(e.eventTime) - at);
      }
      if (name === 'WORKFLOW_TASK_COMPLETED') {
        const startedId = Number(e.workflowTaskCompletedEventAttributes?.startedEventId);
        const from = started.get(startedId);
        if (from !== undefined) (first ? firstWft : laterWft).push(tsMs(e.eventTime) - from);
        if (!first && waited.has(startedId)) pickup.push(waited.get(startedId)!);
        if (first && waited.has(startedId)) firstPickup.push(waited.get(startedId)!);
        last = from === undefined ? null : { waited: waited.get(startedId), held: tsMs(e.eventTime) - from };
        first = false;
      }
      // The Update's acceptance follows the completion of the task that ran its handler.
      if (name === 'WORKFLOW_EXECUTION_UPDATE_ACCEPTED' && last) {
        if (last.waited !== undefined) updatePickup.push(last.waited);
        updateHeld.push(last.held);
        last = null;
      }
    }
  }
  const per = (v: number) => Math.round((v / Math.max(1, pick.length)) * 10) / 10;
  return {
    sampled: pick.length,
    eventsPerInstance: per(events),
    byType: Object.fromEntries(
      Object.entries(byType)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => [k, per(v)]),
    ),
    example,
    firstWorkflowTaskMs: stats(firstWft),
    firstWorkflowTaskPickupMs: stats(firstPickup),
    startToFirstAnswerMs: stats(startAnswered),
    laterWorkflowTaskMs: stats(laterWft),
    laterWorkflowTaskPickupMs: stats(pickup),
    updateWorkflowTaskPickupMs: stats(updatePickup),
    updateWorkflowTaskHeldMs: stats(updateHeld),
    updateWorkflowTaskPickupHistogram: histogram(updatePickup),
  };
}

/** Bucket edges (ms) of the pickup histogram: how long an approve's workflow task waited for a worker. */
const PICKUP_BUCKETS = [2, 5, 10, 20, 50, 100, 200];
/** Share of samples per bucket, "≤2 ms 61% | ≤5 ms 20% | … | >200 ms 1%". */
function histogram(ms: number[]): string {
  if (!ms.length) return '—';
  const counts = new Array<number>(PICKUP_BUCKETS.length + 1).fill(0);
  for (const v of ms) {
    const i = PICKUP_BUCKETS.findIndex((edge) => v <= edge);
    counts[i === -1 ? PICKUP_BUCKETS.length : i]++;
  }
  const label = (i: number) => (i < PICKUP_BUCKETS.length ? `≤${PICKUP_BUCKETS[i]}` : `>${PICKUP_BUCKETS.at(-1)}`);
  return counts.map((c, i) => `${label(i)} ${Math.round((c / ms.length) * 100)}%`).join(' | ');
}

interface PhaseResult extends LoadFigures {
  /** The service phase's approve latencies by step (first, second, third). */
  approveByStep?: Stats[];
  cpuMsPerInstance: Record<string, number | null>;
  /** The worker's CPU ms per instance by thread name (cpuByThreadName), largest first. */
  workerCpuMsPerInstanceByThread: Record<string, number> | null;
  history: Awaited<ReturnType<typeof histories>>;
  windowUs: [number, number];
  loadAverageAfter: string;
  /** Open loop (equal arrival rate): the rate instances arrived at, and the most running at once. */
  arrivals?: { perSecond: number; maxInFlight: number };
}

async function phase(
  name: string,
  pids: () => Record<'worker' | 'temporal' | 'server' | 'postgres', number | null>,
  one: (i: number, rec: Recorder | null) => Promise<void>,
  workflowIdOf: (id: string) => string,
  client: Client,
  perSecond?: number,
): Promise<PhaseResult> {
  process.stdout.write(`${name}: warm-up (${WARMUP})… `);
  await load(WARMUP, one, null);
  process.stdout.write(
    perSecond ? `measuring ${N} arriving at ${perSecond}/s… ` : `measuring ${N} at concurrency ${CONCURRENCY}… `,
  );
  const rec = recorder();
  const cpu0 = cpuOfTrees(pids());
  const threads0 = cpuByThreadName(pids().worker);
  const client0 = process.cpuUsage();
  const from = nowUs();
  const open = perSecond ? await loadAtRate(N, perSecond, one, rec) : null;
  const wallS = open ? open.wallS : await load(N, one, rec);
  const to = nowUs();
  const clientCpu = process.cpuUsage(client0);
  const cpu = diffCpu(cpuOfTrees(pids()), cpu0);
  const threads1 = cpuByThreadName(pids().worker);
  console.log(`${wallS.toFixed(1)} s`);
  const perInstance = Object.fromEntries(
    Object.entries(cpu).map(([k, v]) => [k, v === null ? null : Math.round((v / N) * 10) / 10]),
  );
  return {
    instances: N,
    wallS: Math.round(wallS * 100) / 100,
    perSecond: Math.round((N / wallS) * 100) / 100,
    start: stats(rec.start),
    approve: stats(rec.approve),
    ...(rec.approveByStep?.length ? { approveByStep: rec.approveByStep.map((l) => stats(l)) } : {}),
    todo: stats(rec.todo),
    cpuMsPerInstance: perInstance,
    cpuMsPerInstanceTotal: Math.round(Object.values(perInstance).reduce<number>((a, v) => a + (v ?? 0), 0) * 10) / 10,
    workerCpuMsPerInstanceByThread:
      threads0 && threads1
        ? Object.fromEntries(
            Object.entries(threads1)
              .map(([k, v]) => [k, Math.round(((v - (threads0[k] ?? 0)) / N) * 10) / 10] as const)
              .filter(([, v]) => v > 0)
              .sort((a, b) => b[1] - a[1]),
          )
        : null,
    loadClientCpuMsPerInstance: Math.round(((clientCpu.user + clientCpu.system) / 1000 / N) * 10) / 10,
    history: await histories(client, rec.ids.map(workflowIdOf)),
    windowUs: [from, to],
    loadAverageAfter: loadAverage(),
    ...(open && perSecond ? { arrivals: { perSecond, maxInFlight: open.maxInFlight } } : {}),
  };
}

function startBaselineWorker(temporalAddress: string, namespace: string, taskQueue: string): Promise<ChildProcess> {
  const nodeArgs = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.join(profileDir, 'baseline-worker')] : [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', './scripts/tsx-main-thread.mjs', path.join(root, 'bench', 'baseline', 'worker.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: temporalAddress,
        TEMPORAL_NAMESPACE: namespace,
        BASELINE_TASK_QUEUE: taskQueue,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the baseline worker exited with ${code}`)));
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('baseline worker ready')) resolve(child);
    });
  });
}

/** Each ratio's median over the rounds. */
function medianRatios(list: Array<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.keys(list[0] ?? {}).map((k) => [k, median(list.map((x) => x[k]!))]));
}

/** The ratio lines of one phase against another. */
function againstPhase(base: PhaseResult, of: PhaseResult): Record<string, number> {
  return {
    ...loadRatios(base, of),
    historyEvents: Math.round((of.history.eventsPerInstance / base.history.eventsPerInstance) * 100) / 100,
  };
}

/** Each ratio named in `keys`: its median over the rounds, its target and every round's value. */
function targetRatios(rounds: Array<Record<string, number>>, keys: string[]) {
  return Object.fromEntries(
    keys.map((k) => {
      const values = rounds.map((x) => x[k]!);
      return [k, { value: median(values), target: RATIO_TARGETS[k]!, runs: values }];
    }),
  );
}

/** The ratio lines service/bare, each against its target: the median, and each round's in brackets. */
function ratioLines(
  ratios: Record<string, { value: number; target: string; runs?: number[] }>,
  label = '',
  pair = 'service/bare',
) {
  for (const [k, r] of Object.entries(ratios)) {
    const met = r.target
      ? r.target.startsWith('≤')
        ? r.value <= Number(r.target.slice(2))
        : r.value >= Number(r.target.slice(2))
      : null;
    const rounds = r.runs && r.runs.length > 1 ? ` [${r.runs.map((v) => v.toFixed(2)).join(', ')}]` : '';
    console.log(
      `ratio ${k.padEnd(15)} ${pair}${label} = ${r.value.toFixed(2)}${rounds}${r.target ? `   target ${r.target}: ${met ? 'met' : 'NOT met'}` : ''}`,
    );
  }
}

/** Phase 1f's server (bench/baseline/api-server.ts) as a child process, once it listens. */
function startBaselineApi(env: Record<string, string>): Promise<{ child: ChildProcess; base: string }> {
  const nodeArgs = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.join(profileDir, 'baseline-api')] : [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', path.join(root, 'bench', 'baseline', 'api-server.ts')],
    {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the baseline API server exited with ${code}`)));
    child.stdout!.on('data', (d: Buffer) => {
      const port = /baseline api listening (\d+)/.exec(d.toString())?.[1];
      if (port) resolve({ child, base: `http://127.0.0.1:${port}` });
    });
  });
}

/** A chain of three userTasks with fixed user approvers. */
const chain3 = {
  ruleChain: { id: 'bench_chain3', name: 'Bench: 3-step sequential approval' },
  metadata: {
    firstNodeIndex: 0,
    nodes: [
      { id: 'start', type: 'startTask', name: 'Start' },
      ...APPROVERS.map((u, i) => ({
        id: `t${i + 1}`,
        type: 'userTask',
        name: `Step ${i + 1}`,
        configuration: { approver: { type: 'user', userIds: [u] } },
      })),
      { id: 'end', type: 'end', name: 'End' },
    ],
    connections: ['start', 't1', 't2', 't3', 'end']
      .slice(0, -1)
      .map((from, i) => ({ fromId: from, toId: ['t1', 't2', 't3', 'end'][i], type: 'Success' })),
  },
};

/**
 * BENCH_TOPOLOGY=both: the whole bench once per topology, each in its own process (one stack at a
 * time on the machine), then the headline figures side by side. Exits.
 */
async function bothTopologies(): Promise<never> {
  const reports: Record<string, Record<string, any>> = {};
  for (const topology of ['embedded', 'production']) {
    const out = outFile.replace(/\.json$/, `-${topology}.json`);
    console.log(`\n==== BENCH_TOPOLOGY=${topology} ====`);
    const code = await new Promise<number | null>((resolve) =>
      spawn(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'run.ts')], {
        cwd: root,
        env: { ...process.env, BENCH_TOPOLOGY: topology, BENCH_OUT: out },
        stdio: 'inherit',
      }).once('exit', resolve),
    );
    if (code !== 0) throw new Error(`the ${topology} bench exited with ${code}`);
    reports[topology] = JSON.parse(readFileSync(out, 'utf8'));
  }
  const e = reports.embedded;
  const p = reports.production;
  const lat = (s?: Stats) => (s ? `${Math.round(s.p50)} / ${Math.round(s.p99)}` : '—');
  const rows: Array<[string, (r: Record<string, any>) => string]> = [
    ['service start p50 / p99 (ms)', (r) => lat(r.service?.start)],
    ['service approve p50 / p99 (ms)', (r) => lat(r.service?.approve)],
    ['service to-do p50 / p99 (ms)', (r) => lat(r.service?.todo)],
    ['service instances/s', (r) => String(r.service?.perSecond ?? '—')],
    ['service CPU ms/instance (total)', (r) => String(r.service?.cpuMsPerInstanceTotal ?? '—')],
    ['bare start p50 / p99 (ms)', (r) => lat(r.bare?.start)],
    ['bare approve p50 / p99 (ms)', (r) => lat(r.bare?.approve)],
    ['bare instances/s', (r) => String(r.bare?.perSecond ?? '—')],
    ['bare CPU ms/instance (total)', (r) => String(r.bare?.cpuMsPerInstanceTotal ?? '—')],
    ...['approveP50', 'startP50', 'throughput', 'cpuPerInstance'].map(
      (k) =>
        [`ratio ${k} (service/bare)`, (r: Record<string, any>) => String(r.ratios?.[k]?.value ?? '—')] as [
          string,
          (r: Record<string, any>) => string,
        ],
    ),
    // BENCH_FLOWABLE=1: the service against Flowable 7 REST on the same stack.
    ...['startP50', 'approveP50', 'throughput', 'cpuPerInstance'].map(
      (k) =>
        [`ratio ${k} (service/flowable)`, (r: Record<string, any>) => String(r.flowableRatios?.[k]?.value ?? '—')] as [
          string,
          (r: Record<string, any>) => string,
        ],
    ),
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  console.log(`\nboth topologies (embedded: dev server; production: Temporal server on PostgreSQL, dist/ build)`);
  console.log(`${'metric'.padEnd(w)}  ${'embedded'.padEnd(14)}  production`);
  for (const [name, get] of rows) console.log(`${name.padEnd(w)}  ${get(e).padEnd(14)}  ${get(p)}`);
  mkdirSync(path.dirname(outFile), { recursive: true });
  writeFileSync(outFile, JSON.stringify({ embedded: e, production: p }, null, 2));
  console.log(`\nfigures: ${path.relative(process.cwd(), outFile)}`);
  process.exit(0);
}

// ------------------------------------------------------------------------------------------
const loadBefore = loadAverage();
console.log(
  `bench (${TOPOLOGY} topology): ${os.cpus().length} CPUs, load average ${loadBefore}; N=${N}, concurrency ${CONCURRENCY}, warm-up ${WARMUP}${PROFILE ? ', profiling' : ''}`,
);
if (TOPOLOGY === 'both') await bothTopologies(); // exits
// The Flowable app is built (once per content of bench/flowable/) before the stack starts.
const FLOWABLE_RUNS = FLOWABLE && !ONLY_SCALE && !ONLY_DELIVERY && !ONLY_CHAINS && !ONLY_ATTACHMENTS;
const flowableBuild = FLOWABLE_RUNS ? buildFlowableApp() : null;
if (flowableBuild && !flowableBuild.built)
  console.log(`flowable: ${path.relative(root, flowableBuild.jar)} (built before from the same sources)`);
if (FLOWABLE_RUNS) checkApprovers(APPROVERS);
const t0 = performance.now();
const DEMO_PASSWORD = 'bench-demo-pass';
const stack: Stack & { adminPassword: string; demoPassword: string; baseUrls: string[]; namespace: string } =
  TOPOLOGY === 'production'
    ? await startProductionStack({
        name: 'bench-production',
        logLevel: 'error',
        // dist/ is what runs: build it unless told it is current (BENCH_BUILD=0).
        build: process.env.BENCH_BUILD !== '0',
        // One server and one worker by default, so the per-process CPU rows count every process.
        servers: env('BENCH_SERVERS', 1),
        workers: env('BENCH_WORKERS', 1),
        vars: { SEED_DEMO: 'true', DEMO_PASSWORD },
        env: { LOGIN_RATE_LIMIT: '1000', HTTP_CALL_ALLOW_PRIVATE_HOSTS: 'localhost' },
      })
    : await startStack({
        name: 'bench',
        logLevel: 'error',
        env: { LOGIN_RATE_LIMIT: '1000', HTTP_CALL_ALLOW_PRIVATE_HOSTS: 'localhost' },
        ...(PROFILE
          ? {
              workerNodeArgs: ['--cpu-prof', '--cpu-prof-dir', path.join(profileDir, 'service-worker')],
              serverNodeArgs: ['--cpu-prof', '--cpu-prof-dir', path.join(profileDir, 'service-server')],
              // pg_stat_statements for the top statements (plans: EXPLAIN (GENERIC_PLAN) of the slowest, below).
              pgSettings: {
                shared_preload_libraries: 'pg_stat_statements',
                'pg_stat_statements.track_planning': 'on',
                'pg_stat_statements.track': 'all',
              },
            }
          : {}),
      }).then((embedded) => ({
        ...embedded,
        adminPassword: 'admin',
        demoPassword: 'demo',
        baseUrls: [embedded.baseUrl],
        namespace: 'default',
      }));
const startupMs = performance.now() - t0;
const orm = await createOrm(stack.databaseUrl, { poolMax: 2 });
const connection = await Connection.connect({ address: stack.temporalAddress });
const client = new Client({ connection, namespace: stack.namespace });
let baselineWorker: ChildProcess | undefined;
let flowableApp: FlowableApp | undefined;
const flowableRuns: FlowableResult[] = [];
const report: Record<string, any> = {
  when: new Date().toISOString(),
  machine: { cpus: os.cpus().length, loadAverageBefore: loadBefore, node: process.version },
  topology: TOPOLOGY,
  config: { N, CONCURRENCY, WARMUP, RUNS, scale: SCALE ? SCALE_SIZE : null, profile: PROFILE, delivery: DELIVERY },
  stackStartupMs: Math.round(startupMs),
};
const statements: Record<string, StatementRow[]> = {};
const pgStat = PROFILE && (await ensurePgStatStatements(orm));
try {
  const base = stack.baseUrl;
  const login = async (u: string) =>
    (
      await call(base, '/api/v1/auth/login', undefined, {
        username: u,
        password: u === 'admin' ? stack.adminPassword : stack.demoPassword,
        tenantId: 'demo',
      })
    ).accessToken as string;
  const tokens = Object.fromEntries(
    await Promise.all(['admin', 'alice', ...APPROVERS].map(async (u) => [u, await login(u)] as const)),
  );
  const deployed = await call(base, '/api/v1/workflow/process-definitions/deploy', tokens.admin, { dsl: chain3 });
  const run = `${Date.now().toString(36)}`;

  if (!ONLY_SCALE && !ONLY_DELIVERY && !ONLY_CHAINS && !ONLY_ATTACHMENTS) {
    // ---- 1a. the service over HTTP ----
    // With several HTTP servers (production topology) each instance starts on one and its
    // approvals go round the others, as behind a load balancer.
    const serverOf = (i: number, step: number) => stack.baseUrls[(i + step) % stack.baseUrls.length];
    const serviceOne = (r: number) => async (i: number, rec: Recorder | null) => {
      const started = await timed(rec?.start ?? null, () =>
        call(serverOf(i, 0), '/api/v1/workflow/process-instances/start', tokens.alice, {
          processKey: 'bench_chain3',
          businessKey: `${run}-${r}-${rec ? 'm' : 'w'}-${i}`,
          variables: {},
        }),
      );
      rec?.ids.push(started.instanceId);
      for (const [step, user] of APPROVERS.entries()) {
        const todo = await timed(rec?.todo ?? null, () =>
          call(serverOf(i, step + 1), '/api/v1/workflow/process-instances/todo?pageSize=50', tokens[user]),
        );
        const task = todo.items.find((t: any) => t.instanceId === started.instanceId);
        if (!task) throw new Error(`${user} has no task of ${started.instanceId}`);
        const t0 = performance.now();
        await timed(rec?.approve ?? null, () =>
          call(serverOf(i, step + 1), `/api/v1/workflow/tasks/${task.id}/approve`, tokens[user], {}),
        );
        if (rec) ((rec.approveByStep ??= [])[step] ??= []).push(performance.now() - t0);
      }
    };
    const servicePids = () => ({ ...stack.pids() });

    // ---- 1b. the bare-Temporal baseline, same server, its own worker ----
    // 1c. the same with one no-op activity per recorded state: the floor of a durable projection.
    const bareQueue = `bench-bare-${process.pid}`;
    baselineWorker = await startBaselineWorker(stack.temporalAddress, stack.namespace, bareQueue);
    // 1d's write-ahead intent: the service's projection_intents table, and a state row per instance.
    const intentDb = orm.em.fork();
    if (BARE_INTENT)
      await intentDb.execute(`create table if not exists bench_bare_state (id text primary key, step int not null)`);
    const withIntent = async <T extends bare.BareState>(
      intent: boolean,
      workflowId: string,
      updateId: string,
      send: () => Promise<T>,
    ): Promise<T> => {
      if (!intent) return send();
      const em = orm.em.fork();
      await em.execute(
        `insert into projection_intents (update_id, tenant_id, instance_id) values (?, 'bench', ?) on conflict do nothing`,
        [updateId, workflowId],
      );
      const state = await send();
      await em.execute(
        `with w as (insert into bench_bare_state (id, step) values (?, ?) on conflict (id) do update set step = excluded.step),
           d as (delete from projection_intents where update_id = ?)
         select 1`,
        [workflowId, state.step, updateId],
      );
      return state;
    };
    const bareOne =
      ({ recordEachState = false, intent = false, lookUpEachStep = false } = {}, r = 0) =>
      async (i: number, rec: Recorder | null) => {
        const workflowId = `bare${recordEachState ? 'rec' : ''}${intent ? 'wi' : ''}${lookUpEachStep ? 'la' : ''}-${run}-${r}-${rec ? 'm' : 'w'}-${i}`;
        await timed(rec?.start ?? null, () =>
          withIntent(intent, workflowId, `start-${workflowId}`, () =>
            client.workflow.executeUpdateWithStart(bare.sync, {
              startWorkflowOperation: new WithStartWorkflowOperation(bare.bareApproval, {
                workflowId,
                taskQueue: bareQueue,
                args: [{ approvers: APPROVERS, recordEachState, lookUpEachStep }],
                workflowIdConflictPolicy: 'USE_EXISTING',
              }),
              updateId: `start-${workflowId}`,
            }),
          ),
        );
        rec?.ids.push(workflowId);
        const handle = client.workflow.getHandle(workflowId);
        for (const user of APPROVERS) {
          const state = await timed(rec?.todo ?? null, () => handle.query(bare.current));
          if (state.assignee !== user)
            throw new Error(`${workflowId}: expected ${user}'s turn, found ${state.assignee}`);
          const updateId = randomUUID();
          await timed(rec?.approve ?? null, () =>
            withIntent(intent, workflowId, updateId, () =>
              handle.executeUpdate(bare.approve, { args: [{ taskId: state.taskId!, userId: user }], updateId }),
            ),
          );
        }
      };
    const barePids = () => ({ ...stack.pids(), worker: baselineWorker!.pid! });

    // 1f. the same workflow behind the least API with the service's guarantees, over HTTP.
    const secret = randomUUID();
    const apiServer = BARE_API
      ? await startBaselineApi({
          TEMPORAL_ADDRESS: stack.temporalAddress,
          TEMPORAL_NAMESPACE: stack.namespace,
          BASELINE_TASK_QUEUE: bareQueue,
          DATABASE_URL: stack.databaseUrl,
          BENCH_API_SECRET: secret,
          BENCH_API_APPROVERS: APPROVERS.join(','),
        })
      : null;
    try {
      const key = new TextEncoder().encode(secret);
      const apiTokens = Object.fromEntries(
        await Promise.all(
          ['alice', ...APPROVERS].map(
            async (u) =>
              [
                u,
                await new SignJWT({})
                  .setProtectedHeader({ alg: 'HS256' })
                  .setSubject(u)
                  .setExpirationTime('2h')
                  .sign(key),
              ] as const,
          ),
        ),
      );
      const apiOne =
        (parts: object = {}, tag = '', r = 0) =>
        async (i: number, rec: Recorder | null) => {
          const base = apiServer!.base;
          const id = `bareapi${tag}-${run}-${r}-${rec ? 'm' : 'w'}-${i}`;
          await timed(rec?.start ?? null, () => call(base, '/start', apiTokens.alice, { id, ...parts }));
          rec?.ids.push(id);
          for (const user of APPROVERS) {
            const todo = await timed(rec?.todo ?? null, () => call(base, '/todo', apiTokens[user]));
            const task = todo.items.find((t: { instanceId: string }) => t.instanceId === id);
            if (!task) throw new Error(`${user} has no task of ${id}`);
            await timed(rec?.approve ?? null, () =>
              call(base, `/instances/${id}/approve`, apiTokens[user], { taskId: task.taskId }),
            );
          }
        };
      const apiPids = () => ({ ...stack.pids(), worker: baselineWorker!.pid!, server: apiServer!.child.pid! });

      // Flowable 7 REST on a database of its own in the stack's PostgreSQL server (over TCP: the JDBC driver has no Unix sockets).
      if (flowableBuild) {
        const pg = new URL(stack.databaseUrl);
        const em = orm.em.fork();
        if (!(await em.execute(`select 1 from pg_database where datname = 'flowable_bench'`)).length)
          await em.execute('create database flowable_bench');
        process.stdout.write('flowable: starting the app… ');
        flowableApp = await startFlowable({
          jar: flowableBuild.jar,
          port: await freePort(),
          jdbcUrl: `jdbc:postgresql://${pg.hostname}:${pg.port}/flowable_bench`,
          user: decodeURIComponent(pg.username),
          password: decodeURIComponent(pg.password),
        }).catch((err) => {
          console.error(`\nflowable: failed: ${(err as Error).message}`);
          report.flowableError = (err as Error).message;
          return undefined;
        });
        if (flowableApp) console.log(`ready in ${flowableApp.startupSeconds.toFixed(0)} s`);
        report.flowableApp = {
          jar: path.relative(root, flowableBuild.jar),
          builtNow: flowableBuild.built,
          buildSeconds: Math.round(flowableBuild.seconds),
          startupSeconds: flowableApp ? Math.round(flowableApp.startupSeconds) : null,
          database: 'flowable_bench in the stack’s PostgreSQL server',
        };
      }

      // BENCH_RUNS rounds, each running every phase in turn: the machine's drift reaches them alike.
      const runs: Array<Record<string, PhaseResult>> = [];
      for (let r = 0; r < RUNS; r++) {
        const of = RUNS > 1 ? ` (round ${r + 1} of ${RUNS})` : '';
        const one: Record<string, PhaseResult> = {};
        if (pgStat && r === 0) await resetPgStatStatements(orm);
        one.service = await phase(`service${of}`, servicePids, serviceOne(r), (id) => `approval-demo-${id}`, client);
        if (pgStat && r === 0) statements.serviceWorkload = await topStatements(orm, 25);
        one.bare = await phase(`bare Temporal${of}`, barePids, bareOne({}, r), (id) => id, client);
        for (const v of BARE_VARIANTS)
          if (v.on) one[v.key] = await phase(`${v.name}${of}`, barePids, bareOne(v.options, r), (id) => id, client);
        if (apiServer) {
          one.bareApi = await phase(`bare + HTTP API${of}`, apiPids, apiOne({}, '', r), (id) => id, client);
          if (BARE_API_PARTS)
            for (const [n, p] of API_PARTS.entries())
              one[p.key] = await phase(
                `bare + HTTP API ${p.name}${of}`,
                apiPids,
                apiOne(p.parts, `p${n}`, r),
                (id) => id,
                client,
              );
        }
        runs.push(one);
        if (flowableApp && !report.flowableError)
          await flowablePhase({
            name: `Flowable 7 REST${of}`,
            app: flowableApp,
            postgresPid: () => stack.pids().postgres,
            approvers: APPROVERS,
            warmup: FLOWABLE_WARMUP,
            n: N,
            concurrency: CONCURRENCY,
            run,
            round: r,
            load,
            stats,
          })
            .then((result) => flowableRuns.push(result))
            .catch((err) => {
              console.error(`flowable: failed: ${(err as Error).message}`);
              report.flowableError = (err as Error).message;
            });
      }
      // The table shows the round whose service/bare CPU ratio is the median; the ratio lines are
      // the medians of every round's ratios.
      const cpuRatio = (one: Record<string, PhaseResult>) =>
        one.service.cpuMsPerInstanceTotal / one.bare.cpuMsPerInstanceTotal;
      const shown = [...runs].sort((a, b) => cpuRatio(a) - cpuRatio(b))[Math.floor(runs.length / 2)]!;
      Object.assign(report, shown);
      report.shownRun = runs.indexOf(shown) + 1;
      report.runs = runs;
      const perRun = runs.map((one) => againstPhase(one.bare, one.service));
      report.ratios = targetRatios(perRun, Object.keys(RATIO_TARGETS));
      if (flowableRuns.length === runs.length) {
        // The same round as the table's; the ratio lines the medians of the rounds' service/flowable.
        report.flowable = flowableRuns[report.shownRun - 1];
        report.flowableRuns = flowableRuns;
        const perRound = runs.map((one, r) => againstFlowable(flowableRuns[r]!, one.service));
        report.flowableRatios = Object.fromEntries(
          Object.entries(FLOWABLE_TARGETS).map(([k, target]) => {
            const values = perRound.map((x) => x[k]!);
            return [k, { value: median(values), target, runs: values }];
          }),
        );
        // Bare Temporal against Flowable: what any design on Temporal starts from (no target).
        const bareRound = runs.map((one, r) => againstFlowable(flowableRuns[r]!, one.bare));
        report.bareFlowableRatios = Object.fromEntries(
          Object.keys(FLOWABLE_TARGETS).map((k) => {
            const values = bareRound.map((x) => x[k]!);
            return [k, { value: median(values), target: '', runs: values }];
          }),
        );
      }
      if (BARE_RECORD)
        report.ratiosToFloor = {
          service: medianRatios(runs.map((one) => againstPhase(one.bareRecord, one.service))),
          floor: medianRatios(runs.map((one) => againstPhase(one.bare, one.bareRecord))),
        };
      if (apiServer)
        report.ratiosToApiFloor = {
          service: medianRatios(runs.map((one) => againstPhase(one.bareApi, one.service))),
          floor: medianRatios(runs.map((one) => againstPhase(one.bare, one.bareApi))),
        };
      if (EQUAL_RATE !== 0) {
        const throughputOf = (k: string) => median(runs.map((one) => one[k]!.perSecond));
        const perSecond =
          EQUAL_RATE ?? Math.round(0.75 * Math.min(throughputOf('service'), throughputOf('bare')) * 10) / 10;
        const equal: Array<Record<string, PhaseResult>> = [];
        for (let r = 0; r < RUNS; r++) {
          const of = RUNS > 1 ? ` (round ${r + 1} of ${RUNS})` : '';
          // Their own ids and business keys: rounds RUNS and on.
          const service = await phase(
            `service at ${perSecond}/s${of}`,
            servicePids,
            serviceOne(RUNS + r),
            (id) => `approval-demo-${id}`,
            client,
            perSecond,
          );
          const bareAt = await phase(
            `bare Temporal at ${perSecond}/s${of}`,
            barePids,
            bareOne({}, RUNS + r),
            (id) => id,
            client,
            perSecond,
          );
          const floor = apiServer
            ? await phase(
                `bare + HTTP API at ${perSecond}/s${of}`,
                apiPids,
                apiOne({}, '', RUNS + r),
                (id) => id,
                client,
                perSecond,
              )
            : null;
          equal.push({ service, bare: bareAt, ...(floor ? { bareApi: floor } : {}) });
        }
        const perRound = equal.map((one) => againstPhase(one.bare, one.service));
        if (apiServer)
          report.equalRateApiFloor = {
            service: medianRatios(equal.map((one) => againstPhase(one.bareApi!, one.service!))),
            floor: medianRatios(equal.map((one) => againstPhase(one.bare!, one.bareApi!))),
          };
        report.equalRate = {
          perSecond,
          runs: equal,
          ratios: targetRatios(perRound, ['approveP50', 'startP50', 'cpuPerInstance']),
        };
      }
    } finally {
      if (flowableApp) await flowableApp.stop();
      if (apiServer) await stopChild(apiServer.child);
      await stopChild(baselineWorker);
    }

    // Instance views of the largest definition allowed (docs/definitions.md: 500 nodes): a chain of
    // 498 userTasks between start and end, one instance waiting at the first task.
    const CHAIN = 498;
    await call(base, '/api/v1/workflow/process-definitions/deploy', tokens.admin, {
      dsl: userChain(CHAIN, { id: 'bench_largest', name: 'Largest allowed chain' }),
    });
    const largest = await call(base, '/api/v1/workflow/process-instances/start', tokens.alice, {
      processKey: 'bench_largest',
      businessKey: 'bench-largest',
    });
    const instanceMs: number[] = [];
    const detailMs: number[] = [];
    for (let i = 0; i < DETAIL_CALLS; i++) {
      await timed(instanceMs, () =>
        call(base, `/api/v1/workflow/process-instances/${largest.instanceId}`, tokens.alice),
      );
      await timed(detailMs, () =>
        call(base, `/api/v1/workflow/process-instances/${largest.instanceId}/detail`, tokens.alice),
      );
    }
    report.largestDefinition = { nodes: CHAIN + 2, instance: stats(instanceMs), detail: stats(detailMs) };

    // Worker memory with instances left open (waiting at their first task): the worker keeps at most
    // WORKER_MAX_CACHED_WORKFLOWS of them in its cache, so its resident size stays bounded.
    const rssBefore = residentMb(stack.pids().worker);
    const openSeconds = await load(
      OPEN_INSTANCES,
      async (i) => {
        await call(base, '/api/v1/workflow/process-instances/start', tokens.alice, {
          processKey: 'bench_chain3',
          businessKey: `${run}-open-${i}`,
          variables: {},
        });
      },
      null,
    );
    const rssAfter = residentMb(stack.pids().worker);
    report.openInstances = {
      count: OPEN_INSTANCES,
      seconds: openSeconds,
      workerRssMbBefore: rssBefore,
      workerRssMbAfter: rssAfter,
      mbPer1000Open: rssBefore !== null && rssAfter !== null ? ((rssAfter - rssBefore) / OPEN_INSTANCES) * 1000 : null,
    };
  } // part 1

  // ---- 5. attachments: 5 and 20 MB up and down, the server's peak memory ----
  if (ATTACHMENTS && (ONLY_ATTACHMENTS || (!ONLY_SCALE && !ONLY_DELIVERY && !ONLY_CHAINS))) {
    report.attachments = await attachmentPhase({
      base,
      token: tokens.alice,
      serverPid: () => stack.pids().server,
    }).catch((err) => {
      console.error(`attachments: failed: ${(err as Error).message}`);
      return { error: (err as Error).message };
    });
  }

  // ---- 4. rule chains: a 5-node chain executed over HTTP against the same steps on bare Temporal ----
  if (CHAINS.runs > 0 && !ONLY_SCALE && !ONLY_DELIVERY && !ONLY_ATTACHMENTS) {
    report.chains = [];
    for (const flavour of CHAINS.flavours)
      report.chains.push(
        await chainPhase({
          base,
          adminToken: tokens.admin,
          client,
          startBareWorker: (queue) => startBaselineWorker(stack.temporalAddress, stack.namespace, queue),
          stopBareWorker: stopChild,
          stats,
          runs: CHAINS.runs,
          concurrency: CONCURRENCY,
          warmup: WARMUP,
          flavour,
        }).catch((err) => {
          console.error(`chains (${flavour}): failed: ${(err as Error).message}`);
          return { flavour, error: (err as Error).message };
        }),
      );
  }

  // ---- 3. delivery: task messages through the outbox, the dispatcher and the e-mail channel ----
  if (DELIVERY.count > 0 && !ONLY_SCALE && !ONLY_CHAINS && !ONLY_ATTACHMENTS) {
    report.delivery = await deliveryPhase({
      orm,
      base,
      tokens,
      call,
      stats,
      processKey: 'bench_chain3',
      approver: APPROVERS[0],
      count: DELIVERY.count,
      instances: Math.max(1, Math.min(DELIVERY.instances, DELIVERY.count)),
      timeoutS: DELIVERY.timeoutS,
      run,
    }).catch((err) => {
      console.error(`delivery: failed: ${(err as Error).message}`);
      return { error: (err as Error).message };
    });
    report.delivery.loadAverageAfter = loadAverage();
  }

  // ---- 2. the read model at scale ----
  if (SCALE) {
    console.log(
      `scale: seeding ${SCALE_SIZE.archivedTasks} archived and ${SCALE_SIZE.runtimeTasks} runtime tasks over ${SCALE_SIZE.users} users…`,
    );
    const seeded = await seedScale(orm, SCALE_SIZE, deployed.id).catch((err) => {
      console.error(`scale: seeding failed, part 2 skipped: ${(err as Error).message}`);
      return null;
    });
    if (seeded) {
      console.log(`scale: seeded in ${seeded.seconds.toFixed(0)} s; timing the lists`);
      if (HOLD_S > 0) {
        console.log(`scale: holding ${HOLD_S} s; database ${stack.databaseUrl}`);
        await new Promise((r) => setTimeout(r, HOLD_S * 1000));
      }
      if (pgStat) await resetPgStatStatements(orm);
      const who = { 'typical user': await login(seeded.typicalUser), monitor: await login('admin') };
      const lists: Record<string, string> = {
        'to-do': '/api/v1/workflow/process-instances/todo?pageSize=20',
        done: '/api/v1/workflow/process-instances/done?pageSize=20',
        cc: '/api/v1/workflow/process-instances/cc?pageSize=20',
        applications: '/api/v1/workflow/process-instances/applications?pageSize=20',
        'task history': '/api/v1/workflow/tasks/history?pageSize=20',
        overdue: '/api/v1/workflow/tasks/overdue?pageSize=20',
        backlog: '/api/v1/workflow/tasks/backlog?pageSize=20',
        statistics: '/api/v1/workflow/tasks/statistics',
        'detail (50 trail entries)': `/api/v1/workflow/process-instances/${seeded.detailInstance}/detail`,
      };
      // One untimed pass over every list and caller first: the first list timed after the seeding
      // (the typical user's to-do) took 16–31 ms at p99 against 3–6 ms when timed again, its SQL
      // 0.2 ms — the server's first requests after a long idle, not the list (issue 48).
      for (let pass = 0; pass < 3; pass++)
        for (const url of Object.values(lists))
          for (const token of Object.values(who)) await call(base, url, token).catch(() => undefined);
      const scale: Record<string, Record<string, Stats | string>> = {};
      for (const [listName, url] of Object.entries(lists)) {
        scale[listName] = {};
        for (const [whoName, token] of Object.entries(who)) {
          try {
            scale[listName][whoName] = stats(
              await sample(() => call(base, url, token), { maxCalls: LIST_CALLS, minCalls: 5, budgetMs: 6000 }),
            );
          } catch (err) {
            scale[listName][whoName] =
              (err as { status?: number }).status === 403
                ? 'forbidden'
                : `error: ${(err as Error).message.slice(0, 80)}`;
          }
        }
      }
      report.scale = {
        size: SCALE_SIZE,
        seedSeconds: Math.round(seeded.seconds),
        typicalUser: seeded.typicalUser,
        lists: scale,
        loadAverageAfter: loadAverage(),
      };
      if (pgStat) {
        statements.scaleLists = await topStatements(orm, 20);
        report.scalePlans = await genericPlans(orm, statements.scaleLists.slice(0, 10));
      }
    }
  }
} finally {
  if (flowableApp) await flowableApp.stop().catch(() => undefined);
  if (baselineWorker) await stopChild(baselineWorker).catch(() => undefined);
  await connection.close().catch(() => undefined);
  await orm.close().catch(() => undefined);
  await stack.stop();
}

// ---- profiles (written by the workers when they exit) ----
if (PROFILE) {
  const profiles: Record<string, ProfileSummary[]> = {};
  for (const [who, window] of [
    ['service-worker', report.service?.windowUs],
    ['service-server', report.service?.windowUs],
    ['baseline-worker', report.bare?.windowUs],
    ['baseline-api', report.bareApi?.windowUs],
  ] as const) {
    try {
      profiles[who] = readdirSync(path.join(profileDir, who))
        .filter((f) => f.endsWith('.cpuprofile'))
        .map((f) => summarizeCpuProfile(path.join(profileDir, who, f), window));
    } catch {
      profiles[who] = [];
    }
  }
  report.profile = { dir: profileDir, workers: profiles, pgStatStatements: statements };
}

// ---- the table ----
const f = (v: number | null | undefined) =>
  v === null || v === undefined || Number.isNaN(v) ? '—' : String(Math.round(v));
const lat = (s?: Stats) => (s ? `${f(s.p50)} / ${f(s.p95)} / ${f(s.p99)}` : '—');
if (report.service && report.bare) {
  const s: PhaseResult = report.service;
  const b: PhaseResult = report.bare;
  const r3: PhaseResult | undefined = report.bareRecord;
  // The other bare variants that ran, each a column of its own.
  const variants = [...BARE_VARIANTS, { key: 'bareApi', name: 'bare + HTTP API' }, ...API_PARTS]
    .filter((v) => report[v.key])
    .map((v): [string, PhaseResult] => [v.name, report[v.key] as PhaseResult]);
  const cpu = (p: PhaseResult, k: string) => f(p.cpuMsPerInstance[k]);
  const names = [
    'start p50 / p95 / p99 (ms)',
    'approve p50 / p95 / p99 (ms)',
    'to-do p50 / p95 / p99 (ms)',
    'instances/s',
    'CPU ms/instance: worker',
    'CPU ms/instance: Temporal server',
    'CPU ms/instance: HTTP server',
    'CPU ms/instance: PostgreSQL',
    'CPU ms/instance: total',
    'CPU ms/instance: load generator (not in total)',
    'history events/instance',
    'first workflow task pickup / held p50 (ms)',
    'started → start answered p50 (ms)',
    'later workflow tasks held p50 (ms)',
    'later workflow tasks pickup p50 / p95 (ms)',
    'approve (Update) task pickup p50 / p95 (ms)',
    'approve (Update) task held p50 / p95 (ms)',
  ];
  // The bare phases but 1f have no HTTP server or read model: those rows sit idle there.
  const column = (p: PhaseResult, service: boolean): string[] => [
    lat(p.start),
    lat(p.approve),
    `${lat(p.todo)} ${service ? '(HTTP list)' : '(Query)'}`,
    p.perSecond.toFixed(2),
    cpu(p, 'worker'),
    cpu(p, 'temporal'),
    `${cpu(p, 'server')}${service ? '' : ' (idle)'}`,
    `${cpu(p, 'postgres')}${service ? '' : ' (idle)'}`,
    f(p.cpuMsPerInstanceTotal),
    f(p.loadClientCpuMsPerInstance),
    String(p.history.eventsPerInstance),
    `${f(p.history.firstWorkflowTaskPickupMs.p50)} / ${f(p.history.firstWorkflowTaskMs.p50)}`,
    f(p.history.startToFirstAnswerMs.p50),
    f(p.history.laterWorkflowTaskMs.p50),
    `${f(p.history.laterWorkflowTaskPickupMs.p50)} / ${f(p.history.laterWorkflowTaskPickupMs.p95)}`,
    `${f(p.history.updateWorkflowTaskPickupMs.p50)} / ${f(p.history.updateWorkflowTaskPickupMs.p95)}`,
    `${f(p.history.updateWorkflowTaskHeldMs.p50)} / ${f(p.history.updateWorkflowTaskHeldMs.p95)}`,
  ];
  const columns = [
    column(s, true),
    column(b, false),
    ...variants.map(([, p]) => column(p, [report.bareApi, ...API_PARTS.map((a) => report[a.key])].includes(p))),
  ];
  const rows = names.map((name, i) => [name, ...columns.map((c) => c[i])]);
  const widths = rows[0].map((_, i) => Math.max(i === 0 ? 0 : 13, ...rows.map((r) => r[i].length)));
  const print = (cells: string[]) =>
    console.log(
      cells
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    );
  console.log(
    `\n${N} instances (3-step sequential approval) at concurrency ${CONCURRENCY}, after ${WARMUP} warm-up; load average before ${loadBefore}, after ${s.loadAverageAfter} / ${b.loadAverageAfter}`,
  );
  print(['metric', 'service', 'bare Temporal', ...variants.map(([name]) => name)]);
  for (const r of rows) print(r);
  console.log('');
  if (report.runs?.length > 1)
    console.log(
      `(the table: round ${report.shownRun} of ${report.runs.length}, the median service/bare CPU ratio; the ratio lines: medians of the rounds [each round])\n`,
    );
  ratioLines(report.ratios);
  if (s.approveByStep)
    console.log(
      `service approve p50 by step: ${s.approveByStep.map((x, i) => `${i + 1}. ${f(x.p50)}`).join(', ')} ms (the first waits for the instance's first workflow task when it comes right after a start that did not: docs/engine.md "A start that does not wait")`,
    );
  if (report.flowableRatios) {
    const fl: FlowableResult = report.flowable;
    console.log(
      `\nFlowable 7 REST (bench/flowable.ts), round ${report.shownRun} as the table: ${N} instances at concurrency ${CONCURRENCY} after ${FLOWABLE_WARMUP} warm-up, its own database in the same PostgreSQL server; load average after ${fl.loadAverageAfter}`,
    );
    console.log(
      `  start ${lat(fl.start)} ms, approve ${lat(fl.approve)} ms, to-do ${lat(fl.todo)} ms (task query by assignee) — p50 / p95 / p99`,
    );
    console.log(
      `  ${fl.perSecond.toFixed(2)} instances/s; CPU ms/instance: Java ${f(fl.cpuMsPerInstance.flowable)} + PostgreSQL ${f(fl.cpuMsPerInstance.postgres)} = ${f(fl.cpuMsPerInstanceTotal)} (load generator ${f(fl.loadClientCpuMsPerInstance)}, not in total)`,
    );
    ratioLines(report.flowableRatios, '', 'service/flowable');
    // What is Temporal's own: the bare workflow against Flowable on the same machine in the same round.
    if (report.bareFlowableRatios) ratioLines(report.bareFlowableRatios, ' (Temporal’s own)', 'bare/flowable');
  } else if (report.flowableError) console.log(`\nflowable: failed: ${report.flowableError}`);
  // At a fixed concurrency an instance's time is concurrency/throughput; what its to-do lists take
  // of it is time its start and approves do not have (means, so the parts add up).
  const parts = (p: PhaseResult) => {
    const todo = 3 * p.todo.mean;
    const all = p.start.mean + 3 * p.approve.mean + todo;
    return { all, todo, share: todo / all };
  };
  const [sp, bp] = [parts(s), parts(b)];
  console.log(
    `an instance's time at concurrency ${CONCURRENCY} (means): service ${sp.all.toFixed(0)} ms, to-do lists ${(100 * sp.share).toFixed(1)} %; bare ${bp.all.toFixed(0)} ms, to-do Queries ${(100 * bp.share).toFixed(1)} % — start and approves: service/bare ${((sp.all - sp.todo) / (bp.all - bp.todo)).toFixed(2)} = instance ${(sp.all / bp.all).toFixed(2)} × ${((1 - sp.share) / (1 - bp.share)).toFixed(2)} (to-do shares)`,
  );
  console.log('approve (Update) workflow task pickup, share of tasks by wait (ms):');
  for (const [name, p] of [['service', s], ['bare', b], ...variants] as Array<[string, PhaseResult]>)
    console.log(`  ${name.padEnd(26)} ${p.history.updateWorkflowTaskPickupHistogram}`);
  console.log('worker CPU ms/instance by thread:');
  for (const [name, p] of [['service', s], ['bare', b], ...variants] as Array<[string, PhaseResult]>)
    console.log(
      `  ${name.padEnd(26)} ${Object.entries(p.workerCpuMsPerInstanceByThread ?? {})
        .map(([thread, ms]) => `${thread} ${ms}`)
        .join(' | ')}`,
    );
  console.log(`history events by type, service: ${JSON.stringify(s.history.byType)}`);
  console.log(`history events by type, bare:    ${JSON.stringify(b.history.byType)}`);
  if (r3 && report.ratiosToFloor) {
    const line = (name: string, r: Record<string, number>) =>
      console.log(
        `${name}: approve ${r.approveP50.toFixed(2)}, start ${r.startP50.toFixed(2)}, throughput ${r.throughput.toFixed(2)}, CPU ${r.cpuPerInstance.toFixed(2)}, events ${r.historyEvents.toFixed(2)}`,
      );
    console.log('');
    line(
      'ratio floor/bare    (bare + 1 activity/state against bare: Temporal’s own cost of a durable projection)',
      report.ratiosToFloor.floor,
    );
    line('ratio service/floor (the service against that floor: the part that is ours)', report.ratiosToFloor.service);
  }
  if (report.equalRate) {
    const e = report.equalRate as { perSecond: number; runs: Array<Record<string, PhaseResult>> };
    const shown = e.runs[Math.floor(e.runs.length / 2)]!;
    const inFlight = (p: PhaseResult) => `${p.perSecond}/s, at most ${p.arrivals?.maxInFlight} running`;
    console.log(
      `\nat equal load (the targets are set at concurrency ${CONCURRENCY}; beside for reference): ${N} instances arriving at ${e.perSecond}/s, service and bare alike (round ${Math.floor(e.runs.length / 2) + 1}: start p50 ${shown.service!.start.p50} / ${shown.bare!.start.p50} ms, approve p50 ${shown.service!.approve.p50} / ${shown.bare!.approve.p50} ms, CPU ${shown.service!.cpuMsPerInstanceTotal} / ${shown.bare!.cpuMsPerInstanceTotal} ms per instance; done ${inFlight(shown.service!)} / ${inFlight(shown.bare!)})`,
    );
    ratioLines(report.equalRate.ratios, ' at equal load');
    if (report.equalRateApiFloor) {
      const f = shown.bareApi!;
      const line = (name: string, r: Record<string, number>) =>
        console.log(
          `${name}: approve ${r.approveP50.toFixed(2)}, start ${r.startP50.toFixed(2)}, CPU ${r.cpuPerInstance.toFixed(2)}`,
        );
      console.log(
        `bare + HTTP API at ${e.perSecond}/s: start p50 ${f.start.p50} ms, approve p50 ${f.approve.p50} ms, CPU ${f.cpuMsPerInstanceTotal} ms per instance`,
      );
      line('ratio api-floor/bare    at equal load', report.equalRateApiFloor.floor);
      line('ratio service/api-floor at equal load', report.equalRateApiFloor.service);
    }
  }
  if (report.ratiosToApiFloor) {
    const line = (name: string, r: Record<string, number>) =>
      console.log(
        `${name}: approve ${r.approveP50.toFixed(2)}, start ${r.startP50.toFixed(2)}, throughput ${r.throughput.toFixed(2)}, CPU ${r.cpuPerInstance.toFixed(2)}`,
      );
    console.log('');
    line(
      'ratio api-floor/bare    (bare + the least HTTP API with the same guarantees, against bare)',
      report.ratiosToApiFloor.floor,
    );
    line(
      'ratio service/api-floor (the service against that API floor: the part that is ours)',
      report.ratiosToApiFloor.service,
    );
  }
}
if (report.attachments) {
  const a = report.attachments as any;
  if (a.error) console.log(`\nattachments: failed: ${a.error}`);
  else {
    console.log(
      "\nattachments (disk store), upload and download over HTTP, 3 rounds each; median MB/s, the server's peak RSS above its level before:",
    );
    for (const r of a as any[])
      console.log(
        `  ${String(r.sizeMb).padStart(3)} MB file: up ${f(median(r.upMbPerS))} MB/s, down ${f(median(r.downMbPerS))} MB/s; server RSS ${f(r.rssBeforeMb)} MB → peak +${f((r.peakUpMb ?? 0) - (r.rssBeforeMb ?? 0))} MB up, +${f((r.peakDownMb ?? 0) - (r.rssBeforeMb ?? 0))} MB down`,
      );
    const [small, large] = [a[0], a[a.length - 1]];
    if (small && large && small !== large) {
      const above = (r: any) => Math.max(r.peakUpMb, r.peakDownMb) - r.rssBeforeMb;
      const growth = above(large) - above(small);
      console.log(
        `attachments: the server's peak RSS above its level, ${large.sizeMb} MB vs ${small.sizeMb} MB file: ${growth >= 0 ? '+' : ''}${f(growth)} MB (${large.sizeMb - small.sizeMb} MB more file)   target: does not grow with the file: ${growth < (large.sizeMb - small.sizeMb) / 2 ? 'met' : 'NOT met'}`,
      );
    }
  }
}
for (const c of (report.chains ?? []) as any[]) {
  if (c.error) {
    console.log(`\nrule chain (${c.flavour}): failed: ${c.error}`);
    continue;
  }
  console.log(
    `\nrule chain, 5 nodes (${c.flavour === 'js' ? 'jsFilter, jsTransform' : 'exprFilter, exprTransform'}, switch, restApiCall, log), execute at concurrency ${CONCURRENCY}; p50 / p95 ms, runs/s:`,
  );
  for (const [i, r] of (c.rounds as any[]).entries())
    console.log(
      `  round ${i + 1}: service ${f(r.service.p50)} / ${f(r.service.p95)}, ${f(r.serviceRunsPerS)}/s   bare ${f(r.bare.p50)} / ${f(r.bare.p95)}, ${f(r.bareRunsPerS)}/s   p50 ratio ${r.p50Ratio.toFixed(2)}`,
    );
  console.log(
    `ratio chain execute p50 service/bare (${c.flavour}) = ${c.p50RatioMedian.toFixed(2)}   target ≤ 1.3: ${c.p50RatioMedian <= 1.3 ? 'met' : 'NOT met'}`,
  );
}
if (report.openInstances) {
  const o = report.openInstances;
  console.log(
    `\nworker memory: ${f(o.workerRssMbBefore)} MB → ${f(o.workerRssMbAfter)} MB resident after ${o.count} more open instances ` +
      `(≈ ${f(o.mbPer1000Open)} MB per 1,000 open instances; the workflow cache holds at most WORKER_MAX_CACHED_WORKFLOWS)`,
  );
}
if (report.largestDefinition) {
  const l = report.largestDefinition;
  console.log(
    `\n${l.nodes}-node definition: GET /{id} ${lat(l.instance)} ms, GET /{id}/detail ${lat(l.detail)} ms (p50 / p95 / p99); stack start-up ${report.stackStartupMs} ms`,
  );
}
if (report.scale) {
  const sc = report.scale;
  console.log(
    `\nRead model at scale: ${sc.size.archivedTasks} archived + ${sc.size.runtimeTasks} runtime tasks, ${sc.size.users} users (seeded in ${sc.seedSeconds} s); p50 / p99 ms, up to ${LIST_CALLS} calls each; load average before ${loadBefore}, after ${sc.loadAverageAfter}`,
  );
  const cell = (v: Stats | string) => (typeof v === 'string' ? v : `${f(v.p50)} / ${f(v.p99)}`);
  let worstList = 0;
  for (const [name, byWho] of Object.entries(sc.lists as Record<string, Record<string, Stats | string>>)) {
    console.log(
      `  ${name.padEnd(26)} typical user ${cell(byWho['typical user']).padEnd(14)} monitor ${cell(byWho.monitor)}`,
    );
    if (!name.startsWith('detail'))
      for (const v of Object.values(byWho)) if (typeof v !== 'string') worstList = Math.max(worstList, v.p99);
  }
  const detail = Object.values(sc.lists['detail (50 trail entries)'] as Record<string, Stats | string>).filter(
    (v): v is Stats => typeof v !== 'string',
  );
  const worstDetail = Math.max(...detail.map((v) => v.p99));
  report.ratios = {
    ...report.ratios,
    worstListP99Ms: { value: worstList, target: '≤ 20' },
    detailP99Ms: { value: worstDetail, target: '≤ 15' },
  };
  console.log(`worst list p99 = ${f(worstList)} ms   target ≤ 20: ${worstList <= 20 ? 'met' : 'NOT met'}`);
  console.log(
    `detail (50 trail entries) p99 = ${f(worstDetail)} ms   target ≤ 15: ${worstDetail <= 15 ? 'met' : 'NOT met'}`,
  );
}
if (report.profile) {
  for (const [who, list] of Object.entries(report.profile.workers as Record<string, ProfileSummary[]>)) {
    for (const p of list) {
      console.log(
        `\nCPU profile ${who} ${path.basename(p.file)}: ${p.sampledMs} ms sampled${p.windowed ? ' in the measured window' : ' (whole run)'}`,
      );
      for (const o of p.byOrigin.slice(0, 8)) console.log(`  ${String(o.pct).padStart(5)}%  ${o.origin}`);
      for (const t of p.topFunctions.slice(0, 12)) console.log(`  ${String(t.pct).padStart(5)}%  ${t.fn}`);
    }
  }
  for (const [phaseName, rows] of Object.entries(statements)) {
    console.log(
      `\npg_stat_statements, ${phaseName} (top by execution + planning time): calls, total ms, mean ms, planning ms`,
    );
    for (const r of rows.slice(0, 30))
      console.log(
        `  ${String(r.calls).padStart(6)} ${String(r.totalMs).padStart(7)} ${String(r.meanMs).padStart(8)} ${String(r.planMs).padStart(8)}  ${r.query.slice(0, 150)}`,
      );
  }
}
mkdirSync(path.dirname(outFile), { recursive: true });
writeFileSync(outFile, JSON.stringify(report, null, 2));
console.log(
  `\nfigures: ${path.relative(process.cwd(), outFile)}${PROFILE ? `; profiles: ${path.relative(process.cwd(), profileDir)}` : ''}`,
);
