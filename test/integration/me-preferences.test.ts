// A user's own settings (docs/channels.md#preferences): PATCH /api/v1/me { locale } and
// GET/PUT /api/v1/me/notification-preferences — for any signed-in user, for themselves; every bad
// input a 400 that writes nothing.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { api, createDemoLikeTenant, expectError } from '../helpers/api.js';

describe('my settings', () => {
  let t: Record<string, string>;
  let tenantId: string;
  let mailId: string;
  let slackId: string;
  let db: any;

  const prefs = (token: string) => api('/api/v1/me/notification-preferences', { token });
  const putPrefs = (token: string, body: unknown, headers?: Record<string, string>) =>
    api('/api/v1/me/notification-preferences', { method: 'PUT', token, body, headers });

  beforeAll(async () => {
    ({ tenantId, tokens: t } = await createDemoLikeTenant('prefs'));
    db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    const mail = await api('/api/v1/notification-channels', {
      token: t.admin,
      body: {
        name: 'mail',
        kind: 'email',
        kinds: ['task_assigned', 'urge', 'cc'],
        settings: { host: 'localhost', port: 2525, tls: 'none', from: 'ops@prefs.example.test' },
      },
    });
    expect(mail.status, JSON.stringify(mail.body)).toBe(201);
    mailId = mail.body.data.id;
    const slack = await api('/api/v1/notification-channels', {
      token: t.admin,
      body: { name: 'slack', kind: 'webhook', settings: { url: 'http://localhost:9/hook', secret: 'a'.repeat(16) } },
    });
    expect(slack.status, JSON.stringify(slack.body)).toBe(201);
    slackId = slack.body.data.id;
  });

  afterAll(async () => {
    await db?.end();
  });

  it('sets my own language; /auth/me answers it; null gives the choice back to the browser', async () => {
    const res = await api('/api/v1/me', { method: 'PATCH', token: t.alice, body: { locale: 'zh-CN' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.user).toMatchObject({ id: 'alice', locale: 'zh-CN' });
    expect((await api('/api/v1/auth/me', { token: t.alice })).body.data.user.locale).toBe('zh-CN');
    // Only my entry: bob's stays as it was.
    expect((await api('/api/v1/auth/me', { token: t.bob })).body.data.user.locale).toBeNull();
    const cleared = await api('/api/v1/me', { method: 'PATCH', token: t.alice, body: { locale: null } });
    expect(cleared.body.data.user.locale).toBeNull();
  });

  it('refuses any other field or language with 400, and changes nothing', async () => {
    await api('/api/v1/me', { method: 'PATCH', token: t.alice, body: { locale: 'en' } });
    for (const body of [
      { locale: 'fr' },
      { locale: 'zh-CN', displayName: 'Mallory' },
      { roles: ['admin'] },
      { locale: 'zh-CN', active: false },
      {},
    ]) {
      const res = await api('/api/v1/me', { method: 'PATCH', token: t.alice, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const me = (await api('/api/v1/auth/me', { token: t.alice })).body.data;
    expect(me.user).toMatchObject({ displayName: 'alice', locale: 'en' });
    expect(me.roles).toEqual(['employee']);
    expect((await api('/api/v1/me', { method: 'PATCH', body: { locale: 'en' } })).status).toBe(401);
  });

  it('answers the defaults and the tenant’s channels before anything is saved', async () => {
    const res = await prefs(t.bob);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      channels: {},
      timeZone: 'UTC',
      quietHours: null,
      digest: null,
      digestNextAt: null,
      updatedAt: null,
    });
    const { available } = res.body.data;
    expect(available.channels.map((c: any) => c.name)).toEqual(['mail', 'slack']);
    expect(available.channels[0]).toMatchObject({ id: mailId, kind: 'email', kinds: ['task_assigned', 'urge', 'cc'] });
    expect(available.urgentKinds).toEqual(['urge', 'task_overdue']);
    expect(available.digestKinds).toEqual(['task_assigned', 'task_claimable']);
    expect(available.kinds).toContain('task_assigned');
  });

  it('saves kinds per channel, quiet hours and a digest for the caller only', async () => {
    const before = Date.now();
    const res = await putPrefs(t.bob, {
      channels: { [mailId]: ['urge', 'cc', 'urge'], [slackId]: [] },
      timeZone: 'Asia/Shanghai',
      quietHours: { start: '22:00', end: '07:30' },
      digest: { hour: 8 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      channels: { [mailId]: ['urge', 'cc'], [slackId]: [] },
      timeZone: 'Asia/Shanghai',
      quietHours: { start: '22:00', end: '07:30', allowUrgent: true },
      digest: { hour: 8 },
    });
    // The next digest: 08:00 in Shanghai (00:00 UTC), within the next day.
    const next = new Date(d.digestNextAt);
    expect(next.getUTCHours()).toBe(0);
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime() - before).toBeLessThanOrEqual(24 * 3600_000);
    expect((await prefs(t.bob)).body.data).toMatchObject({ timeZone: 'Asia/Shanghai', digest: { hour: 8 } });
    expect((await prefs(t.alice)).body.data.updatedAt).toBeNull();
    // Replaced as a whole: what is left out takes its default.
    const reset = await putPrefs(t.bob, { timeZone: 'Europe/Berlin' });
    expect(reset.body.data).toMatchObject({ channels: {}, quietHours: null, digest: null, digestNextAt: null });
  });

  it('refuses a bad zone, hour, time or kind with 400, an unknown channel with 404, and writes nothing', async () => {
    const good = { timeZone: 'Europe/Paris', quietHours: { start: '21:00', end: '06:00', allowUrgent: false } };
    expect((await putPrefs(t.carol, good)).status).toBe(200);
    const bad: Array<[unknown, string]> = [
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ timeZone: '+01:00' }, 'timeZone'],
      [{ digest: { hour: 24 } }, 'digest.hour'],
      [{ digest: { hour: 7.5 } }, 'digest.hour'],
      [{ digest: { hour: -1 } }, 'digest.hour'],
      [{ quietHours: { start: '24:00', end: '06:00' } }, 'quietHours.start'],
      [{ quietHours: { start: '9:00', end: '06:00' } }, 'quietHours.start'],
      [{ quietHours: { start: '21:00' } }, 'quietHours.end'],
      [{ channels: { [mailId]: ['no_such_kind'] } }, `channels.${mailId}.0`],
      [{ channels: { [mailId]: 'urge' } }, `channels.${mailId}`],
      [{ quietHours: { start: '21:00', end: '06:00', extra: 1 } }, 'quietHours'],
      [{ colour: 'blue' }, ''],
    ];
    for (const [body, path] of bad) {
      const res = await putPrefs(t.carol, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(
        (res.body.data?.fields ?? []).some((f: any) => f.path === path || f.path.startsWith(`${path}.`) || !path),
        JSON.stringify(res.body),
      ).toBe(true);
    }
    // A channel the tenant does not have: 404 REFERENCE_NOT_FOUND naming it, as for every reference in a body.
    const unknown = await putPrefs(t.carol, { channels: { 'no-such-channel': ['urge'], [mailId]: ['urge'] } });
    expectError(unknown, 404, 40410);
    expect(unknown.body.data.fields).toEqual([
      { path: 'channels.no-such-channel', message: 'no such notification channel' },
    ]);
    expect((await prefs(t.carol)).body.data).toMatchObject(good);
    // In the caller's language, same code.
    const zh = await putPrefs(t.carol, { digest: { hour: 25 } }, { 'Accept-Language': 'zh-CN' });
    expectError(zh, 400, 40001);
    expect(zh.body.message).toMatch(/请求参数校验未通过/);
  });

  it('a channel of another tenant is unknown here', async () => {
    const other = await createDemoLikeTenant('prefs-other');
    const res = await putPrefs(other.tokens.alice, { channels: { [mailId]: ['urge'] } });
    expectError(res, 404, 40410);
    expect(res.body.data.fields[0].path).toBe(`channels.${mailId}`);
  });

  it('saving releases messages held for quiet hours, to be decided again at once', async () => {
    // A delivery held until tomorrow, as the dispatcher leaves it (in the notification's own transaction,
    // so no dispatcher sees it due before).
    const held = new Date(Date.now() + 86_400_000);
    await db.query('begin');
    const [{ id }] = (
      await db.query(
        `insert into notifications (dedupe_key, tenant_id, user_id, kind, payload) values ($1, $2, 'dave', 'cc', '{}') returning id`,
        [`prefs-held-${Date.now()}`, tenantId],
      )
    ).rows;
    await db.query(
      `update notification_deliveries set next_attempt_at = $2, held_until = $2 where notification_id = $1`,
      [id, held],
    );
    await db.query('commit');
    const rowsOf = async () =>
      (await db.query(`select status, next_attempt_at from notification_deliveries where notification_id = $1`, [id]))
        .rows as Array<{ status: string; next_attempt_at: Date }>;
    const before = await rowsOf();
    expect(before.map((r) => [r.status, new Date(r.next_attempt_at).getTime()])).toEqual([
      ['pending', held.getTime()],
      ['pending', held.getTime()],
    ]);
    expect((await putPrefs(t.dave, { timeZone: 'UTC' })).status).toBe(200);
    for (const r of await rowsOf())
      expect(r.status !== 'pending' || new Date(r.next_attempt_at).getTime() <= Date.now()).toBe(true);
  });
});
