// The admins' "Notifications" page (docs/channels.md#the-console): an admin adds a signed webhook
// channel pointing at a receiver in this process and sends a test through it (the receiver gets it,
// signed, and the page shows what it answered); edits a message template with an error (the line
// shows under the part) and then a valid one, previews it for a request and saves it (the next
// message goes out with it); and finds the deliveries in the log. At 390 px wide and in Chinese too.
// Screenshots: test/browser/screenshots/notify-admin-*.png.
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant } from '../helpers/api.js';
import { ConsoleBrowser, screenshots } from '../helpers/console-browser.js';
import { users } from '../helpers/dsl.js';
import { deploy, eventually, oneStep, start } from '../helpers/flow.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';
import { en as consoleEn } from '../../ui/src/i18n/en.js';
import { zhCN as consoleZhCN } from '../../ui/src/i18n/zh-CN.js';
import { en as featureEn } from '../../ui/src/features/notification-admin/i18n/en.js';
import { zhCN as featureZhCN } from '../../ui/src/features/notification-admin/i18n/zh-CN.js';

/** The words of the notification set-up: the console's and its own (ui/src/features/notification-admin/i18n/, loaded with its chunk). */
const en = { ...consoleEn, ...featureEn };
const zhCN = { ...consoleZhCN, ...featureZhCN };

const shot = screenshots('notify-admin-');
const SECRET = 'hook-secret-0123456789';

interface Hit {
  path: string;
  body: any;
  signed: boolean;
}

describe('Notifications (admin console page)', () => {
  const browser = new ConsoleBrowser();
  let receiver: Receiver;
  const hits: Hit[] = [];
  let tenantId: string;
  let tokens: Record<string, string>;
  let channelId: string;
  let firstInstance: string;

  const asAdmin = (locale = 'en-GB', phone = false) =>
    browser.as('admin', {
      tenant: tenantId,
      password: 'secret-admin',
      locale,
      ...(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
    });
  const webhookHits = (kind: string) => hits.filter((h) => h.body?.notification?.kind === kind);
  /** What sticks out past the viewport's right edge (nothing: nothing is cut off or needs sideways scrolling). */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > width + 1)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
        .slice(0, 10);
    });

  beforeAll(async () => {
    await browser.launch();
    receiver = await startReceiver((req, raw, res) => {
      const ts = String(req.headers['x-gflow-timestamp'] ?? '');
      const expected = `sha256=${createHmac('sha256', SECRET).update(`${ts}.${raw}`).digest('hex')}`;
      hits.push({
        path: new URL(req.url ?? '/', 'http://x').pathname,
        body: JSON.parse(raw),
        signed: req.headers['x-gflow-signature'] === expected,
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: true }));
    });
    ({ tenantId, tokens } = await createDemoLikeTenant('ui-notify'));
    const dsl = oneStep('leave', users('bob'));
    dsl.ruleChain.name = 'Leave request';
    await deploy(tokens.admin!, dsl);
    firstInstance = await start(tokens.alice!, 'leave', {}, 'LV-1001');
  });

  afterAll(async () => {
    await browser.close();
    await receiver?.close();
  });

  it('adds a webhook channel and sends a test through it; the receiver gets it, signed', async () => {
    const page = await asAdmin();
    await page.click(`header.top a:has-text("${en.nav.notificationsAdmin}")`);
    await page.waitForSelector(`text=${en.notifyAdmin.noChannels}`);
    expect(await page.textContent('h1')).toBe(en.notifyAdmin.title);

    await page.click('[data-action=new-channel]');
    await page.fill('#channel-name', 'Team hook');
    await page.selectOption('#channel-type', 'webhook');
    await page.fill('#channel-url', `http://localhost:${receiver.port}/hook`);
    await page.fill('#channel-secret', SECRET);
    await shot(page, 'channel-form');
    await page.click('[data-form=channel-editor] button[type=submit]');
    const row = page.locator('tr[data-channel="Team hook"]');
    await row.waitFor();
    await expect(row.locator('[data-testid=row-note]').textContent()).resolves.toBe(en.notifyAdmin.saved);
    // The secret is write-only: the row says it is set, and the API never answers it.
    await expect(row.locator('[data-secret=secret]').getAttribute('data-set')).resolves.toBe('true');
    const listed = (await api('/api/v1/notification-channels', { token: tokens.admin })).body.data.items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: 'Team hook', kind: 'webhook', enabled: true, secretsSet: ['secret'] });
    expect(JSON.stringify(listed[0])).not.toContain(SECRET);
    channelId = listed[0].id;

    await row.locator('[data-action=test]').click();
    await page.click(`[data-testid=channel-test] button:has-text("${en.notifyAdmin.testSend}")`);
    const result = page.locator('[data-testid=test-result]');
    await result.waitFor();
    expect(await result.getAttribute('data-ok')).toBe('true');
    expect(await result.textContent()).toContain(en.notifyAdmin.testOk);
    expect(await page.textContent('[data-testid=test-status]')).toBe('200');
    expect(await page.textContent('[data-testid=test-answer]')).toContain('"received":true');
    const test = hits.find((h) => h.path === '/hook' && JSON.stringify(h.body).includes('Team hook'));
    expect(test, JSON.stringify(hits)).toBeTruthy();
    expect(test!.signed).toBe(true);
    await shot(page, 'channel-test');

    // Disabled, then enabled again: the whole channel is replaced, its secret kept.
    await row.locator('[data-action=disable]').click();
    await page.waitForSelector(
      `tr[data-channel="Team hook"] [data-testid=channel-state]:has-text("${en.notifyAdmin.off}")`,
    );
    await row.locator('[data-action=enable]').click();
    await page.waitForSelector(
      `tr[data-channel="Team hook"] [data-testid=channel-state]:has-text("${en.notifyAdmin.on}")`,
    );
    const after = (await api(`/api/v1/notification-channels/${channelId}`, { token: tokens.admin })).body.data;
    expect(after).toMatchObject({
      enabled: true,
      secretsSet: ['secret'],
      settings: { url: expect.stringContaining('/hook') },
    });

    // A task started now reaches bob through it.
    await start(tokens.alice!, 'leave', {}, 'LV-1002');
    await eventually(
      async () => webhookHits('task_assigned').filter((h) => JSON.stringify(h.body).includes('LV-1002')),
      (x) => x.length > 0,
    );
  });

  it('refuses a template with an error (the line shows), previews and saves a valid one', async () => {
    const page = await asAdmin();
    await page.goto(`${baseUrl()}/admin/notifications/templates`);
    const editor = page.locator('[data-testid=template-editor]');
    await editor.waitFor();
    await page.selectOption('[data-testid=template-kind]', 'task_assigned');
    await page.selectOption('[data-testid=template-locale]', 'en');
    await page.waitForSelector('[data-testid=template-editor][data-locale=en]');
    expect(await page.textContent('[data-testid=template-state]')).toBe(en.notifyAdmin.isDefault);

    // An `if` that is never closed, on the intro's second line.
    await page.fill('#part-intro', 'Hello {{ recipient.name }},\n{% if task.name %}please decide.');
    await page.click('[data-action=save-template]');
    const problem = page.locator('[data-testid=problem-intro]');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/^line 2, column \d+: .*not closed/);
    expect(await page.getAttribute('#part-intro', 'aria-invalid')).toBe('true');
    expect(await page.textContent('[data-testid=template-error]')).toContain(en.notifyAdmin.invalid);
    await shot(page, 'template-error');
    const stored = async () =>
      (await api('/api/v1/notification-templates/task_assigned/en', { token: tokens.admin })).body.data;
    expect((await stored()).overridden).toEqual([]);

    // A valid one, previewed for LV-1001, then saved.
    await page.fill('#part-title', 'Please decide: {{ task.name }} ({{ instance.businessKey }})');
    await page.fill('#part-intro', 'Hello {{ recipient.name }}, {{ instance.initiator }} asks for your decision.');
    await page.selectOption('[data-testid=preview-instance]', firstInstance);
    await page.click('[data-action=preview]');
    await page.waitForSelector('[data-testid=template-preview]');
    expect(await page.isVisible('[data-testid=problem-intro]')).toBe(false);
    expect(await page.textContent('[data-testid=preview-title]')).toBe('Please decide: Approve (LV-1001)');
    expect(await page.textContent('[data-testid=preview-subject]')).toContain('LV-1001');
    const frame = page.frameLocator('[data-testid=preview-html]');
    await expect(frame.locator('body').innerText()).resolves.toContain('Please decide: Approve (LV-1001)');
    await page.click('[data-action=save-template]');
    await page.waitForSelector(`[data-testid=template-note]:has-text("${en.notifyAdmin.templateSaved}")`);
    await shot(page, 'template-preview');
    expect((await stored()).overridden.sort()).toEqual(['intro', 'title']);

    // The next message goes out with it.
    await start(tokens.alice!, 'leave', {}, 'LV-1003');
    const [sent] = await eventually(
      async () => webhookHits('task_assigned').filter((h) => JSON.stringify(h.body).includes('LV-1003')),
      (x) => x.length > 0,
    );
    expect(sent!.body.message.title).toBe('Please decide: Approve (LV-1003)');

    // Reset to the default (after a confirm).
    page.once('dialog', (d) => void d.accept());
    await page.click('[data-action=reset-template]');
    await page.waitForSelector(`[data-testid=template-note]:has-text("${en.notifyAdmin.resetDone}")`);
    expect((await stored()).overridden).toEqual([]);
    expect(await page.inputValue('#part-title')).toBe((await stored()).defaults.title);
  });

  it('shows the deliveries in the log, filtered by status and channel', async () => {
    const page = await asAdmin();
    await page.click(`header.top a:has-text("${en.nav.notificationsAdmin}")`);
    // The channels' names answer after the log (as they may on a busy server): the rows wait for
    // them instead of naming every channel "a deleted channel".
    let logAnswered!: () => void;
    const answered = new Promise<void>((resolve) => (logAnswered = resolve));
    await page.route('**/api/v1/notification-deliveries?*', async (route) => {
      await route.continue().catch(() => {});
      logAnswered();
    });
    await page.route('**/api/v1/notification-channels?*', async (route) => {
      await answered;
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue().catch(() => {});
    });
    await page.click('a[data-tab=deliveries]');
    const sent = page.locator('tr[data-status=sent][data-kind=task_assigned]').first();
    await sent.waitFor();
    const text = await sent.innerText();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    expect(text).toContain(en.notifyAdmin.statuses.sent);
    expect(text).toContain('Team hook');
    expect(text).toContain(en.notifyAdmin.kinds.task_assigned);
    expect(text).toContain('bob');
    await page.selectOption('[data-testid=delivery-filters] select[name=status]', 'failed');
    await page.click(`[data-testid=delivery-filters] button:has-text("${en.notifyAdmin.filter}")`);
    await page.waitForSelector(`text=${en.notifyAdmin.noDeliveries}`);
    await page.selectOption('[data-testid=delivery-filters] select[name=status]', 'sent');
    await page.selectOption('[data-testid=delivery-filters] select[name=channelId]', channelId);
    await page.click(`[data-testid=delivery-filters] button:has-text("${en.notifyAdmin.filter}")`);
    await page.waitForSelector('tr[data-status=sent]');
    expect(await page.locator('tr[data-delivery-id]:not([data-status=sent])').count()).toBe(0);
    await shot(page, 'deliveries');
  });

  it('is for admins only: no link and no page for a user without workflow:admin', async () => {
    const alice = await browser.as('alice', { tenant: tenantId, password: 'pw-alice', locale: 'en-GB' });
    expect(await alice.$('header.top a[href^="/admin/notifications"]')).toBeNull();
    await alice.goto(`${baseUrl()}/admin/notifications/channels`);
    await alice.waitForSelector('main [role=alert]');
    expect(await alice.textContent('main [role=alert]')).toBe(en.admin.forbidden);
    expect(await alice.$('[data-action=new-channel]')).toBeNull();
  });

  it('fits a phone (390 px): channels, templates and the log, nothing wider than the screen', async () => {
    const page = await asAdmin('en-GB', true);
    await page.goto(`${baseUrl()}/admin/notifications/channels`);
    await page.locator('tr[data-channel="Team hook"]').waitFor();
    await shot(page, 'phone-channels');
    expect(await overflow(page)).toEqual([]);
    await page.click('a[data-tab=templates]');
    await page.waitForSelector('[data-testid=template-editor]');
    await page.click('[data-action=preview]');
    await page.waitForSelector('[data-testid=template-preview]');
    await shot(page, 'phone-templates');
    expect(await overflow(page)).toEqual([]);
    await page.click('a[data-tab=deliveries]');
    await page.locator('tr[data-status=sent]').first().waitFor();
    await shot(page, 'phone-deliveries');
    expect(await overflow(page)).toEqual([]);
  });

  it('speaks Chinese: every word of the page from the zh-CN catalogue', async () => {
    const page = await asAdmin('zh-CN');
    await page.goto(`${baseUrl()}/admin/notifications/channels`);
    const row = page.locator('tr[data-channel="Team hook"]');
    await row.waitFor();
    expect(await page.textContent('h1')).toBe(zhCN.notifyAdmin.title);
    await row.locator('[data-action=edit]').click();
    await page.waitForSelector('[data-form=channel-editor]');
    // English catalogue strings of this page must not show (data — names, URLs — is shown as written).
    const englishShown = async () => {
      const body = await page.locator('main').innerText();
      const out: string[] = [];
      const walk = (a: unknown, b: unknown) => {
        if (typeof a === 'string' && typeof b === 'string') {
          if (a !== b && /[A-Za-z]{4,}/.test(a) && body.includes(a)) out.push(a);
        } else if (a && typeof a === 'object' && b && typeof b === 'object')
          for (const k of Object.keys(a)) walk((a as any)[k], (b as any)[k]);
      };
      walk(en.notifyAdmin, zhCN.notifyAdmin);
      return out;
    };
    expect(await englishShown()).toEqual([]);
    await shot(page, 'zh-CN-channels');
    await page.click('a[data-tab=templates]');
    await page.waitForSelector('[data-testid=template-editor][data-locale=zh-CN]');
    await page.click('[data-action=preview]');
    await page.waitForSelector('[data-testid=template-preview]');
    expect(await englishShown()).toEqual([]);
    await shot(page, 'zh-CN-templates');
    await page.click('a[data-tab=deliveries]');
    await page.locator('tr[data-status=sent]').first().waitFor();
    expect(await page.locator('tr[data-status=sent]').first().innerText()).toContain(zhCN.notifyAdmin.statuses.sent);
    expect(await englishShown()).toEqual([]);
    await shot(page, 'zh-CN-deliveries');
  });
});
