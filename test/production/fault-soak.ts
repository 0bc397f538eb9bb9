// The fault soak of the production topology (issue 49; run by production.test.ts): three-step
// approvals started and approved on both servers at a steady concurrency while a worker, a server,
// the Temporal server and PostgreSQL are killed (SIGKILL; PostgreSQL: immediate shutdown) and
// restarted — each twice, then a server and the Temporal server at the same time. A write that
// fails (5xx, no answer, connection refused) is re-sent to the other server with its
// Idempotency-Key, as a client behind a load balancer would. Then the audit: nothing acknowledged
// lost, nothing duplicated, the read model equal to Temporal (status, open tasks), no stuck
// instance, no open write-ahead intent. It answers the figures: requests, 5xx per fault window,
// recovery times.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import type { ProductionStack } from '../../scripts/production-stack.js';
import { readModelState } from '../../workflows/read-model.js';
import { graphDoc, node, user, wire } from '../helpers/dsl.js';

export const SOAK_PROCESS = 'soak_three_steps';
const APPROVERS = ['bob', 'carol', 'dave'] as const;

export interface SoakOptions {
  stack: ProductionStack;
  adminToken: string;
  demoPassword: string;
  /** Concurrent clients (each runs one instance start to end at a time). */
  concurrency?: number;
  /** How long each fault keeps its part down before the restart. */
  downMs?: number;
  /** At most this many instances (the load also stops when the faults are over). */
  maxInstances?: number;
  log?: (line: string) => void;
}

interface Attempt {
  op: 'start' | 'approve' | 'read';
  server: number;
  at: number;
  ms: number;
  /** HTTP status, or 0: no answer (connection refused or reset, or the client's time limit). */
  status: number;
}

export interface FaultWindow {
  name: string;
  killedAt: number;
  restartAt: number;
  /** Both servers ready and a write answered 2xx by each after the restart. */
  recoveredAt: number;
  /** Restart issued → recovered (ms). */
  recoveryMs: number;
  /** Kill → recovered (ms): the whole window. */
  windowMs: number;
  /** Answers to requests sent from the kill until recovered, by kind. */
  http5xx: number;
  http503: number;
  noAnswer: number;
  writesOk: number;
  /** 5xx to requests sent after the recovery, before the next fault (a pool's broken connections, one answer each). */
  http5xxAfter: number;
}

export interface SoakReport {
  instances: number;
  requests: { total: number; writes: number; reads: number; ok: number; http5xx: number; noAnswer: number };
  resent: number;
  acknowledged: { starts: number; approves: number };
  failedWrites: number;
  /**
   * Writes whose re-sent attempt (after one with no answer or a 5xx) was refused (4xx): the first
   * attempt took effect but the retry did not answer like it. Each is checked in the audit: its
   * effect must be there once.
   */
  refusedRetries: string[];
  windows: FaultWindow[];
  /** 5xx before the first fault: there must be none. */
  http5xxBeforeFaults: number;
  audit: {
    lost: number;
    duplicated: number;
    readModelMismatches: number;
    notCompleted: number;
    stuck: number;
    openIntents: number;
    intentsDrainedMs: number;
    problems: string[];
  };
  wallSeconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function faultSoak(opts: SoakOptions): Promise<SoakReport> {
  const { stack } = opts;
  const log = opts.log ?? ((line: string) => console.info(line));
  const began = Date.now();
  const concurrency = opts.concurrency ?? 4;
  const downMs = opts.downMs ?? 5000;
  // Enough that the load outlasts the faults on a fast machine: recovery is measured by the load's
  // own writes, so a load that ran out before the last fault would read as no recovery.
  const maxInstances = opts.maxInstances ?? 2000;
  const servers = stack.baseUrls.length;
  const attempts: Attempt[] = [];
  const lastWriteOk: number[] = Array(servers).fill(0);
  let resent = 0;
  let failedWrites = 0;
  const problems: string[] = [];

  // One request to one server; no answer within the limit counts as none (status 0).
  async function send(server: number, op: Attempt['op'], p: string, token: string, body?: unknown, key?: string) {
    const at = Date.now();
    try {
      const res = await fetch(`${stack.baseUrls[server]}${p}`, {
        method: body ? 'POST' : 'GET',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body ? { 'Content-Type': 'application/json' } : {}),
          ...(key ? { 'Idempotency-Key': key } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(45_000),
      });
      const json = (await res.json().catch(() => null)) as any;
      attempts.push({ op, server, at, ms: Date.now() - at, status: res.status });
      if (op !== 'read' && res.status < 300) lastWriteOk[server] = Math.max(lastWriteOk[server], at);
      return { status: res.status, body: json };
    } catch {
      attempts.push({ op, server, at, ms: Date.now() - at, status: 0 });
      return { status: 0, body: null };
    }
  }

  let turn = 0;
  /** A request sent until it is answered (not 5xx): a failure is re-sent to the other server, a write with its key. */
  async function request(op: Attempt['op'], p: string, token: string, body?: unknown, key?: string) {
    let server = turn++ % servers;
    const deadline = Date.now() + 240_000;
    for (let tries = 0; ; tries++) {
      const res = { ...(await send(server, op, p, token, body, key)), resent: tries > 0 };
      if (res.status !== 0 && res.status < 500) return res;
      if (Date.now() > deadline) return res;
      if (op !== 'read') resent++;
      server = (server + 1) % servers;
      await sleep(Math.min(2000, 100 * 2 ** Math.min(tries, 5)));
    }
  }

  // The process: three steps, bob, carol, dave.
  const admin = opts.adminToken;
  const deploy = await request('start', '/api/v1/workflow/process-definitions/deploy', admin, {
    dsl: graphDoc(
      SOAK_PROCESS,
      [node('s', 'startTask'), user('t0', ['bob']), user('t1', ['carol']), user('t2', ['dave']), node('end', 'end')],
      wire('s>t0 t0>t1 t1>t2 t2>end'),
    ),
  });
  if (deploy.status !== 201) throw new Error(`soak: deploy failed ${deploy.status} ${JSON.stringify(deploy.body)}`);
  const tokens: Record<string, string> = {};
  for (const u of ['alice', ...APPROVERS]) {
    const res = await request('read', '/api/v1/auth/login', admin, {
      username: u,
      password: opts.demoPassword,
      tenantId: 'demo',
    });
    tokens[u] = res.body.data.accessToken;
  }
  // The figures are the load's: not the deploy and the logins.
  attempts.length = 0;
  resent = 0;

  // The load.
  const ackStarts = new Map<string, string>(); // business key → instance id
  const ackApproves = new Map<string, Set<string>>(); // instance id → steps acknowledged
  const refusedRetries: string[] = [];
  const refusedApproves: Array<{ id: string; step: string }> = [];
  let next = 0;
  let stop = false;
  async function activeTask(instanceId: string, step: string) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const res = await request(
        'read',
        `/api/v1/workflow/tasks?instanceId=${instanceId}&status=active&pageSize=20`,
        admin,
      );
      const task = (res.body?.data?.items as any[] | undefined)?.find((t) => t.activityId === step);
      if (task) return task as { id: string };
      if (Date.now() > deadline) throw new Error(`soak: no active task ${step} on ${instanceId}`);
      await sleep(200);
    }
  }
  async function lane() {
    while (!stop && next < maxInstances) {
      const i = next++;
      const businessKey = `SOAK-${i}`;
      const started = await request(
        'start',
        '/api/v1/workflow/process-instances/start',
        tokens.alice,
        { processKey: SOAK_PROCESS, businessKey, variables: { n: i } },
        `soak-start-${i}`,
      );
      if (started.status !== 201) {
        failedWrites++;
        problems.push(`start ${businessKey}: ${started.status} ${JSON.stringify(started.body)}`);
        continue;
      }
      const id = started.body.data.instanceId as string;
      ackStarts.set(businessKey, id);
      ackApproves.set(id, new Set());
      for (const [s, who] of APPROVERS.entries()) {
        const step = `t${s}`;
        const task = await activeTask(id, step);
        const res = await request(
          'approve',
          `/api/v1/workflow/tasks/${task.id}/approve`,
          tokens[who],
          { comment: `soak ${i} ${step}` },
          `soak-approve-${i}-${step}`,
        );
        if (res.status !== 200 && res.resent && res.status >= 400 && res.status < 500) {
          // Its first attempt got no answer or a 5xx, the re-sent one a refusal: the audit checks the effect.
          refusedRetries.push(`approve ${businessKey} ${step}: ${res.status} ${res.body?.message ?? ''}`);
          refusedApproves.push({ id, step });
          if (step === 't2' || res.body?.code === 40901) break;
          continue;
        }
        if (res.status !== 200) {
          failedWrites++;
          problems.push(`approve ${businessKey} ${step}: ${res.status} ${JSON.stringify(res.body)}`);
          break;
        }
        ackApproves.get(id)!.add(step);
      }
    }
  }

  // The faults, one after another, while the load runs.
  const ready = (server: number) =>
    fetch(`${stack.baseUrls[server]}/readyz`, { signal: AbortSignal.timeout(2000) })
      .then((r) => r.ok)
      .catch(() => false);
  type Down = { restart(): Promise<void> };
  const worker = (i: number) => ({
    name: `worker ${i}`,
    kill: async (): Promise<Down[]> => [await stack.kill('worker', i)],
  });
  const server = (i: number) => ({
    name: `server ${i}`,
    kill: async (): Promise<Down[]> => [await stack.kill('server', i)],
  });
  const temporal = { name: 'temporal', kill: async (): Promise<Down[]> => [await stack.crash('temporal')] };
  const postgres = { name: 'postgres', kill: async (): Promise<Down[]> => [await stack.crash('postgres')] };
  const faults = [
    worker(0),
    server(0),
    temporal,
    postgres,
    worker(1),
    server(1),
    temporal,
    postgres,
    // Two at once: a server dies while Temporal is down (its Updates in flight are re-sent to the
    // other server; what it answered but did not write is the sweeper's). Temporal restarts first.
    {
      name: 'temporal + server 0',
      kill: async (): Promise<Down[]> => [await stack.crash('temporal'), await stack.kill('server', 0)],
    },
  ];
  const windows: FaultWindow[] = [];
  async function faultsRun() {
    await sleep(4000);
    for (const fault of faults) {
      const killedAt = Date.now();
      const downs = await fault.kill();
      log(`soak: ${fault.name} down`);
      await sleep(downMs);
      const restartAt = Date.now();
      for (const d of downs) await d.restart();
      const deadline = Date.now() + 120_000;
      for (;;) {
        const readyAll = (await Promise.all(stack.baseUrls.map((_, i) => ready(i)))).every(Boolean);
        if (readyAll && lastWriteOk.every((t) => t >= restartAt)) break;
        if (Date.now() > deadline)
          throw new Error(
            `soak: no recovery from ${fault.name} within 120 s (${next} of ${maxInstances} instances started)\n${await diagnostics(stack, lastWriteOk)}`,
          );
        await sleep(100);
      }
      const recoveredAt = Date.now();
      const inWindow = attempts.filter((a) => a.at >= killedAt && a.at <= recoveredAt);
      windows.push({
        http5xxAfter: 0,
        name: fault.name,
        killedAt,
        restartAt,
        recoveredAt,
        recoveryMs: recoveredAt - restartAt,
        windowMs: recoveredAt - killedAt,
        http5xx: inWindow.filter((a) => a.status >= 500).length,
        http503: inWindow.filter((a) => a.status === 503).length,
        noAnswer: inWindow.filter((a) => a.status === 0).length,
        writesOk: inWindow.filter((a) => a.op !== 'read' && a.status > 0 && a.status < 300).length,
      });
      log(`soak: ${fault.name} recovered ${recoveredAt - restartAt} ms after its restart`);
      await sleep(3000);
    }
  }
  const lanes = Array.from({ length: concurrency }, () => lane());
  try {
    await faultsRun();
  } finally {
    stop = true;
    await Promise.allSettled(lanes);
  }
  await Promise.all(lanes);

  // The audit.
  const db = new pg.Client({ connectionString: stack.databaseUrl });
  await db.connect();
  const connection = await Connection.connect({ address: stack.temporalAddress });
  const temporalClient = new Client({ connection, namespace: stack.namespace });
  try {
    // Open intents: the sweeper writes what no server wrote; give it a little time.
    const drainStart = Date.now();
    let openIntents = 0;
    for (;;) {
      openIntents = (await db.query(`select count(*)::int as n from projection_intents`)).rows[0].n;
      if (openIntents === 0 || Date.now() - drainStart > 60_000) break;
      await sleep(250);
    }
    const intentsDrainedMs = Date.now() - drainStart;

    const rows = (
      await db.query(
        `select id, business_key, status, false as archived from instances where process_key = $1
         union all select id, business_key, status, true from instances_archive where process_key = $1`,
        [SOAK_PROCESS],
      )
    ).rows as Array<{ id: string; business_key: string; status: string; archived: boolean }>;
    const byKey = new Map<string, typeof rows>();
    for (const r of rows) byKey.set(r.business_key, [...(byKey.get(r.business_key) ?? []), r]);
    let duplicated = [...byKey.values()].filter((l) => l.length > 1).length;
    let lost = 0;
    for (const [bk, id] of ackStarts) {
      if (!rows.some((r) => r.id === id && r.business_key === bk)) {
        lost++;
        problems.push(`lost start ${bk} (${id})`);
      }
    }
    // Every acknowledged approval once in the trail, and no step approved twice.
    const trail = (
      await db.query(
        `select instance_id, activity_id, count(*)::int as n from trail
         where type = 'approve' and instance_id = any($1::text[]) group by 1, 2`,
        [rows.map((r) => r.id)],
      )
    ).rows as Array<{ instance_id: string; activity_id: string; n: number }>;
    for (const t of trail)
      if (t.n > 1) {
        duplicated++;
        problems.push(`approve of ${t.activity_id} on ${t.instance_id} recorded ${t.n} times`);
      }
    for (const [id, steps] of ackApproves)
      for (const step of steps)
        if (!trail.some((t) => t.instance_id === id && t.activity_id === step)) {
          lost++;
          problems.push(`lost approve ${step} on ${id}`);
        }
    for (const { id, step } of refusedApproves)
      if (!trail.some((t) => t.instance_id === id && t.activity_id === step && t.n === 1)) {
        lost++;
        problems.push(`approve ${step} on ${id}: its retry was refused and its first attempt did not take effect`);
      }

    // Temporal: one workflow per instance, and its state as the read model has it.
    let workflows: Array<{ workflowId: string; status: string }> = [];
    for (const until = Date.now() + 30_000; ;) {
      workflows = [];
      for await (const w of temporalClient.workflow.list({ query: `ProcessKey = '${SOAK_PROCESS}'` }))
        workflows.push({ workflowId: w.workflowId, status: w.status.name });
      if (workflows.length >= rows.length || Date.now() > until) break;
      await sleep(500);
    }
    const wfIds = new Set(workflows.map((w) => w.workflowId));
    if (wfIds.size !== workflows.length) {
      duplicated += workflows.length - wfIds.size;
      problems.push('a workflow id listed twice');
    }
    let readModelMismatches = 0;
    const tasks = (
      await db.query(`select id, instance_id, status, assignee from tasks where instance_id = any($1::text[])`, [
        rows.map((r) => r.id),
      ])
    ).rows as Array<{ id: string; instance_id: string; status: string; assignee: string | null }>;
    for (const r of rows) {
      const wf = workflows.find((w) => w.workflowId.endsWith(`-${r.id}`));
      if (!wf) {
        readModelMismatches++;
        problems.push(`instance ${r.id} (${r.business_key}, ${r.status}) has no workflow`);
        continue;
      }
      const expected = r.status === 'completed' ? 'COMPLETED' : 'RUNNING';
      if (wf.status !== expected) {
        readModelMismatches++;
        problems.push(`instance ${r.id}: read model ${r.status}, Temporal ${wf.status}`);
        continue;
      }
      if (wf.status === 'RUNNING') {
        const state = await temporalClient.workflow.getHandle(wf.workflowId).query(readModelState);
        const live = (state.tasks as Array<{ id: string; status: string; assignee?: string | null }>)
          .filter((t) => t.status === 'active')
          .map((t) => `${t.id}:${t.assignee ?? ''}`)
          .sort();
        const mine = tasks
          .filter((t) => t.instance_id === r.id && t.status === 'active')
          .map((t) => `${t.id}:${t.assignee ?? ''}`)
          .sort();
        if (state.instance.status !== r.status || JSON.stringify(live) !== JSON.stringify(mine)) {
          readModelMismatches++;
          problems.push(
            `instance ${r.id}: read model ${r.status} ${mine.join(',')}, Temporal ${state.instance.status} ${live.join(',')}`,
          );
        }
      }
    }
    for (const w of workflows)
      if (!rows.some((r) => w.workflowId.endsWith(`-${r.id}`))) {
        duplicated++;
        problems.push(`workflow ${w.workflowId} has no read-model row`);
      }
    const notCompleted = rows.filter((r) => r.status !== 'completed').length;
    const stuckRes = await request('read', '/api/v1/workflow/process-instances/stuck?pageSize=200', admin);
    const stuck = ((stuckRes.body?.data?.items ?? []) as any[]).filter((i) => i.processKey === SOAK_PROCESS).length;

    const writes = attempts.filter((a) => a.op !== 'read');
    // 5xx after each recovery, until the next fault.
    for (const [i, w] of windows.entries()) {
      const until = windows[i + 1]?.killedAt ?? Infinity;
      w.http5xxAfter = attempts.filter((a) => a.status >= 500 && a.at > w.recoveredAt && a.at < until).length;
    }
    const report: SoakReport = {
      instances: rows.length,
      requests: {
        total: attempts.length,
        writes: writes.length,
        reads: attempts.length - writes.length,
        ok: attempts.filter((a) => a.status > 0 && a.status < 300).length,
        http5xx: attempts.filter((a) => a.status >= 500).length,
        noAnswer: attempts.filter((a) => a.status === 0).length,
      },
      resent,
      acknowledged: {
        starts: ackStarts.size,
        approves: [...ackApproves.values()].reduce((n, s) => n + s.size, 0),
      },
      failedWrites,
      refusedRetries,
      windows,
      http5xxBeforeFaults: attempts.filter((a) => a.status >= 500 && a.at < (windows[0]?.killedAt ?? Infinity)).length,
      audit: {
        lost,
        duplicated,
        readModelMismatches,
        notCompleted,
        stuck,
        openIntents,
        intentsDrainedMs,
        problems: problems.slice(0, 50),
      },
      wallSeconds: Math.round((Date.now() - began) / 1000),
    };
    return report;
  } finally {
    await db.end();
    await connection.close();
  }
}

/** What the processes say when a fault does not heal: pollers, running workflows, log tails. */
async function diagnostics(stack: ProductionStack, lastWriteOk: number[]): Promise<string> {
  const out: string[] = [
    `last acknowledged write per server: ${lastWriteOk.map((t) => new Date(t).toISOString()).join(', ')}`,
  ];
  for (const cmd of [
    `temporal task-queue describe --task-queue ${stack.taskQueue}`,
    `temporal workflow list --query "ExecutionStatus='Running'" --limit 3`,
  ])
    out.push(
      `$ ${cmd}\n${await stack
        .shell(cmd)
        .then((r) => r.stdout)
        .catch((e: Error) => e.message)}`,
    );
  for (const f of readdirSync(stack.logDir))
    out.push(
      `--- ${f}\n${readFileSync(path.join(stack.logDir, f), 'utf8')
        .split('\n')
        .filter((l) => !l.includes('/readyz'))
        .slice(-15)
        .map((l) => l.slice(0, 400))
        .join('\n')}`,
    );
  return out.join('\n');
}

/** The report as the lines the test prints. */
export function soakLines(r: SoakReport): string[] {
  return [
    `fault soak: ${r.instances} instances, ${r.requests.total} requests (${r.requests.writes} writes, ${r.requests.reads} reads; ${r.requests.ok} 2xx, ${r.requests.http5xx} 5xx, ${r.requests.noAnswer} without answer), ${r.resent} writes re-sent to the other server, ${r.acknowledged.starts} starts and ${r.acknowledged.approves} approves acknowledged, ${r.failedWrites} writes failed for good, ${r.wallSeconds} s`,
    ...r.windows.map(
      (w) =>
        `fault soak: ${w.name.padEnd(20)} window ${String(w.windowMs).padStart(6)} ms, recovered ${String(w.recoveryMs).padStart(6)} ms after the restart; ${w.http5xx} × 5xx (${w.http503} × 503), ${w.noAnswer} without answer, ${w.writesOk} writes acknowledged; ${w.http5xxAfter} × 5xx after the recovery`,
    ),
    `fault soak: 5xx before the first fault: ${r.http5xxBeforeFaults}; retries refused after their first attempt took effect: ${r.refusedRetries.length}`,
    ...r.refusedRetries.map((x) => `fault soak refused retry: ${x}`),
    `fault soak audit: lost ${r.audit.lost}, duplicated ${r.audit.duplicated}, read model ≠ Temporal ${r.audit.readModelMismatches}, not completed ${r.audit.notCompleted}, stuck ${r.audit.stuck}, open intents ${r.audit.openIntents} (drained ${r.audit.intentsDrainedMs} ms after the load)`,
    ...r.audit.problems.map((p) => `fault soak problem: ${p}`),
  ];
}
