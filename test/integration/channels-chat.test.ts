// Chat channels against local receivers that check each platform's format and signature
// (docs/channels.md): Slack (Block Kit), Teams (Adaptive Card), Feishu/Lark (signed body),
// DingTalk (signed query), WeCom (markdown with a mention) and the generic webhook (signed like
// service functions). A wrong signing secret or a failing receiver ends in the delivery log.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant, expectError } from '../helpers/api.js';
import { PNG, upload } from '../helpers/attachments.js';
import { deploy, eventually, oneStep, start } from '../helpers/flow.js';
import { users } from '../helpers/dsl.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';

const FEISHU_SECRET = 'feishu-signing-secret';
const DINGTALK_SECRET = 'SECdingtalk-signing-secret';
const WEBHOOK_SECRET = 'webhook-secret-0123456789';

interface Received {
  path: string;
  query: URLSearchParams;
  headers: Record<string, unknown>;
  body: any;
  verified: boolean;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Feishu's check: base64(HMAC-SHA256(key = timestamp + "\n" + secret, "")), timestamp within an hour. */
function feishuOk(body: any) {
  const expected = createHmac('sha256', `${body.timestamp}\n${FEISHU_SECRET}`).update('').digest('base64');
  return (
    typeof body.sign === 'string' &&
    same(body.sign, expected) &&
    Math.abs(Date.now() / 1000 - Number(body.timestamp)) < 3600
  );
}

/** DingTalk's check: sign = base64(HMAC-SHA256(secret, timestamp + "\n" + secret)), timestamp (ms) within an hour. */
function dingtalkOk(query: URLSearchParams) {
  const timestamp = query.get('timestamp') ?? '';
  const expected = createHmac('sha256', DINGTALK_SECRET).update(`${timestamp}\n${DINGTALK_SECRET}`).digest('base64');
  return same(query.get('sign') ?? '', expected) && Math.abs(Date.now() - Number(timestamp)) < 3_600_000;
}

function webhookOk(headers: Record<string, unknown>, raw: string) {
  const timestamp = String(headers['x-gflow-timestamp']);
  const expected = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(`${timestamp}.${raw}`).digest('hex')}`;
  return same(String(headers['x-gflow-signature']), expected);
}

describe('chat channels', () => {
  let t: Record<string, string>;
  let receiver: Receiver;
  const received: Received[] = [];
  let failing = 0;
  const ids: Record<string, string> = {};

  const channel = async (body: unknown) => {
    const res = await api('/api/v1/notification-channels', { token: t.admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  const address = async (channelId: string, userId: string, value: string) => {
    const res = await api(`/api/v1/notification-channels/${channelId}/addresses/${userId}`, {
      method: 'PUT',
      token: t.admin,
      body: { address: value },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const url = (path: string) => `http://localhost:${receiver.port}${path}`;
  const at = (path: string, text: string) =>
    eventually(
      async () => received.filter((r) => r.path === path && JSON.stringify(r.body).includes(text)),
      (r) => r.length > 0,
    ).then((r) => r[0]);
  const deliveries = async (channelId: string) =>
    (await api(`/api/v1/notification-deliveries?channelId=${channelId}`, { token: t.admin })).body.data.items as any[];

  beforeAll(async () => {
    receiver = await startReceiver((req, raw, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      let body: any = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* recorded as null */
      }
      const reply = (status: number, answer: unknown) => {
        res.writeHead(status, { 'content-type': typeof answer === 'string' ? 'text/plain' : 'application/json' });
        res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
      };
      const record = (verified: boolean) =>
        received.push({ path: u.pathname, query: u.searchParams, headers: req.headers, body, verified });
      switch (u.pathname) {
        case '/slack':
          record(true);
          return reply(200, 'ok');
        case '/teams':
          record(true);
          return reply(202, '');
        case '/feishu':
        case '/feishu-wrong': {
          const ok = feishuOk(body);
          record(ok);
          return reply(
            200,
            ok
              ? { code: 0, msg: 'success', data: {} }
              : { code: 19021, msg: 'sign match fail or timestamp is not within one hour from current time' },
          );
        }
        case '/dingtalk': {
          const ok = dingtalkOk(u.searchParams);
          record(ok);
          return reply(200, ok ? { errcode: 0, errmsg: 'ok' } : { errcode: 310000, errmsg: 'sign not match' });
        }
        case '/wecom':
          record(true);
          return reply(200, { errcode: 0, errmsg: 'ok' });
        case '/webhook': {
          const ok = webhookOk(req.headers, raw);
          record(ok);
          return reply(ok ? 200 : 401, ok ? {} : { error: 'bad signature' });
        }
        case '/down':
          failing++;
          return reply(503, 'try later');
        default:
          return reply(404, 'no such hook');
      }
    });
    ({ tokens: t } = await createDemoLikeTenant('chat'));
    await deploy(t.admin, oneStep('chat_leave', users('bob')));
    ids.slack = await channel({ name: 'slack', kind: 'slack', settings: { url: url('/slack') } });
    ids.teams = await channel({ name: 'teams', kind: 'teams', settings: { url: url('/teams') } });
    ids.feishu = await channel({
      name: 'feishu',
      kind: 'feishu',
      settings: { url: url('/feishu'), secret: FEISHU_SECRET },
    });
    ids.dingtalk = await channel({
      name: 'dingtalk',
      kind: 'dingtalk',
      settings: { url: `${url('/dingtalk')}?access_token=abc`, secret: DINGTALK_SECRET, locale: 'zh-CN' },
    });
    ids.wecom = await channel({ name: 'wecom', kind: 'wecom', settings: { url: `${url('/wecom')}?key=k` } });
    ids.webhook = await channel({
      name: 'webhook',
      kind: 'webhook',
      settings: { url: url('/webhook'), secret: WEBHOOK_SECRET },
    });
    for (const [kind, id] of Object.entries(ids)) await address(id, 'bob', `bob-${kind}`);
  });

  afterAll(async () => {
    await receiver?.close();
  });

  it('answers chat channels with their URL hidden', async () => {
    const res = await api(`/api/v1/notification-channels/${ids.feishu}`, { token: t.admin });
    expect(res.body.data).toMatchObject({
      kind: 'feishu',
      secretsSet: ['url', 'secret'],
      settings: { urlHint: `http://localhost:${receiver.port}/…` },
    });
    expect(JSON.stringify(res.body)).not.toContain(FEISHU_SECRET);
    expect(JSON.stringify(res.body)).not.toContain('/feishu');
  });

  it('sends a new task to every channel in its own format, signed where the platform signs', async () => {
    await start(t.alice, 'chat_leave', {}, 'CH-1');

    const slack = await at('/slack', 'CH-1');
    expect(slack.body.text).toContain('<@bob-slack>');
    const blocks = slack.body.blocks as any[];
    expect(blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text', text: 'Approval needed: Approve' } });
    const buttons = blocks.find((b) => b.type === 'actions').elements;
    expect(buttons.map((b: any) => [b.text.text, b.style])).toEqual([
      ['Approve', 'primary'],
      ['Reject', 'danger'],
    ]);
    expect(buttons[0].url).toMatch(/\/l\/[^?]+\?action=approve$/);

    const teams = await at('/teams', 'CH-1');
    expect(teams.body.type).toBe('message');
    const card = teams.body.attachments[0];
    expect(card.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.content).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
    expect(card.content.actions.map((a: any) => [a.type, a.title])).toEqual([
      ['Action.OpenUrl', 'Approve'],
      ['Action.OpenUrl', 'Reject'],
    ]);
    expect(card.content.msteams.entities[0].mentioned.id).toBe('bob-teams');

    const feishu = await at('/feishu', 'CH-1');
    expect(feishu.verified).toBe(true);
    expect(feishu.body.msg_type).toBe('interactive');
    expect(feishu.body.card.elements[0].text.content).toContain('<at id=bob-feishu></at>');
    expect(feishu.body.card.elements[1].actions[0]).toMatchObject({ tag: 'button', type: 'primary' });

    const ding = await at('/dingtalk', 'CH-1');
    expect(ding.verified).toBe(true);
    expect(ding.query.get('access_token')).toBe('abc');
    expect(ding.body.msgtype).toBe('markdown');
    expect(ding.body.at.atUserIds).toEqual(['bob-dingtalk']);
    expect(ding.body.markdown.text).toContain('待审批'); // the channel's locale
    expect(ding.body.markdown.text).toMatch(/\[同意\]\(http:\/\/[^)]+\?action=approve\)/);

    const wecom = await at('/wecom', 'CH-1');
    expect(wecom.body.msgtype).toBe('markdown');
    expect(wecom.body.markdown.content).toContain('<@bob-wecom>');
    expect(wecom.body.markdown.content).toMatch(/\[Approve\]\(http:\/\/[^)]+\?action=approve\)/);

    const hook = await at('/webhook', 'CH-1');
    expect(hook.verified).toBe(true);
    expect(hook.headers['x-gflow-call-id']).toBe(hook.body.messageId);
    expect(hook.body).toMatchObject({
      recipient: { userId: 'bob', address: 'bob-webhook' },
      notification: { kind: 'task_assigned' },
      message: { title: 'Approval needed: Approve' },
    });

    for (const id of Object.values(ids))
      await eventually(
        () => deliveries(id),
        (rows) => rows.some((r) => r.status === 'sent'),
      );
  });

  it('lists the instance’s files in every card: a line per file, its name a signed link that downloads it', async () => {
    await deploy(
      t.admin,
      oneStep('chat_files', users('bob'), {
        processInfo: { formType: 'design', form: { fields: [{ name: 'receipt', type: 'attachment' }] } },
      }),
    );
    const up = await upload(baseUrl(), t.alice!, PNG, 'taxi [receipt].png');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    await start(t.alice, 'chat_files', { receipt: up.body.data.id }, 'CH-F');
    const id = up.body.data.id as string;
    const link = `http://[^)|>\\s]+/api/v1/attachments/${id}/content\\?token=[^)|>\\s]+download=1`;

    const slack = await at('/slack', 'CH-F');
    const files = (slack.body.blocks as any[]).find(
      (b) => b.type === 'section' && b.text?.text.startsWith('*Attachments*'),
    );
    expect(files.text.text).toMatch(
      new RegExp(`^\\*Attachments\\*\\n<${link}\\|taxi \\[receipt\\]\\.png> \\(70 B\\)$`),
    );
    // Slack wants & written as &amp;, inside links too.
    expect(files.text.text).toContain('&amp;download=1|');

    const teams = (await at('/teams', 'CH-F')).body.attachments[0].content.body as any[];
    expect(teams.map((b) => b.text)).toContain('Attachments');
    expect(teams.at(-1).text).toMatch(new RegExp(`^\\[taxi \\(receipt\\)\\.png\\]\\(${link}\\) \\(70 B\\)$`));

    const feishu = (await at('/feishu', 'CH-F')).body.card.elements as any[];
    expect(feishu[1].text.content).toMatch(
      new RegExp(`^\\*\\*Attachments\\*\\*\\n\\[taxi \\(receipt\\)\\.png\\]\\(${link}\\)`),
    );

    // DingTalk's channel speaks Chinese.
    const ding = (await at('/dingtalk', 'CH-F')).body.markdown.text as string;
    expect(ding).toMatch(new RegExp(`\\*\\*附件\\*\\*\\n\\n- \\[taxi \\(receipt\\)\\.png\\]\\(${link}\\) \\(70 B\\)`));

    const wecom = (await at('/wecom', 'CH-F')).body.markdown.content as string;
    expect(wecom).toMatch(new RegExp(`\\[taxi \\(receipt\\)\\.png\\]\\(${link}\\) \\(70 B\\)\\n\\[Approve\\]`));

    // The generic webhook carries the list itself; its link opens the file without a login.
    const hook = (await at('/webhook', 'CH-F')).body.message;
    expect(hook.attachmentsTitle).toBe('Attachments');
    expect(hook.attachments).toEqual([
      { name: 'taxi [receipt].png', size: 70, url: expect.stringMatching(new RegExp(`^${link}$`)) },
    ]);
    const res = await fetch(hook.attachments[0].url.replace(/^http:\/\/[^/]+/, baseUrl()));
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('a wrong signing secret fails in the log with what the platform said; a failing receiver is retried, then failed', async () => {
    const wrong = await channel({
      name: 'feishu-wrong',
      kind: 'feishu',
      settings: { url: url('/feishu-wrong'), secret: 'not-the-secret' },
    });
    const down = await channel({ name: 'down', kind: 'slack', settings: { url: url('/down') } });
    await address(wrong, 'bob', 'bob-f');
    await address(down, 'bob', 'bob-d');
    const test = await api(`/api/v1/notification-channels/${wrong}/test`, { token: t.admin, body: { userId: 'bob' } });
    expect(test.status).toBe(200);
    expect(test.body.data).toMatchObject({ ok: false, status: 200 });
    expect(test.body.data.response).toContain('19021');
    const ok = await api(`/api/v1/notification-channels/${ids.feishu}/test`, {
      token: t.admin,
      body: { userId: 'bob' },
    });
    expect(ok.body.data).toMatchObject({ ok: true, status: 200 });

    await start(t.alice, 'chat_leave', {}, 'CH-2');
    const [failed] = await eventually(
      () => deliveries(wrong),
      (rows) => rows.some((r) => r.status === 'failed'),
    );
    expect(failed.attempts).toBe(1); // a refused signature is not retried
    expect(failed.lastError).toContain('19021');
    const [retried] = await eventually(
      () => deliveries(down),
      (rows) => rows.some((r) => r.status === 'failed'),
      30_000,
    );
    expect(retried).toMatchObject({ attempts: 3, response: 'try later' });
    expect(failing).toBeGreaterThanOrEqual(3);
  });

  it('a user without an address on a chat channel is skipped there', async () => {
    await deploy(t.admin, oneStep('chat_carol', users('carol')));
    await start(t.alice, 'chat_carol', {});
    const rows = await eventually(
      async () => (await deliveries(ids.slack)).filter((r) => r.userId === 'carol'),
      (r) => r.length > 0 && r[0].status === 'skipped',
    );
    expect(rows[0].lastError).toBe('the recipient has no address on this channel');
    expectError(
      await api(`/api/v1/notification-channels/${ids.slack}/addresses/carol`, {
        method: 'PUT',
        token: t.admin,
        body: { address: 'has spaces' },
      }),
      400,
      40001,
    );
  });
});
