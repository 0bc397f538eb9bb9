// What each message looks like (docs/channels.md#what-each-message-looks-like): a new task sent
// through real channels — the e-mail captured by an SMTP server in this process, the chat payloads by
// a local receiver answering as each platform does — rendered in Chromium and saved as screenshots:
// the e-mail's HTML part as a mail client shows it, each chat payload as a card beside the payload
// itself; and the instance-ended e-mail the initiator gets, in Chinese. The request carries two
// files: every message lists them with signed download links.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant } from '../helpers/api.js';
import { launchChromium } from '../helpers/chromium-launch.js';
import { users } from '../helpers/dsl.js';
import { actOk, deploy, eventually, myTask, oneStep, start } from '../helpers/flow.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';
import { startMailbox, to, type Mailbox } from '../helpers/smtp-receiver.js';
import { PNG, pdfWithText, upload } from '../helpers/attachments.js';
import { chatCardPage } from './message-cards.js';

const shots = path.resolve(import.meta.dirname, 'screenshots');
const CHATS = ['slack', 'teams', 'feishu', 'dingtalk', 'wecom'] as const;

describe('what each message looks like', () => {
  let browser: Browser;
  let page: Page;
  let mailbox: Mailbox;
  let receiver: Receiver;
  let t: Record<string, string>;
  let tenantId: string;
  const received: Array<{ path: string; body: any }> = [];

  const patchUser = async (id: string, body: unknown) => {
    const res = await api(`/api/v1/users/${id}`, { method: 'PATCH', token: t.admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const channel = async (body: unknown) => {
    const res = await api('/api/v1/notification-channels', { token: t.admin, body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  async function shoot(html: string, name: string, width = 720) {
    await page.setViewportSize({ width, height: 400 });
    await page.setContent(html, { waitUntil: 'load' });
    const file = path.join(shots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    return file;
  }

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    browser = await launchChromium(inject('chromiumPath'));
    page = await (await browser.newContext({ deviceScaleFactor: 1 })).newPage();
    mailbox = await startMailbox();
    receiver = await startReceiver((req, raw, res) => {
      const p = new URL(req.url ?? '/', 'http://x').pathname;
      received.push({ path: p, body: JSON.parse(raw) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(p === '/feishu' ? { code: 0, msg: 'success' } : { errcode: 0, errmsg: 'ok' }));
    });
    ({ tokens: t, tenantId } = await createDemoLikeTenant('look'));
    await deploy(
      t.admin,
      oneStep('look_leave', users('bob'), {
        processInfo: {
          formType: 'design',
          form: {
            fields: [
              { name: 'days', label: 'Days', type: 'number' },
              { name: 'kind', label: 'Kind', type: 'select', options: [{ value: 'annual', label: 'Annual leave' }] },
              { name: 'from', label: 'From', type: 'date' },
              { name: 'reason', label: 'Reason', type: 'text' },
              { name: 'files', label: 'Files', type: 'attachment', multiple: true },
            ],
          },
        },
      }),
    );
    await patchUser('bob', { email: 'bob@corp.look.test', displayName: 'Bob Chen' });
    await patchUser('alice', { email: 'alice@corp.look.test', displayName: 'Alice Wang', locale: 'zh-CN' });
    await channel({
      name: 'mail',
      kind: 'email',
      settings: { host: 'localhost', port: mailbox.port, tls: 'none', from: 'Approvals <approvals@look.example.test>' },
    });
    const url = (p: string) => `http://localhost:${receiver.port}${p}`;
    const secret = 'SEC0123456789abcdef0123456789abcdef';
    for (const kind of CHATS) {
      const id = await channel({
        name: kind,
        kind,
        settings: {
          url: kind === 'dingtalk' ? `${url('/dingtalk')}?access_token=t` : url(`/${kind}`),
          ...(kind === 'feishu' || kind === 'dingtalk' ? { secret } : {}),
        },
      });
      const res = await api(`/api/v1/notification-channels/${id}/addresses/bob`, {
        method: 'PUT',
        token: t.admin,
        body: { address: kind === 'teams' ? '29:1bob' : `bob_${kind}` },
      });
      expect(res.status).toBe(200);
    }
  });

  afterAll(async () => {
    await browser?.close();
    await mailbox?.close();
    await receiver?.close();
  });

  it('a new task: the e-mail and every chat card, as the approver sees them', async () => {
    const files: string[] = [];
    for (const [bytes, name] of [
      [pdfWithText('Hotel booking'), 'hotel-booking.pdf'],
      [PNG, 'train-ticket.png'],
    ] as const) {
      const up = await upload(baseUrl(), t.alice!, bytes, name);
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      files.push(up.body.data.id);
    }
    const instanceId = await start(
      t.alice,
      'look_leave',
      { days: 3, kind: 'annual', from: '2026-12-21', reason: 'Family visit over the holidays', files },
      'LV-2026-0042',
    );
    const [mail] = await mailbox.waitFor((all) =>
      to('bob@corp.look.test')(all).filter((m) => m.text?.includes('LV-2026-0042')),
    );
    expect(mail.html).toContain('>Approve</a>');
    const emailShot = await shoot(String(mail.html), 'message-email-task-assigned');
    // The buttons are there to be seen, and the card is not cut off.
    await expect(page.locator('a', { hasText: 'Approve' }).isVisible()).resolves.toBe(true);
    await expect(page.locator('a', { hasText: 'Reject' }).isVisible()).resolves.toBe(true);
    expect(emailShot).toMatch(/\.png$/);
    // The files, each a link on its name.
    await expect(page.locator('h2', { hasText: 'Attachments' }).isVisible()).resolves.toBe(true);
    for (const name of ['hotel-booking.pdf', 'train-ticket.png'])
      await expect(page.locator('a', { hasText: name }).isVisible()).resolves.toBe(true);

    for (const kind of CHATS) {
      const { body } = await eventually(
        async () => received.find((r) => r.path === `/${kind}` && JSON.stringify(r.body).includes('LV-2026-0042')),
        (r) => !!r,
      ).then((r) => r!);
      await shoot(chatCardPage(kind, body), `message-${kind}-task-assigned`, 1100);
      await expect(page.locator('.card').innerText()).resolves.toContain('Approval needed: Approve');
      // A line per file, its name a link.
      for (const name of ['hotel-booking.pdf', 'train-ticket.png'])
        await expect(page.locator('.card .link', { hasText: name }).count()).resolves.toBe(1);
    }

    // The outcome to the initiator, who reads Chinese: approved, with the approver's comment.
    await actOk(t.bob, (await myTask(t.bob, instanceId)).id, 'approve', { comment: 'Enjoy the holidays' });
    const [ended] = await mailbox.waitFor((all) =>
      to('alice@corp.look.test')(all).filter((m) => m.text?.includes('LV-2026-0042')),
    );
    expect(ended.subject).toContain('您的申请已通过');
    await shoot(String(ended.html), 'message-email-instance-ended-zh-CN');
    await expect(page.locator('h1').innerText()).resolves.toBe('您的申请已通过');
    await expect(page.locator('h2', { hasText: '附件' }).isVisible()).resolves.toBe(true);

    // The console's notification menu words it too, in alice's language (adopted at login).
    const console_ = await (await browser.newContext({ viewport: { width: 1280, height: 720 } })).newPage();
    await console_.goto(`${baseUrl()}/`);
    await console_.fill('input[name=tenant]', tenantId);
    await console_.fill('input[name=username]', 'alice');
    await console_.fill('input[name=password]', 'pw-alice');
    await console_.click('button[type=submit]');
    await console_.waitForSelector('[data-testid=whoami]');
    await console_.waitForFunction(
      () => document.documentElement.lang === 'zh-CN' || document.body.innerText.includes('通知'),
    );
    await console_.click('[data-testid=notifications]');
    const ended_ = console_.locator('li[data-kind=instance_ended]').first();
    await expect(ended_.innerText()).resolves.toContain(
      '您的申请 Process look_leave LV-2026-0042 已通过：“Enjoy the holidays”',
    );
    await console_.screenshot({ path: path.join(shots, 'message-console-notifications-zh-CN.png') });
  });
});
