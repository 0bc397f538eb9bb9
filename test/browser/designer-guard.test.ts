// Nothing lost by a stray click, and the phone (issue 46): the designer asks before it is left with unsaved
// changes (a link, Back, a reload); Publish is off with its reason while the page equals the active version;
// Ctrl+Z is the designer's on the page and the browser's own in a text field (the old "HR checkHR review");
// Compare says what it needs; a definition's status is its own word. At 390 px: the compact header, the
// designer's column and panel, the inbox badge equal to the list, the thumb's action bar. en and zh-CN.
// Screenshots: test/browser/screenshots/guard-*.png.
import { randomUUID } from 'node:crypto';
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, login } from '../helpers/api.js';
import { ConsoleBrowser, demoPassword, screenshots } from '../helpers/console-browser.js';
import { processDoc } from '../helpers/dsl.js';
import { en } from '../../ui/src/features/designer/i18n/en.js';
import { zhCN as designerZh } from '../../ui/src/features/designer/i18n/zh-CN.js';

const TENANT = 'demo';
const DEFS = '/api/v1/workflow/process-definitions';
const browser = new ConsoleBrowser({ viewport: { width: 1440, height: 1000 } });
const shot = screenshots('guard-');
const tokens: Record<string, string> = {};
const token = async (u: string) => (tokens[u] ??= await login(u, demoPassword(u), TENANT));
type Lang = 'en-GB' | 'zh-CN';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const as = (user: string, lang: Lang = 'en-GB', phone = false) =>
  browser.as(user, { locale: lang, ...(phone ? PHONE : {}) });

/** A published leave process: start → "HR check" (erin) → end. */
async function publishLeave(): Promise<{ id: string; key: string }> {
  const key = `leave_guard_${randomUUID().slice(0, 6)}`;
  const dsl = processDoc(
    { id: key, name: 'Leave (guard)', additionalInfo: { category: 'HR' } },
    [
      {
        id: 'hr',
        type: 'userTask',
        name: 'HR check',
        configuration: { approver: { type: 'user', userIds: ['erin'] } },
      },
    ],
    [
      ['start', 'hr'],
      ['hr', 'end'],
    ],
  );
  const r = await api(`${DEFS}/deploy`, { token: await token('admin'), body: { dsl } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { id: r.body.data.id, key };
}

const openDesigner = async (page: Page, id: string) => {
  await page.goto(`${baseUrl()}/admin/designer/${encodeURIComponent(id)}`);
  await page.waitForSelector('[data-testid=flow]');
};
const nameBox = (page: Page) => page.locator('#hr-name');
const selectHr = (page: Page) => page.click('[data-node-id=hr] > button[aria-pressed]');

/** Width the page scrolls sideways by (0: it fits). */
const sideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

beforeAll(() => browser.launch());
afterAll(() => browser.close());

describe('designer: nothing lost', () => {
  it('Publish is off with the reason while nothing changed; Compare with one version says what it needs; the status is "Active"', async () => {
    const { id } = await publishLeave();
    const page = await as('admin');
    await openDesigner(page, id);
    await page.waitForSelector('[data-testid=publish-unchanged]');
    expect(await page.getAttribute('[data-tool=publish]', 'disabled')).not.toBeNull();
    expect(await page.textContent('[data-testid=publish-unchanged]')).toBe(en.designer.unchanged(1));
    await page.waitForSelector('[data-testid=compare-needs-two]');
    expect(await page.textContent('[data-testid=compare-needs-two]')).toBe(en.designer.cmp.needsTwo);
    expect(await page.textContent('[data-testid=definition-status]')).toBe('Active');
    await shot(page, 'unchanged-1440-en');

    // An edit enables Publish; typing the old name back (another object, the same document) disables it again.
    await selectHr(page);
    await nameBox(page).fill('HR review');
    await page.waitForSelector('[data-testid=publish-unchanged]', { state: 'detached' });
    expect(await page.getAttribute('[data-tool=publish]', 'disabled')).toBeNull();
    await nameBox(page).fill('HR check');
    await page.waitForSelector('[data-testid=publish-unchanged]');
    expect(await page.getAttribute('[data-tool=publish]', 'disabled')).not.toBeNull();

    // A real change publishes as version 2 (through deploy with the duplicate filter); then there is
    // nothing to publish again, and nothing is left unsaved (leaving would not ask).
    await nameBox(page).fill('HR review');
    await page.click('[data-tool=publish]');
    await page.waitForSelector(`[data-testid=designer-outcome]:has-text("${en.designer.published(2)}")`);
    await page.waitForSelector('[data-testid=publish-unchanged]');
    expect(await page.textContent('[data-testid=publish-unchanged]')).toBe(en.designer.unchanged(2));
    expect(await page.$(`text=${en.designer.unsaved}`)).toBeNull();
  });

  it('undo/redo: the designer\'s on the page, the browser\'s own in a text field (no "HR checkHR review")', async () => {
    const { id } = await publishLeave();
    const page = await as('admin');
    await openDesigner(page, id);
    await selectHr(page);
    // The old bug's steps: rename by typing, Undo, Redo (buttons), then Ctrl+Z with focus on the page.
    await nameBox(page).click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('HR review');
    await page.click('[data-tool=undo]');
    expect(await nameBox(page).inputValue()).toBe('HR check');
    await page.click('[data-tool=redo]');
    expect(await nameBox(page).inputValue()).toBe('HR review');
    await page.click('h1');
    await page.keyboard.press('Control+z');
    expect(await nameBox(page).inputValue()).toBe('HR check');
    await page.keyboard.press('Control+Shift+z');
    expect(await nameBox(page).inputValue()).toBe('HR review');
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+y');
    expect(await nameBox(page).inputValue()).toBe('HR review');

    // In the text field Ctrl+Z is the browser's text undo: it takes back the typing, and the designer's
    // own history is left alone (its Undo still takes the rename back to "HR check").
    // Typing in one field within a second merges into one designer entry: wait so each step is its own.
    await page.waitForTimeout(1100);
    await nameBox(page).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' 2');
    await page.waitForTimeout(1100);
    expect(await nameBox(page).inputValue()).toBe('HR review 2');
    await page.keyboard.press('Control+z');
    expect(await nameBox(page).inputValue()).toBe('HR review');
    await expect.poll(() => page.textContent('[data-node-id=hr]')).not.toContain('HR review 2');
    // Back on the page: the designer's steps, one by one (the text undo, the typing, the rename).
    await page.click('h1');
    for (const expected of ['HR review 2', 'HR review', 'HR check']) {
      await page.keyboard.press('Control+z');
      expect(await nameBox(page).inputValue()).toBe(expected);
    }
    await shot(page, 'undo-1440-en');
  });

  it('asks before leaving with unsaved changes: a console link (stay, then leave), Back, a reload', async () => {
    const { id } = await publishLeave();
    const page = await as('admin');
    // Into the designer from the definition's page, inside the console (so Back stays in the page).
    await page.goto(`${baseUrl()}/admin/definitions/${encodeURIComponent(id)}`);
    await page.click('h1 button');
    await page.waitForSelector('[data-testid=flow]');
    const url = page.url();
    const asked: Dialog[] = [];
    const answer = { accept: false };
    page.on('dialog', (d) => {
      asked.push(d);
      void (answer.accept ? d.accept() : d.dismiss());
    });
    await selectHr(page);
    await nameBox(page).fill('HR review');
    await page.waitForSelector('[data-testid=designer-toolbar] >> text=' + en.designer.unsaved);

    // A link in the header: the console's question; Cancel stays with the edit.
    await page.click('header a[href="/admin/definitions"]');
    expect(asked.map((d) => [d.type(), d.message()])).toEqual([['confirm', en.designer.leaveUnsaved]]);
    expect(page.url()).toBe(url);
    expect(await nameBox(page).inputValue()).toBe('HR review');

    // A reload: the browser's own question (beforeunload); dismissed, the page and the edit stay.
    asked.length = 0;
    await page.reload({ timeout: 3000 }).catch(() => {});
    expect(asked.map((d) => d.type())).toEqual(['beforeunload']);
    expect(await nameBox(page).inputValue()).toBe('HR review');

    // Back: asked too; Cancel keeps the address and the edit.
    asked.length = 0;
    await page.evaluate(() => history.back());
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]!.message()).toBe(en.designer.leaveUnsaved);
    // (the dialog is reported as it opens: the address comes back once it is answered)
    await expect.poll(() => page.url()).toBe(url);
    expect(await nameBox(page).inputValue()).toBe('HR review');

    // OK leaves.
    answer.accept = true;
    asked.length = 0;
    await page.click('header a[href="/admin/definitions"]');
    await page.waitForURL(`${baseUrl()}/admin/definitions`);
    expect(asked.map((d) => d.type())).toEqual(['confirm']);
  });

  it('zh-CN: a definition is 在用, never 审批中; the words of the unchanged reason and Compare', async () => {
    const { id } = await publishLeave();
    const page = await as('admin', 'zh-CN');
    await openDesigner(page, id);
    await page.waitForSelector('[data-testid=publish-unchanged]');
    expect(await page.textContent('[data-testid=definition-status]')).toBe('在用');
    expect(await page.textContent('h1')).not.toContain('审批中');
    expect(await page.textContent('[data-testid=publish-unchanged]')).toBe(designerZh.designer.unchanged(1));
    expect(await page.textContent('[data-testid=compare-needs-two]')).toBe(designerZh.designer.cmp.needsTwo);
    await shot(page, 'unchanged-1440-zh');
  });
});

describe('the phone (390 px)', () => {
  for (const lang of ['en-GB', 'zh-CN'] as const) {
    const tag = lang === 'en-GB' ? 'en' : 'zh';
    it(`${lang}: a compact header with a menu; the designer fits and selecting a card brings its panel into view`, async () => {
      const { id } = await publishLeave();
      const page = await as('admin', lang, true);
      const header = await page.locator('header.top').boundingBox();
      expect(header!.height).toBeLessThanOrEqual(64);
      await shot(page, `header-390-${tag}`);
      await page.click('[data-testid=menu-button]');
      await page.waitForSelector('header.top nav a[href="/admin/definitions"]', { state: 'visible' });
      expect(await page.getAttribute('[data-testid=menu-button]', 'aria-expanded')).toBe('true');
      await shot(page, `menu-390-${tag}`);
      await page.click('header.top nav a[href="/admin/definitions"]');
      await page.waitForURL(`${baseUrl()}/admin/definitions`);
      // The page changed: the menu folds again.
      expect(await page.getAttribute('[data-testid=menu-button]', 'aria-expanded')).toBe('false');

      await openDesigner(page, id);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await shot(page, `designer-390-${tag}`);
      await selectHr(page);
      const panel = page.locator('aside').filter({ has: page.locator('#hr-name') });
      await expect
        .poll(async () => {
          const box = await panel.boundingBox();
          return box !== null && box.y < 844 && box.y + 40 > 0;
        })
        .toBe(true);
      expect(await sideways(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${process.cwd()}/test/browser/screenshots/guard-designer-panel-390-${tag}.png` });
    });
  }

  it("the Inbox badge is the To do list's number for a user with a pool task (erin), at 390 and 1440 px", async () => {
    const key = `pool_count_${randomUUID().slice(0, 6)}`;
    const dsl = processDoc(
      { id: key, name: 'Pool count' },
      [
        {
          id: 'pool',
          type: 'userTask',
          name: 'Pool',
          configuration: { approver: { type: 'user', userIds: ['erin', 'frank'] }, approveMode: 'single' },
        },
      ],
      [
        ['start', 'pool'],
        ['pool', 'end'],
      ],
    );
    expect((await api(`${DEFS}/deploy`, { token: await token('admin'), body: { dsl } })).status).toBe(201);
    const started = await api('/api/v1/workflow/process-instances/start', {
      token: await token('alice'),
      body: { processKey: key, businessKey: `POOL-${randomUUID().slice(0, 6)}`, variables: {} },
    });
    expect(started.status, JSON.stringify(started.body)).toBeLessThan(300);
    const stats = async () =>
      (await api('/api/v1/workflow/tasks/statistics', { token: await token('erin') })).body.data;
    await expect.poll(async () => (await stats()).claimable, { timeout: 30_000 }).toBeGreaterThan(0);
    const { todo, claimable } = await stats();
    const listed = (await api('/api/v1/workflow/process-instances/todo?pageSize=1', { token: await token('erin') }))
      .body.data.total;
    expect(todo).toBe(listed); // the API's rule: claimable is the pool part of todo
    expect(todo + claimable).not.toBe(listed); // so the old badge (todo + claimable) was wrong

    for (const [lang, phone] of [
      ['en-GB', true],
      ['zh-CN', true],
      ['en-GB', false],
    ] as const) {
      const page = await as('erin', lang, phone);
      await page.goto(`${baseUrl()}/inbox/todo`);
      await page.waitForSelector('[data-testid=list-todo] tr.pool');
      await expect.poll(() => page.textContent('[data-testid=todo-badge]')).toBe(String(listed));
      const rows = await page.locator('[data-testid=list-todo] tbody tr').count();
      if (listed <= 20) expect(rows).toBe(listed);
      const tag = `${phone ? 390 : 1440}-${lang === 'en-GB' ? 'en' : 'zh'}`;
      await shot(page, `inbox-${tag}`);
      if (phone) {
        // The instance page: the actions within the thumb's reach (the bottom of the screen).
        await page.locator('[data-testid=list-todo] tr.pool a').first().click();
        await page.waitForSelector('[data-testid=actions] button');
        const bottomOfActions = async () => {
          const box = await page.locator('[data-testid=actions]').boundingBox();
          return Math.round(box!.y + box!.height);
        };
        expect(await bottomOfActions()).toBe(844);
        // Scrolled to the end of the page: still along the bottom edge, and nothing hidden behind them.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        expect(await bottomOfActions()).toBe(844);
        expect(await sideways(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: `${process.cwd()}/test/browser/screenshots/guard-instance-${tag}.png` });
      }
    }
  });
});
