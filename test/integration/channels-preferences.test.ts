// Preferences at send time (docs/channels.md#preferences), against a real SMTP server and the real
// dispatcher: quiet hours hold a task message and release it when the window ends (the dispatcher's
// clock is injected, so the night passes at once), urgent kinds pass through, a kind turned off is
// skipped, and the daily digest lists the user's open tasks only, is sent once with two dispatchers,
// and is sent again with the same Message-ID after a crash.
import { DateTime } from 'luxon';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createOrm, type Orm } from '../../src/db/orm.js';
import { createLogger } from '../../src/observability/logger.js';
import { Dispatcher } from '../../src/notifications/dispatcher.js';
import { api, baseUrl, createDemoLikeTenant } from '../helpers/api.js';
import { actOk, deploy, eventually, myTask, oneStep, start } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';
import { startMailbox, to, type Mailbox } from '../helpers/smtp-receiver.js';

const ZONE = 'Asia/Shanghai';
const hhmm = (d: DateTime) => d.toFormat('HH:mm');

describe('preferences at send time', () => {
  let t: Record<string, string>;
  let tenantId: string;
  let mailbox: Mailbox;
  let channelId: string;
  let db: any;
  let orm: Orm;
  const running: Dispatcher[] = [];

  /** A real dispatcher in this process whose clock reads `at()`. */
  async function dispatcher(at: () => Date) {
    const config = loadConfig({
      NODE_ENV: 'test',
      DATABASE_URL: inject('databaseUrl'),
      JWT_SECRET: inject('jwtSecret'),
      PUBLIC_URL: baseUrl(),
      HTTP_CALL_ALLOW_PRIVATE_HOSTS: 'localhost',
      NOTIFY_POLL_MS: '200',
      NOTIFY_LEASE_SECONDS: '3',
      NOTIFY_RETRY_BASE_MS: '200',
    });
    const d = new Dispatcher({
      orm,
      config,
      logger: createLogger('warn', 'test-dispatcher'),
      databaseUrl: inject('databaseUrl'),
      clock: at,
      tenantId,
    });
    await d.start();
    running.push(d);
    return d;
  }
  const stopAll = async () => {
    for (const d of running.splice(0)) await d.stop();
  };
  const putPrefs = async (token: string, body: unknown) => {
    const res = await api('/api/v1/me/notification-preferences', { method: 'PUT', token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const deliveries = async (query: string) =>
    (await api(`/api/v1/notification-deliveries?pageSize=200&channelId=${channelId}${query}`, { token: t.admin })).body
      .data.items as any[];
  const linksOf = (text: string) => ({
    approve: [...text.matchAll(/(http:\/\/\S+\/l\/\S+\?action=approve)/g)].map((m) => m[1]!),
    reject: [...text.matchAll(/(http:\/\/\S+\/l\/\S+\?action=reject)/g)].map((m) => m[1]!),
  });

  beforeAll(async () => {
    ({ tenantId, tokens: t } = await createDemoLikeTenant('quiet'));
    mailbox = await startMailbox();
    db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    orm = await createOrm(inject('databaseUrl'));
    for (const id of ['bob', 'erin', 'frank', 'grace'])
      await api(`/api/v1/users/${id}`, { method: 'PATCH', token: t.admin, body: { email: `${id}@${tenantId}.test` } });
    const ch = await api('/api/v1/notification-channels', {
      token: t.admin,
      body: {
        name: 'mail',
        kind: 'email',
        settings: { host: 'localhost', port: mailbox.port, tls: 'none', from: 'Approvals <ops@quiet.example.test>' },
      },
    });
    expect(ch.status, JSON.stringify(ch.body)).toBe(201);
    channelId = ch.body.data.id;
    await deploy(t.admin, oneStep('quiet_leave', users('bob')));
    await deploy(t.admin, oneStep('digest_leave', users('erin')));
    await deploy(t.admin, oneStep('frank_leave', users('frank')));
    await deploy(t.admin, oneStep('grace_leave', users('grace')));
  });

  afterAll(async () => {
    await stopAll();
    await orm?.close();
    await mailbox?.close();
    await db?.end();
  });

  it('quiet hours hold a task message until the window ends; an urge passes through', async () => {
    // A window around the real time in Shanghai: the worker's own dispatcher (real clock) holds too.
    const local = DateTime.now().setZone(ZONE);
    const prefs = await putPrefs(t.bob, {
      timeZone: ZONE,
      quietHours: { start: hhmm(local.minus({ hours: 1 })), end: hhmm(local.plus({ hours: 2 })), allowUrgent: true },
    });
    expect(prefs.quietHours.allowUrgent).toBe(true);
    const instanceId = await start(t.alice, 'quiet_leave', {}, 'Q-1');
    const task = await myTask(t.bob, instanceId);
    const [held] = await eventually(
      () => deliveries('&userId=bob&kind=task_assigned'),
      (rows) => rows.length === 1 && rows[0].heldUntil !== null,
    );
    expect(held).toMatchObject({ status: 'pending', attempts: 0, sentAt: null });
    // It waits for the window's end: HH:MM in Shanghai, within the next two hours.
    const end = DateTime.fromISO(held.heldUntil).setZone(ZONE);
    expect(hhmm(end)).toBe(prefs.quietHours.end);
    expect(held.nextAttemptAt).toBe(held.heldUntil);
    expect(end.toMillis() - Date.now()).toBeLessThanOrEqual(2 * 3600_000);
    // An urgent kind is not held.
    const urged = await api(`/api/v1/workflow/tasks/urge/${task.id}`, { token: t.alice, body: { message: 'now' } });
    expect(urged.status, JSON.stringify(urged.body)).toBe(200);
    const [reminder] = await mailbox.waitFor((all) =>
      to('bob@' + tenantId + '.test')(all).filter((m) => m.subject?.includes('Reminder')),
    );
    expect(reminder.text).toContain('Q-1');
    expect(to(`bob@${tenantId}.test`)(mailbox.messages).filter((m) => m.subject?.includes('Approval needed'))).toEqual(
      [],
    );

    // The night passes: a dispatcher whose clock reads a minute after the window releases it.
    await dispatcher(() => new Date(end.toMillis() + 60_000));
    const [released] = await mailbox.waitFor((all) =>
      to(`bob@${tenantId}.test`)(all).filter((m) => m.subject?.includes('Approval needed') && m.text?.includes('Q-1')),
    );
    expect(released.messageId).toMatch(new RegExp(`\\.${channelId}@quiet\\.example\\.test>$`));
    const [sent] = await eventually(
      () => deliveries('&userId=bob&kind=task_assigned'),
      (rows) => rows[0]?.status === 'sent',
    );
    // Held once, sent on its first real attempt.
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 1,
      messageId: released.messageId,
      heldUntil: held.heldUntil,
    });
    await stopAll();
  });

  it('urgent kinds wait too when the user does not let them through; a kind turned off is skipped', async () => {
    const local = DateTime.now().setZone(ZONE);
    await putPrefs(t.frank, {
      timeZone: ZONE,
      channels: { [channelId]: ['urge', 'task_overdue'] },
      quietHours: { start: hhmm(local.minus({ hours: 1 })), end: hhmm(local.plus({ hours: 1 })), allowUrgent: false },
    });
    const instanceId = await start(t.alice, 'frank_leave', {}, 'F-1');
    const task = await myTask(t.frank, instanceId);
    const [assigned] = await eventually(
      () => deliveries('&userId=frank&kind=task_assigned'),
      (rows) => rows[0]?.status === 'skipped',
    );
    expect(assigned.lastError).toBe('turned off in the recipient’s preferences');
    const urged = await api(`/api/v1/workflow/tasks/urge/${task.id}`, { token: t.alice, body: {} });
    expect(urged.status).toBe(200);
    const [urge] = await eventually(
      () => deliveries('&userId=frank&kind=urge'),
      (rows) => rows[0]?.heldUntil !== null && rows[0]?.heldUntil !== undefined,
    );
    expect(urge.status).toBe('pending');
    expect(to(`frank@${tenantId}.test`)(mailbox.messages)).toEqual([]);
  });

  it('the daily digest lists the user’s open tasks only, is sent once by two dispatchers, and again with the same Message-ID after a crash', async () => {
    // The digest hour lies ahead in real time, so the worker's own dispatcher does not plan it.
    const hour = DateTime.now().setZone(ZONE).plus({ hours: 3 }).hour;
    const prefs = await putPrefs(t.erin, { timeZone: ZONE, digest: { hour } });
    const due = new Date(prefs.digestNextAt);
    expect(DateTime.fromJSDate(due).setZone(ZONE).hour).toBe(hour);
    expect(due.getTime()).toBeGreaterThan(Date.now());

    const ids = [];
    for (const key of ['D-1', 'D-2', 'D-3']) ids.push(await start(t.alice, 'digest_leave', {}, key));
    // Per-task messages are left to the digest.
    const skipped = await eventually(
      () => deliveries('&userId=erin&kind=task_assigned'),
      (rows) => rows.length === 3 && rows.every((r) => r.status === 'skipped'),
    );
    expect(new Set(skipped.map((r) => r.lastError))).toEqual(new Set(['in the recipient’s daily digest']));
    // D-2 is decided before the digest: it is not in it. Bob's open task is not erin's.
    await actOk(t.erin, (await myTask(t.erin, ids[1]!)).id, 'approve', { comment: 'ok' });

    // Two dispatchers whose clocks read a minute past the digest hour plan and send it: once.
    const at = () => new Date(due.getTime() + 60_000);
    await Promise.all([dispatcher(at), dispatcher(at)]);
    const [digest] = await mailbox.waitFor((all) =>
      to(`erin@${tenantId}.test`)(all).filter((m) => m.subject?.startsWith('Your open approvals')),
    );
    await new Promise((r) => setTimeout(r, 2_000));
    const digests = () =>
      to(`erin@${tenantId}.test`)(mailbox.messages).filter((m) => m.subject?.startsWith('Your open approvals'));
    expect(digests()).toHaveLength(1);
    expect(digest.subject).toBe('Your open approvals: 2 tasks');
    expect(digest.text).toContain('D-1');
    expect(digest.text).toContain('D-3');
    expect(digest.text).not.toContain('D-2');
    expect(digest.text).not.toContain('Q-1');
    expect(digest.html).toContain('>Approve 1</a>');
    const links = linksOf(digest.text!);
    expect(links.approve).toHaveLength(2);
    expect(links.reject).toHaveLength(2);
    expect(digest.messageId).toMatch(new RegExp(`^<digest\\.\\d+\\.${channelId}@quiet\\.example\\.test>$`));
    const rows = await deliveries('&userId=erin&kind=digest');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'sent',
      notificationId: null,
      digestDate: DateTime.fromJSDate(due).setZone(ZONE).toISODate(),
      messageId: digest.messageId,
    });
    // The next one is due a day later.
    const after = (await api('/api/v1/me/notification-preferences', { token: t.erin })).body.data;
    expect(new Date(after.digestNextAt).getTime() - due.getTime()).toBe(24 * 3600_000);

    // A dispatcher that died after sending but before recording: the row is still claimed, its
    // lease runs out, and it is sent again with the same Message-ID and the same links.
    await db.query(
      `update notification_deliveries set status = 'sending', lease_owner = 'dead', lease_until = now() - interval '1 second'
        where id = $1`,
      [rows[0].id],
    );
    await eventually(
      async () => digests().length,
      (n) => n === 2,
    );
    const [first, second] = digests();
    expect(second!.messageId).toBe(first!.messageId);
    // The same one-time links (signed again: the link id is the same).
    const linkIds = (urls: string[]) =>
      urls.map((u) => JSON.parse(Buffer.from(u.split('/l/')[1]!.split('.')[1]!, 'base64url').toString()).jti);
    expect(linkIds(linksOf(second!.text!).approve)).toEqual(linkIds(links.approve));
    await stopAll();

    // A link from the digest decides its task once, on its confirm page.
    const approve = links.approve[0]!.replace(/^http:\/\/[^/]+/, baseUrl());
    const page = await fetch(approve);
    expect(page.status).toBe(200);
    const posted = await fetch(approve, {
      method: 'POST',
      body: new URLSearchParams({ action: 'approve', comment: '' }),
    });
    expect(posted.status, await posted.text()).toBe(200);
    const open = (await api('/api/v1/workflow/process-instances/todo?pageSize=50', { token: t.erin })).body.data.items;
    expect(open).toHaveLength(1); // D-3: D-1 by the link, D-2 before the digest
  });

  it('a digest speaks its recipient’s language', async () => {
    await api('/api/v1/me', { method: 'PATCH', token: t.grace, body: { locale: 'zh-CN' } });
    const hour = DateTime.now().setZone(ZONE).plus({ hours: 5 }).hour;
    const prefs = await putPrefs(t.grace, { timeZone: ZONE, digest: { hour } });
    await start(t.alice, 'grace_leave', {}, 'G-1');
    await eventually(
      () => deliveries('&userId=grace&kind=task_assigned'),
      (rows) => rows[0]?.status === 'skipped',
    );
    await dispatcher(() => new Date(new Date(prefs.digestNextAt).getTime() + 60_000));
    const [digest] = await mailbox.waitFor(to(`grace@${tenantId}.test`));
    await stopAll();
    expect(digest.subject).toBe('您有 1 项待办审批');
    expect(digest.text).toContain('G-1');
    expect(digest.html).toContain('>同意 1</a>');
    expect(digest.html).toContain('>驳回 1</a>');
  });
});
