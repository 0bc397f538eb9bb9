// Delivery that survives a crash (docs/channels.md#delivery-guarantees): two dispatcher processes and
// the worker's own dispatcher share a batch of 500 e-mails; one is killed with SIGKILL mid-batch. Every
// message arrives, and only a message the killed process had sent but not yet recorded can arrive twice
// — with the same Message-ID, so mail clients drop the copy.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createTenant } from '../helpers/api.js';
import { deploy, eventually, oneStep, start } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';
import { startMailbox, type Mailbox } from '../helpers/smtp-receiver.js';

const root = path.resolve(import.meta.dirname, '../..');
const COUNT = 500;

function dispatcher(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'dispatcher.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: inject('databaseUrl'),
      JWT_SECRET: inject('jwtSecret'),
      HTTP_CALL_ALLOW_PRIVATE_HOSTS: 'localhost',
      NOTIFY_CONCURRENCY: '16',
      NOTIFY_LEASE_SECONDS: '3',
      NOTIFY_POLL_MS: '200',
      NOTIFY_RETRY_BASE_MS: '200',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

describe('dispatcher crash', () => {
  let db: any;
  let mailbox: Mailbox;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    // A pause before each 250 reply: the kill lands while messages are in flight.
    mailbox = await startMailbox({ delayMs: 20 });
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await mailbox?.close();
    await db?.end();
  });

  it(`a dispatcher killed mid-batch loses nothing: ${COUNT} messages, each delivered, none twice but what it had not recorded`, async () => {
    const { tenantId, adminToken } = await createTenant('kill');
    await api('/api/v1/users', {
      token: adminToken,
      body: { id: 'u1', username: 'u1', password: 'pw-u1', email: 'u1@kill.example.test' },
    });
    const ch = await api('/api/v1/notification-channels', {
      token: adminToken,
      body: {
        name: 'mail',
        kind: 'email',
        kinds: ['cc'],
        settings: { host: 'localhost', port: mailbox.port, tls: 'none', from: 'ops@kill.example.test' },
      },
    });
    expect(ch.status, JSON.stringify(ch.body)).toBe(201);
    const channelId: string = ch.body.data.id;
    await deploy(adminToken, oneStep('kill', users('u1')));
    const instanceId = await start(adminToken, 'kill', { amount: 1 });

    const listeners = async () =>
      (await db.query(`select count(*)::int as n from pg_stat_activity where application_name = 'approvals-notifier'`))
        .rows[0].n as number;
    const before = await listeners();
    const a = dispatcher();
    const b = dispatcher();
    children.push(a, b);
    // Both LISTEN (they are up) before the batch lands.
    await eventually(listeners, (n) => n >= before + 2, 60_000);
    // The outbox rows, as the projection writes them: the trigger adds one delivery each.
    await db.query(
      `insert into notifications (dedupe_key, tenant_id, user_id, kind, instance_id, payload)
       select 'kill:' || g, $1, 'u1', 'cc', $2, '{"activityId":"approve"}' from generate_series(1, ${COUNT}) g`,
      [tenantId, instanceId],
    );
    await db.query(`select pg_notify('notifications', '{}')`);
    const ours = () => mailbox.messages.filter((m) => m.messageId?.includes(`.${channelId}@`));
    // A dies while it holds claimed deliveries it has not recorded (mid-batch).
    const owner = `:${a.pid}:`;
    const held = await eventually(
      async () =>
        (
          await db.query(
            `select count(*)::int as n from notification_deliveries where channel_id = $1 and status = 'sending' and position($2 in lease_owner) > 0`,
            [channelId, owner],
          )
        ).rows[0].n as number,
      (n) => n > 0,
      60_000,
    );
    a.kill('SIGKILL');
    await new Promise((r) => a.once('exit', r));
    // What it held when it died: still claimed in its name (until the lease runs out).
    const heldAtDeath = (
      await db.query(
        `select count(*)::int as n from notification_deliveries where channel_id = $1 and status = 'sending' and position($2 in lease_owner) > 0`,
        [channelId, owner],
      )
    ).rows[0].n as number;
    expect(held).toBeGreaterThan(0);
    const sentByA = await db.query(
      `select count(*)::int as n from notification_deliveries where channel_id = $1 and status = 'sent'`,
      [channelId],
    );
    expect(sentByA.rows[0].n).toBeLessThan(COUNT); // it died mid-batch

    const rows = await eventually(
      async () =>
        (
          await db.query(
            `select status, count(*)::int as n from notification_deliveries where channel_id = $1 group by status`,
            [channelId],
          )
        ).rows as Array<{ status: string; n: number }>,
      (r) => r.length === 1 && r[0].status === 'sent' && r[0].n === COUNT,
      90_000,
    );
    expect(rows).toEqual([{ status: 'sent', n: COUNT }]);
    await eventually(
      async () => new Set(ours().map((m) => m.messageId)).size,
      (n) => n === COUNT,
      10_000,
    );
    const ids = ours().map((m) => m.messageId!);
    const distinct = new Set(ids);
    expect(distinct.size).toBe(COUNT); // every message delivered
    const duplicates = ids.length - distinct.size;
    // Only what A had sent but not recorded when it died may come twice (same Message-ID): at most
    // what it held, which is at most NOTIFY_CONCURRENCY.
    expect(duplicates).toBeLessThanOrEqual(Math.max(heldAtDeath, 0));
    expect(heldAtDeath).toBeLessThanOrEqual(16);
    // Each delivery row names the Message-ID that arrived.
    const recorded = await db.query(`select message_id from notification_deliveries where channel_id = $1`, [
      channelId,
    ]);
    expect(new Set(recorded.rows.map((r: any) => r.message_id))).toEqual(distinct);
    console.log(
      `dispatcher kill: ${COUNT} delivered, ${duplicates} duplicate(s) by Message-ID, ${heldAtDeath} held by the killed process when it died`,
    );
  }, 180_000);
});
