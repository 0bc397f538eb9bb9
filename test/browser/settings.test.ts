// "My settings" (docs/console.md): reached from the header; notification preferences saved through
// the page are what the API answers; the language saved there is the user's (PATCH /api/v1/me),
// applied at once and kept after a reload — in English and in Simplified Chinese, with no English
// catalogue text on the Chinese page. Screenshots: test/browser/screenshots/settings-*.png.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant } from '../helpers/api.js';
import { launchChromium } from '../helpers/chromium-launch.js';
import { englishCatalogueTexts } from '../helpers/console-browser.js';
import { en as consoleEn } from '../../ui/src/i18n/en.js';
import { zhCN as consoleZhCN } from '../../ui/src/i18n/zh-CN.js';
import { en as featureEn } from '../../ui/src/features/settings/i18n/en.js';
import { zhCN as featureZhCN } from '../../ui/src/features/settings/i18n/zh-CN.js';

/** The words of the settings page: the console's and its own (ui/src/features/settings/i18n/, loaded with its chunk). */
const en = { ...consoleEn, ...featureEn };
const zhCN = { ...consoleZhCN, ...featureZhCN };

const root = path.resolve(import.meta.dirname, '../..');
const shots = path.join(root, 'test/browser/screenshots');

let browser: Browser;
const contexts: BrowserContext[] = [];
let tenantId: string;
let tokens: Record<string, string>;
let mailId: string;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(shots, `settings-${name}.png`), fullPage: true });
}

async function as(user: string, lang: 'zh-CN' | 'en-GB', tenant = tenantId): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: lang });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(`${baseUrl()}/`);
  await page.fill('input[name=tenant]', tenant);
  await page.fill('input[name=username]', user);
  await page.fill('input[name=password]', `pw-${user}`);
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=whoami]');
  return page;
}

const englishTexts = englishCatalogueTexts(en, zhCN);

const prefsOf = async (user: string) =>
  (await api('/api/v1/me/notification-preferences', { token: tokens[user] })).body.data;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  browser = await launchChromium(inject('chromiumPath'));
  ({ tenantId, tokens } = await createDemoLikeTenant('ui-settings'));
  const mail = await api('/api/v1/notification-channels', {
    token: tokens.admin,
    body: {
      name: 'Company mail',
      kind: 'email',
      settings: { host: 'localhost', port: 2525, tls: 'none', from: 'Approvals <ops@settings.example.test>' },
    },
  });
  expect(mail.status, JSON.stringify(mail.body)).toBe(201);
  mailId = mail.body.data.id;
  const chat = await api('/api/v1/notification-channels', {
    token: tokens.admin,
    body: {
      name: 'Team chat',
      kind: 'webhook',
      kinds: ['task_assigned', 'urge'],
      settings: { url: 'http://localhost:9/hook', secret: 'x'.repeat(16) },
    },
  });
  expect(chat.status, JSON.stringify(chat.body)).toBe(201);
});

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await browser?.close();
});

describe('My settings', () => {
  it('saves kinds per channel, quiet hours, time zone and a digest (English)', async () => {
    const page = await as('alice', 'en-GB');
    await page.click(`header.top a[href="/settings"]`);
    await page.waitForSelector('[data-testid=notification-settings]');
    expect(await page.textContent('h1')).toBe(en.settings.title);
    await shot(page, 'en');
    // The mail channel sends every kind: turn copies off.
    const mail = page.locator('[data-testid="channel-Company mail"]');
    await mail.getByLabel(en.settings.kinds.cc!).uncheck();
    await page.selectOption('[data-testid=settings-zone]', 'Asia/Shanghai');
    await page.check('[data-testid=quiet-on]');
    await page.fill('#quiet-start', '21:30');
    await page.fill('#quiet-end', '07:00');
    await page.uncheck('[data-testid=quiet-urgent]');
    await page.check('[data-testid=digest-on]');
    await page.selectOption('[data-testid=digest-hour]', '8');
    await page.click(`button:has-text("${en.settings.save}")`);
    await page.waitForSelector(`[role=status]:has-text("${en.settings.saved}")`);
    await page.waitForSelector('[data-testid=digest-next]');
    await shot(page, 'en-saved');
    const saved = await prefsOf('alice');
    expect(saved).toMatchObject({
      timeZone: 'Asia/Shanghai',
      quietHours: { start: '21:30', end: '07:00', allowUrgent: false },
      digest: { hour: 8 },
    });
    // Only the channel whose choice differs from what it sends is named.
    expect(Object.keys(saved.channels)).toEqual([mailId]);
    expect(saved.channels[mailId]).not.toContain('cc');
    expect(saved.channels[mailId]).toContain('task_assigned');
    // A reload shows what was saved.
    await page.reload();
    await page.waitForSelector('[data-testid=notification-settings]');
    expect(await page.isChecked('[data-testid=quiet-on]')).toBe(true);
    expect(await page.inputValue('#quiet-start')).toBe('21:30');
    expect(await mail.getByLabel(en.settings.kinds.cc!).isChecked()).toBe(false);
  });

  it('the language saved there is the user’s: applied at once, kept after a reload, in Chinese throughout', async () => {
    const page = await as('bob', 'en-GB');
    await page.goto(`${baseUrl()}/settings`);
    await page.waitForSelector('[data-testid=notification-settings]');
    await page.selectOption('[data-testid=settings-locale]', 'zh-CN');
    await Promise.all([page.waitForEvent('load'), page.click(`button:has-text("${en.settings.saveLanguage}")`)]);
    await page.waitForSelector('[data-testid=notification-settings]');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.textContent('h1')).toBe(zhCN.settings.title);
    expect((await api('/api/v1/auth/me', { token: tokens.bob })).body.data.user.locale).toBe('zh-CN');
    await page.check('[data-testid=quiet-on]');
    await page.check('[data-testid=digest-on]');
    await page.click(`button:has-text("${zhCN.settings.save}")`);
    await page.waitForSelector(`[role=status]:has-text("${zhCN.settings.saved}")`);
    await page.reload();
    await page.waitForSelector('[data-testid=notification-settings]');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.inputValue('[data-testid=settings-locale]')).toBe('zh-CN');
    // No English catalogue sentence, no raw key (channel names and zones are data, shown as written).
    const text = await page.locator('body').innerText();
    const found = englishTexts.filter((s) =>
      new RegExp(`(^|[^A-Za-z])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z])`).test(text),
    );
    expect(found).toEqual([]);
    expect(text).not.toMatch(/\b(undefined|NaN|settings\.[a-z]\w*)\b/);
    expect(text).toContain(zhCN.settings.kinds.task_assigned);
    await shot(page, 'zh-CN');
    // The same user in another browser: the console adopts the saved language at login.
    const elsewhere = await as('bob', 'en-GB');
    await elsewhere.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    await elsewhere.waitForSelector('[data-testid=whoami]');
    expect(await elsewhere.textContent('header.top a[href="/settings"]')).toBe(zhCN.nav.settings);
    // Back to the browser's language.
    await elsewhere.goto(`${baseUrl()}/settings`);
    await elsewhere.waitForSelector('[data-testid=notification-settings]');
    await elsewhere.selectOption('[data-testid=settings-locale]', '');
    await Promise.all([
      elsewhere.waitForEvent('load'),
      elsewhere.click(`button:has-text("${zhCN.settings.saveLanguage}")`),
    ]);
    await elsewhere.waitForSelector('[data-testid=notification-settings]');
    expect(await elsewhere.getAttribute('html', 'lang')).toBe('en');
    expect((await api('/api/v1/auth/me', { token: tokens.bob })).body.data.user.locale).toBeNull();
  });

  it('a tenant without channels says so, in words', async () => {
    const other = await createDemoLikeTenant('ui-settings-none');
    const page = await as('carol', 'en-GB', other.tenantId);
    await page.goto(`${baseUrl()}/settings`);
    await page.waitForSelector('[data-testid=notification-settings]');
    expect(await page.locator('fieldset').count()).toBe(0);
    expect(await page.textContent('[data-testid=notification-settings]')).toContain(en.settings.noChannels);
    await shot(page, 'en-no-channels');
  });
});
