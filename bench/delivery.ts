// The delivery phase of `npm run bench` (docs/performance.md, "Delivery: task messages to an SMTP server"): task messages through the
// notification outbox, the dispatcher in the worker and the e-mail channel, to an SMTP server in this
// process. Real tasks (instances started over HTTP), then BENCH_DELIVERY notification rows inserted
// at once as the projection inserts them (with their NOTIFY), each a `task_assigned` for its task's
// assignee: rendered from the templates, with a one-time approval link minted per message. Figures:
// messages per second (first row created → last message accepted), latency from the notification
// row's creation to the SMTP server accepting the message (p50/p95/p99), duplicates by Message-ID,
// and the delivery rows' final states.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Orm } from '../src/db/orm.js';

type Stats = { n: number; p50: number; p95: number; p99: number; max: number };

export interface DeliveryOptions {
  orm: Orm;
  base: string;
  tokens: Record<string, string>;
  call(base: string, urlPath: string, token?: string, body?: unknown, method?: string): Promise<any>;
  stats(ms: number[]): Stats;
  processKey: string;
  /** Who the process's first task goes to (gets an e-mail address). */
  approver: string;
  count: number;
  /** Real instances (tasks) the messages are about. */
  instances: number;
  timeoutS: number;
  run: string;
}

/** An SMTP server that records each message's Message-ID and when it was accepted (headers only, nothing parsed beyond). */
async function startSink() {
  const arrivals: Array<{ id: string; at: number }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1_000_000,
    onData(stream, _session, done) {
      let head = '';
      let found = false;
      stream.on('data', (chunk: Buffer) => {
        if (found || head.length > 64_000) return;
        head += chunk.toString('latin1');
        const m = head.match(/^Message-ID:\s*(<[^>]+>)/im);
        if (m) {
          found = true;
          arrivals.push({ id: m[1], at: Date.now() });
        }
      });
      stream.on('end', () => {
        if (!found) arrivals.push({ id: '(none)', at: Date.now() });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = ((server as any).server.address() as AddressInfo).port;
  return { port, arrivals, close: () => new Promise<void>((r) => server.close(() => r())) };
}

export async function deliveryPhase(o: DeliveryOptions) {
  const em = () => o.orm.em.fork();
  const sink = await startSink();
  try {
    await o.call(
      o.base,
      `/api/v1/users/${o.approver}`,
      o.tokens.admin,
      { email: `${o.approver}@bench.example.test` },
      'PATCH',
    );
    // Real tasks first: the messages name them, and their links are minted for them.
    const instanceIds: string[] = [];
    for (let i = 0; i < o.instances; i++) {
      const started = await o.call(o.base, '/api/v1/workflow/process-instances/start', o.tokens.alice, {
        processKey: o.processKey,
        businessKey: `DLV-${o.run}-${i}`,
        variables: { amount: i },
      });
      instanceIds.push(started.instanceId);
    }
    let tasks: Array<{ id: string; instance_id: string; assignee: string; name: string; activity_id: string }> = [];
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      tasks = await em().execute(
        `select id, instance_id, assignee, name, activity_id from tasks
          where instance_id = any(array(select jsonb_array_elements_text(?::jsonb))) and status = 'active' and assignee = ?`,
        [JSON.stringify(instanceIds), o.approver],
      );
      if (tasks.length >= instanceIds.length) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    if (!tasks.length) throw new Error('delivery: no active tasks to write about');
    // The channel comes after those tasks' own notifications (a channel sends only what comes after it).
    const channel = await o.call(o.base, '/api/v1/notification-channels', o.tokens.admin, {
      name: `bench-mail-${o.run}`,
      kind: 'email',
      kinds: ['task_assigned'],
      settings: { host: 'localhost', port: sink.port, tls: 'none', from: 'Bench <bench@bench.example.test>' },
    });
    const [{ tenant_id: tenantId }] = await em().execute(`select tenant_id from tasks where id = ?`, [tasks[0].id]);

    console.log(`delivery: ${o.count} task messages over ${tasks.length} tasks to the SMTP server on :${sink.port}…`);
    const created = new Map<string, number>();
    const t0 = Date.now();
    const BATCH = 1000;
    for (let from = 0; from < o.count; from += BATCH) {
      const rows = [];
      for (let i = from; i < Math.min(o.count, from + BATCH); i++) {
        const t = tasks[i % tasks.length];
        rows.push({
          key: `bench-delivery:${o.run}:${i}`,
          user_id: t.assignee,
          kind: 'task_assigned',
          instance_id: t.instance_id,
          task_id: t.id,
          payload: JSON.stringify({ activityId: t.activity_id, name: t.name }),
        });
      }
      // As the projection writes them: one NOTIFY per row, in the same transaction.
      const inserted = await em().execute<Array<{ id: string; at: Date }>>(
        `with ins as (
           insert into notifications (dedupe_key, tenant_id, user_id, kind, instance_id, task_id, payload)
           select r.key, ?, r.user_id, r.kind, r.instance_id, r.task_id, r.payload::jsonb
             from jsonb_to_recordset(?::jsonb) as r(key text, user_id text, kind text, instance_id text, task_id text, payload text)
           returning id, tenant_id, user_id, created_at)
         select id::text as id, created_at as at,
                pg_notify('notifications', json_build_object('id', id::text, 'tenantId', tenant_id, 'userId', user_id)::text)
           from ins order by id`,
        [tenantId, JSON.stringify(rows)],
      );
      for (const r of inserted) created.set(r.id, new Date(r.at).getTime());
    }
    const insertMs = Date.now() - t0;

    const idOf = (messageId: string) => messageId.match(/^<n(\d+)\./)?.[1] ?? null;
    const ours = () => sink.arrivals.filter((a) => created.has(idOf(a.id) ?? ''));
    const until = Date.now() + o.timeoutS * 1000;
    let lastReport = 0;
    for (;;) {
      const unique = new Set(ours().map((a) => a.id)).size;
      if (unique >= o.count) break;
      const [{ open }] = await em().execute(
        `select count(*)::int as open from notification_deliveries where channel_id = ? and status in ('pending', 'sending')`,
        [channel.id],
      );
      if (open === 0 && unique > 0) break; // everything settled (some may have failed: counted below)
      if (Date.now() > until) break;
      if (Date.now() - lastReport > 10_000) {
        lastReport = Date.now();
        console.log(`delivery: ${unique} of ${o.count} delivered, ${open} open`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const arrived = ours();
    const seen = new Map<string, number>();
    for (const a of arrived) seen.set(a.id, (seen.get(a.id) ?? 0) + 1);
    const duplicates = [...seen.values()].reduce((n, c) => n + (c - 1), 0);
    const firstAt = new Map<string, number>();
    for (const a of arrived) if (!firstAt.has(a.id)) firstAt.set(a.id, a.at);
    const latencies = [...firstAt.entries()].map(([mid, at]) => at - created.get(idOf(mid)!)!);
    const firstCreated = Math.min(...created.values());
    const lastArrival = Math.max(...firstAt.values());
    const states = await em().execute<Array<{ status: string; n: number }>>(
      `select status, count(*)::int as n from notification_deliveries where channel_id = ? group by status order by status`,
      [channel.id],
    );
    const result = {
      messages: o.count,
      tasks: tasks.length,
      delivered: firstAt.size,
      duplicatesByMessageId: duplicates,
      seconds: Math.round((lastArrival - firstCreated) / 100) / 10,
      messagesPerSecond: Math.round((firstAt.size / ((lastArrival - firstCreated) / 1000)) * 10) / 10,
      insertMs,
      latencyMs: o.stats(latencies),
      deliveryStates: Object.fromEntries(states.map((s) => [s.status, s.n])),
    };
    console.log(
      `delivery: ${result.delivered}/${result.messages} delivered in ${result.seconds} s → ${result.messagesPerSecond} msg/s; ` +
        `creation → accepted p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, max ${result.latencyMs.max} ms; ` +
        `duplicates by Message-ID: ${result.duplicatesByMessageId}; rows ${JSON.stringify(result.deliveryStates)}`,
    );
    // The channel goes, so later phases send nothing.
    await o.call(o.base, `/api/v1/notification-channels/${channel.id}`, o.tokens.admin, undefined, 'DELETE');
    return result;
  } finally {
    await sink.close();
  }
}
