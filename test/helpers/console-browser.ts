// The browser tests' chromium and the console's login page, in one place: each test file gets
// fresh contexts (own storage, so own session) from one browser, and closes them all at the end.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { baseUrl } from './api.js';
import { launchChromium } from './chromium-launch.js';

export const SCREENSHOTS = path.resolve(import.meta.dirname, '../browser/screenshots');

/** The demo directory's passwords. */
export const demoPassword = (user: string) => (user === 'admin' ? 'admin' : 'demo');

/** Fills the console's login page (already open) and waits for the signed-in header. */
export async function logIn(page: Page, tenant: string, username: string, password: string): Promise<void> {
  await page.waitForSelector('input[name=username]');
  await page.fill('input[name=tenant]', tenant);
  await page.fill('input[name=username]', username);
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=whoami]');
}

/** Saves a full-page screenshot as `<prefix><name>.png` in test/browser/screenshots/. */
export const screenshots =
  (prefix = '') =>
  (page: Page, name: string) =>
    page.screenshot({ path: path.join(SCREENSHOTS, `${prefix}${name}.png`), fullPage: true });

export class ConsoleBrowser {
  private browser: Browser | null = null;
  private readonly contexts: BrowserContext[] = [];

  constructor(private readonly defaults: BrowserContextOptions = { viewport: { width: 1280, height: 900 } }) {}

  async launch(): Promise<void> {
    mkdirSync(SCREENSHOTS, { recursive: true });
    this.browser = await launchChromium(inject('chromiumPath'));
  }

  /** A page in a fresh context (its own cookies and storage), not signed in. */
  async page(options: BrowserContextOptions = {}): Promise<Page> {
    if (!this.browser) throw new Error('ConsoleBrowser.launch() first');
    const context = await this.browser.newContext({ ...this.defaults, ...options });
    this.contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  /** A fresh context signed in as `user` through the login page. */
  async as(
    user: string,
    {
      tenant = 'demo',
      password = demoPassword(user),
      ...options
    }: BrowserContextOptions & { tenant?: string; password?: string } = {},
  ): Promise<Page> {
    const page = await this.page(options);
    await page.goto(`${baseUrl()}/`);
    await logIn(page, tenant, user, password);
    return page;
  }

  async close(): Promise<void> {
    for (const c of this.contexts) await c.close().catch(() => {});
    await this.browser?.close();
  }
}

/** The English catalogue strings that differ from their Chinese (4+ letters, so no "Id"): none may show on a zh-CN page. */
export function englishCatalogueTexts(en: object, zhCN: object): string[] {
  const out = new Set<string>();
  const walk = (a: unknown, b: unknown) => {
    if (typeof a === 'string' && typeof b === 'string') {
      if (a !== b && /[A-Za-z]{4,}/.test(a)) out.add(a);
    } else if (a && typeof a === 'object' && b && typeof b === 'object')
      for (const k of Object.keys(a)) walk((a as any)[k], (b as any)[k]);
  };
  walk(en, zhCN);
  return [...out];
}

/**
 * Opens the instance of the inbox row for `businessKey` by its link, and checks that the page that
 * opened is that instance (and `instanceId`, when given) before the test acts on it. Once, in CI, a
 * click aimed at one row landed on another instance (the list's rows were unkeyed: a live reload
 * gave the aimed-at link another row's href) and the approval went to the wrong task.
 */
export async function openInboxRow(page: Page, businessKey: string, instanceId?: string): Promise<void> {
  await page.locator(`tr[data-business-key="${businessKey}"] a`).first().click();
  await page.waitForSelector('[data-testid=instance-header]');
  const opened = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  expect(await page.textContent('[data-testid=instance-header] [data-testid=business-key]'), `opened ${opened}`).toBe(
    businessKey,
  );
  if (instanceId !== undefined) expect(opened, `the instance of ${businessKey}`).toBe(instanceId);
}

/**
 * Opens an action's form. A live update may re-render the panel between Playwright's aim and its
 * click — seen once under CI load: the click went out, the form never opened, and filling it
 * waited out its timeout. The button's aria-expanded tells whether the form opened, so only a lost
 * click is repeated (a second click on an open form would close it).
 */
export async function openForm(page: Page, action: string) {
  const button = page.locator(`button[data-action=${action}]`);
  // An action without a form (claim, …) runs on the click: never clicked twice here.
  if ((await button.getAttribute('aria-controls')) === null) throw new Error(`${action} has no form`);
  const expanded = page.locator(`button[data-action=${action}][aria-expanded=true]`);
  for (let attempt = 1; ; attempt++) {
    if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
    try {
      await expanded.waitFor({ timeout: 5_000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** Opens `action`'s form, fills `fields` (selector → text), confirms, and waits for the panel's success line. */
export async function act(page: Page, action: string, fields: Record<string, string>) {
  await openForm(page, action);
  for (const [selector, text] of Object.entries(fields)) await page.fill(selector, text);
  await page.click(`button[data-confirm=${action}]`);
  await page.waitForSelector('[data-testid=action-ok]');
}
