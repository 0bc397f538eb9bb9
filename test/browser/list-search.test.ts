// Search and filters on the console's lists, kept in the URL (issue 46, finding 2): a tenant with
// 300 definitions finds its example by name and by key on the first page; the status filter, a
// reload and paging keep the filter; "no results" names the filter to clear; the inbox filters by
// process; the monitoring page's instances by business key. At 1440 and 390 px, in en and zh-CN.
// Screenshots: test/browser/screenshots/lists-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, createDemoLikeTenant } from '../helpers/api.js';
import { ConsoleBrowser, screenshots } from '../helpers/console-browser.js';
import { users } from '../helpers/dsl.js';
import { deploy, oneStep, start } from '../helpers/flow.js';
import { en } from '../../ui/src/i18n/en.js';
import { zhCN } from '../../ui/src/i18n/zh-CN.js';

const shot = screenshots('lists-');
const FILLERS = 300;
const DESKTOP = { viewport: { width: 1440, height: 900 } };
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

describe('list search and filters (console)', () => {
  const browser = new ConsoleBrowser();
  let tenantId: string;
  let tokens: Record<string, string>;

  const asAdmin = (locale: string, options = DESKTOP) =>
    browser.as('admin', { tenant: tenantId, password: 'secret-admin', locale, ...options });
  const definitionKeys = (page: Page) =>
    page.$$eval('#definitions tr[data-definition-key]', (rows) =>
      rows.map((r) => r.getAttribute('data-definition-key')),
    );
  const statuses = (page: Page) =>
    page.$$eval('#definitions tr[data-definition-key] .status', (s) => s.map((e) => e.className));
  /** What sticks out past the viewport's right edge (nothing: no sideways scrolling). */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll('main *')]
        .filter((e) => e.getBoundingClientRect().right > width + 1 && !e.closest('.table-wrap'))
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
        .slice(0, 10);
    });
  const waitList = (page: Page) => page.waitForSelector('#definitions tr[data-definition-key], [data-testid=no-match]');

  beforeAll(async () => {
    await browser.launch();
    ({ tenantId, tokens } = await createDemoLikeTenant('ui-lists'));
    // The examples first: the oldest rows, on the last page of an unfiltered list.
    const leave = oneStep('leave_request', users('bob'), { processInfo: { category: 'HR', description: 'Days off' } });
    leave.ruleChain.name = 'Leave request';
    await deploy(tokens.admin!, leave);
    await deploy(tokens.admin!, leave); // v1 retired, v2 active
    const expense = oneStep('expense_claim', users('bob'), { processInfo: { category: 'Finance' } });
    expense.ruleChain.name = 'Expense claim';
    await deploy(tokens.admin!, expense);
    // 300 more through the API, eight at a time.
    const keys = Array.from({ length: FILLERS }, (_, i) => `filler_${String(i).padStart(3, '0')}`);
    for (let i = 0; i < keys.length; i += 8)
      await Promise.all(
        keys.slice(i, i + 8).map((key) => {
          const dsl = oneStep(key, users('bob'), { processInfo: { category: 'Ops' } });
          dsl.ruleChain.name = `Filler process ${key.slice(7)}`;
          return deploy(tokens.admin!, dsl);
        }),
      );
    await start(tokens.alice!, 'leave_request', {}, 'LV-2026-1');
    await start(tokens.alice!, 'expense_claim', {}, 'EX-2026-1');
  }, 300_000);

  afterAll(() => browser.close());

  it('finds the example by name and by key on the first page, with the filter in the URL', async () => {
    const page = await asAdmin('en-GB');
    await page.goto(`${baseUrl()}/admin/definitions`);
    await waitList(page);
    expect(await page.textContent('#definitions .pager')).toContain(en.common.page(1, 16, FILLERS + 3));
    expect(await definitionKeys(page)).not.toContain('leave_request');

    await page.fill('[data-testid=definition-filters] input[name=q]', 'leave');
    await page.press('[data-testid=definition-filters] input[name=q]', 'Enter');
    await page.waitForURL(/[?&]q=leave/);
    await page.waitForFunction(() => document.querySelectorAll('#definitions tr[data-definition-key]').length === 2);
    expect(await definitionKeys(page)).toEqual(['leave_request', 'leave_request']);

    await page.fill('[data-testid=definition-filters] input[name=q]', 'EXPENSE_CLAIM');
    await page.click('[data-testid=definition-filters] button[type=submit]');
    await page.waitForURL(/[?&]q=EXPENSE_CLAIM/);
    await page.waitForFunction(() => document.querySelectorAll('#definitions tr[data-definition-key]').length === 1);
    expect(await definitionKeys(page)).toEqual(['expense_claim']);
    await shot(page, 'definitions-search-1440-en');
  });

  it('filters by status; a reload and paging keep the filter', async () => {
    const page = await asAdmin('en-GB');
    await page.goto(`${baseUrl()}/admin/definitions?q=leave`);
    await waitList(page);
    await page.selectOption('[data-testid=definition-filters] select[name=status]', 'retired');
    await page.waitForURL(/status=retired/);
    await page.waitForFunction(() => document.querySelectorAll('#definitions tr[data-definition-key]').length === 1);
    expect(await statuses(page)).toEqual(['status status-retired']);

    await page.reload();
    await waitList(page);
    expect(await page.inputValue('[data-testid=definition-filters] select[name=status]')).toBe('retired');
    expect(await page.inputValue('[data-testid=definition-filters] input[name=q]')).toBe('leave');
    expect(await definitionKeys(page)).toEqual(['leave_request']);

    // Paging keeps the filter: every active row on page 2, and the URL says both.
    await page.goto(`${baseUrl()}/admin/definitions?status=active`);
    await waitList(page);
    expect(await page.textContent('#definitions .pager')).toContain(en.common.page(1, 16, FILLERS + 2));
    await page.click(`#definitions .pager button:has-text("${en.common.next}")`);
    await page.waitForURL(/page=2/);
    expect(new URL(page.url()).searchParams.get('status')).toBe('active');
    await page.waitForFunction(() => document.querySelector('#definitions .pager')?.textContent?.includes('2'));
    expect(await page.textContent('#definitions .pager')).toContain(en.common.page(2, 16, FILLERS + 2));
    expect(new Set(await statuses(page))).toEqual(new Set(['status status-active']));
    await page.reload();
    await waitList(page);
    expect(await page.textContent('#definitions .pager')).toContain(en.common.page(2, 16, FILLERS + 2));

    // Nothing found: the page says which filter to clear, and clearing it brings rows back.
    await page.goto(`${baseUrl()}/admin/definitions?q=leave&status=draft`);
    await page.waitForSelector('[data-testid=no-match]');
    expect(
      await page.$$eval('[data-testid=no-match] [data-clear]', (b) => b.map((e) => e.getAttribute('data-clear'))),
    ).toEqual(['q', 'status', 'all']);
    expect(await page.textContent('[data-testid=no-match]')).toContain(en.definitionStatus.draft);
    await shot(page, 'definitions-no-match-1440-en');
    await page.click('[data-testid=no-match] [data-clear=status]');
    await page.waitForURL((u) => !u.searchParams.has('status') && u.searchParams.get('q') === 'leave');
    await page.waitForFunction(() => document.querySelectorAll('#definitions tr[data-definition-key]').length === 2);
  });

  it('filters the inbox by process, kept across a reload', async () => {
    const bob = await browser.as('bob', { tenant: tenantId, password: 'pw-bob', locale: 'en-GB', ...DESKTOP });
    await bob.goto(`${baseUrl()}/inbox/todo`);
    await bob.waitForSelector('[data-testid=list-todo] tr[data-task-id]');
    expect(await bob.$$eval('tr[data-task-id]', (r) => r.length)).toBe(2);
    await bob.waitForSelector('[data-testid=inbox-filters] select[name=process] option[value=leave_request]', {
      state: 'attached',
    });
    await bob.selectOption('[data-testid=inbox-filters] select[name=process]', 'leave_request');
    await bob.waitForURL(/process=leave_request/);
    await bob.waitForFunction(() => document.querySelectorAll('tr[data-task-id]').length === 1);
    expect(await bob.getAttribute('tr[data-task-id]', 'data-business-key')).toBe('LV-2026-1');
    await bob.reload();
    await bob.waitForSelector('tr[data-task-id]');
    expect(await bob.$$eval('tr[data-task-id]', (r) => r.map((e) => e.getAttribute('data-business-key')))).toEqual([
      'LV-2026-1',
    ]);
    // The business key search is the server's: part of the key, any case.
    await bob.goto(`${baseUrl()}/inbox/todo?bk=ex-2026`);
    await bob.waitForFunction(() => document.querySelectorAll('tr[data-task-id]').length === 1);
    expect(await bob.getAttribute('tr[data-task-id]', 'data-business-key')).toBe('EX-2026-1');
    await shot(bob, 'inbox-filtered-1440-en');
  });

  it('searches instances on the monitoring page', async () => {
    const page = await asAdmin('en-GB');
    await page.goto(`${baseUrl()}/admin/monitoring?q=lv-2026`);
    await page.waitForSelector('[data-testid=instance-list] tr[data-instance-id]');
    expect(await page.$$eval('[data-testid=instance-list] tbody tr', (r) => r.length)).toBe(1);
    await page.selectOption('[data-testid=instance-filters] select[name=status]', 'completed');
    await page.waitForURL((u) => u.searchParams.get('status') === 'completed' && u.searchParams.get('q') === 'lv-2026');
    await page.waitForSelector('#instances [data-testid=no-match]');
    await shot(page, 'monitoring-instances-1440-en');
  });

  it('keeps the deliveries filter in the URL', async () => {
    const page = await asAdmin('en-GB');
    await page.goto(`${baseUrl()}/admin/notifications/deliveries?status=failed`);
    await page.waitForSelector('[data-testid=delivery-filters] select[name=status]');
    expect(await page.inputValue('[data-testid=delivery-filters] select[name=status]')).toBe('failed');
    await page.selectOption('[data-testid=delivery-filters] select[name=status]', 'sent');
    await page.click('[data-testid=delivery-filters] button[type=submit]');
    await page.waitForURL((u) => u.searchParams.get('status') === 'sent');
    await page.reload();
    await page.waitForSelector('[data-testid=delivery-filters] select[name=status]');
    expect(await page.inputValue('[data-testid=delivery-filters] select[name=status]')).toBe('sent');
  });

  for (const [locale, words, tag] of [
    ['en-GB', en, 'en'],
    ['zh-CN', zhCN, 'zh-CN'],
  ] as const) {
    it(`works at 390 px and in ${tag}`, async () => {
      const phone = await asAdmin(locale, PHONE);
      await phone.goto(`${baseUrl()}/admin/definitions?q=leave`);
      await waitList(phone);
      expect(await definitionKeys(phone)).toEqual(['leave_request', 'leave_request']);
      expect(await phone.textContent('[data-testid=definition-filters]')).toContain(words.lists.status);
      expect(await overflow(phone)).toEqual([]);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await shot(phone, `definitions-search-390-${tag}`);
      await phone.goto(`${baseUrl()}/admin/definitions?q=nothing-like-it&status=active`);
      await phone.waitForSelector('[data-testid=no-match]');
      expect(await phone.textContent('[data-testid=no-match]')).toContain(words.lists.noMatch);
      expect(await overflow(phone)).toEqual([]);
      await shot(phone, `definitions-no-match-390-${tag}`);

      const bob = await browser.as('bob', { tenant: tenantId, password: 'pw-bob', locale, ...PHONE });
      await bob.goto(`${baseUrl()}/inbox/todo?process=leave_request`);
      await bob.waitForFunction(() => document.querySelectorAll('tr[data-task-id]').length === 1);
      expect(await overflow(bob)).toEqual([]);
      // The filters fold behind a button that counts them; the cards have no header row above them,
      // select-all is in the batch bar.
      const toggle = bob.locator('[data-testid=inbox-filters-toggle]');
      expect(await toggle.textContent()).toBe(words.lists.filters(1));
      expect(await bob.isVisible('[data-testid=inbox-filters]')).toBe(false);
      expect(await bob.isVisible('[data-testid=list-todo] thead')).toBe(false);
      await bob.check('.batch .select-all input');
      expect(await bob.isChecked('tr[data-task-id] input[type=checkbox]')).toBe(true);
      await shot(bob, `inbox-filtered-390-${tag}`);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await bob.inputValue('[data-testid=inbox-filters] select[name=process]')).toBe('leave_request');
      expect(await overflow(bob)).toEqual([]);
      await shot(bob, `inbox-filters-open-390-${tag}`);
      if (tag === 'zh-CN') {
        const wide = await asAdmin(locale);
        await wide.goto(`${baseUrl()}/admin/definitions?q=leave`);
        await waitList(wide);
        expect(await wide.textContent('[data-testid=definition-filters]')).toContain(zhCN.lists.anyCategory);
        // A definition's status in its own words: 在用/已停用, never a request's 审批中.
        const rows = await wide.textContent('#definitions tbody');
        expect(rows).toContain(zhCN.definitionStatus.active);
        expect(rows).not.toContain(zhCN.status.active);
        await shot(wide, 'definitions-search-1440-zh-CN');
        await wide.goto(`${baseUrl()}/admin/monitoring?q=2026`);
        await wide.waitForSelector('[data-testid=instance-list] tr[data-instance-id]');
        await shot(wide, 'monitoring-instances-1440-zh-CN');
      }
    });
  }
});
