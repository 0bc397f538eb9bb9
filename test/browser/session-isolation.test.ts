// Two people sharing one browser tab (a kiosk, a shared office PC): after a logout or an expired
// token, the next person's session shows nothing of the previous one — not the directory in a
// user picker, the badge, inbox rows, drafts, notifications nor a half-filled start form — even
// when an answer to the previous session's request arrives late. Real stack, real Chromium.
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, baseUrl, create, login, systemAdmin } from '../helpers/api.js';
import { ConsoleBrowser, logIn, openInboxRow, screenshots } from '../helpers/console-browser.js';

const SESSION_KEY = 'approval-center.session';
const PROCESS = 'iso_form';
const run = randomUUID().slice(0, 8);

const browser = new ConsoleBrowser();
const shot = screenshots('session-isolation-');
/** The second tenant, its admin's password, and what each tenant's admin has in the inbox. */
const other = { tenantId: `leakb-${run}`, password: 'secret-leakb', instanceBk: `LEAKB-${run}` };
const demo = { instanceBk: `DEMO-SECRET-${run}`, draftBk: `DEMO-DRAFT-${run}`, typedBk: `DEMO-TYPED-${run}` };
let demoInstance = '';
let demoUsernames: string[] = [];
let otherUsers: string[] = [];

/** A process whose one approver is the tenant's admin, with a form field to type into. */
function isoProcess() {
  const nodes = [
    { id: 'start', type: 'startTask', name: 'Start' },
    {
      id: 'approve',
      type: 'userTask',
      name: 'Admin approves',
      configuration: {
        approver: { type: 'user', userIds: ['admin'] },
        approveMode: 'single',
        reject: { strategy: 'terminate' },
      },
    },
    { id: 'end', type: 'end', name: 'End' },
  ];
  return {
    ruleChain: {
      id: PROCESS,
      name: 'Isolation check',
      root: true,
      additionalInfo: {
        category: 'Browser tests',
        form: { fields: [{ name: 'note', type: 'text', label: 'Note' }] },
      },
    },
    metadata: {
      firstNodeIndex: 0,
      nodes,
      connections: nodes.slice(1).map((n, i) => ({ fromId: nodes[i]!.id, toId: n.id, type: 'Success' })),
    },
  };
}

async function startAs(token: string, businessKey: string, extra: Record<string, unknown> = {}) {
  const r = await api('/api/v1/workflow/process-instances/start', {
    token,
    body: { processKey: PROCESS, businessKey, variables: { note: 'x' }, ...extra },
  });
  if (r.status !== 201) throw new Error(`start failed: ${JSON.stringify(r.body)}`);
  return r.body.data.instanceId as string;
}

const newPage = (): Promise<Page> => browser.page();

/** Moves within the console the way its links do (history API, no page load), so what the page keeps in memory stays. */
async function inApp(page: Page, to: string) {
  await page.evaluate((url) => {
    history.pushState(null, '', url);
    dispatchEvent(new PopStateEvent('popstate'));
  }, to);
}

/** As the demo admin: the transfer picker lists the demo directory, the start form has typed text. */
async function useDemoSession(page: Page) {
  await page.goto(`${baseUrl()}/instances/${encodeURIComponent(demoInstance)}`);
  await page.click('[data-testid=actions] button[data-action=transfer]');
  // The first session really saw the demo directory (so its absence later means something).
  for (const u of ['alice', 'bob', 'erin']) {
    await page.fill('#transfer-user', u);
    await page.waitForSelector(`#transfer-user-list [role=option][data-id="${u}"]`);
  }
  await page.fill('#transfer-user', '');
  await typeIntoStartForm(page);
}

async function typeIntoStartForm(page: Page) {
  await inApp(page, `/start/${PROCESS}`);
  await page.fill('#businessKey', demo.typedBk);
  await page.fill('#start-note', 'typed by the demo admin');
}

/** As the other tenant's admin: nothing of the demo session anywhere. */
async function expectNoTraceOfDemo(page: Page, label: string) {
  expect(await page.textContent('[data-testid=whoami]')).toBe(`admin@${other.tenantId}`);
  const demoMarks = [demo.instanceBk, demo.draftBk, demo.typedBk, 'typed by the demo admin'];
  const noDemoText = async (where: string) => {
    const text = (await page.textContent('body')) ?? '';
    for (const mark of demoMarks) expect(text, `${label}: ${where} shows ${mark}`).not.toContain(mark);
  };

  // Inbox: the other tenant's own row, none of demo's; the badge counts the other tenant's tasks.
  await inApp(page, '/inbox/todo');
  const row = page.locator(`tr[data-business-key="${other.instanceBk}"]`);
  await row.waitFor();
  await noDemoText('the to-do list');
  const token = await login('admin', other.password, other.tenantId);
  const stats = (await api('/api/v1/workflow/tasks/statistics', { token })).body.data;
  await expect
    .poll(() => page.textContent('[data-testid=todo-badge]'), { timeout: 10_000 })
    .toBe(String((stats.todo ?? 0) + (stats.claimable ?? 0)));
  await page.click('a[href="/inbox/applications"]');
  await page.waitForSelector('a[href="/inbox/applications"][aria-current=page]');
  await page.waitForLoadState('networkidle');
  await noDemoText('the applications (drafts) list');

  // The start form of the same process key: empty.
  await page.click('a[href="/start"]');
  await page.click(`a[href="/start/${PROCESS}"]`);
  await page.waitForSelector('#businessKey');
  expect(await page.inputValue('#businessKey')).toBe('');
  expect(await page.inputValue('#start-note')).toBe('');

  // The instance from the inbox, and its transfer picker: this tenant's directory only.
  await page.click('a[href="/inbox/todo"]');
  await openInboxRow(page, other.instanceBk);
  await page.click('[data-testid=actions] button[data-action=transfer]');
  // The picker's first page (empty box: the server's answer, no recent choices of the demo session).
  await page.focus('#transfer-user');
  await page.waitForSelector('#transfer-user-list[data-state=done] [role=option][data-id]');
  const listed = await page.$$eval('#transfer-user-list [role=option][data-id]', (os) =>
    os.map((o) => o.getAttribute('data-id')!),
  );
  expect(listed.sort(), `${label}: the transfer picker`).toEqual(otherUsers.filter((u) => u !== 'admin').sort());
  const pickerText = (await page.textContent('#transfer-user-list')) ?? '';
  for (const u of demoUsernames.filter((u) => !otherUsers.includes(u)).slice(0, 50))
    expect(pickerText, `${label}: picker lists demo user ${u}`).not.toMatch(new RegExp(`\\(${u}\\)|^${u}$`, 'm'));
  await noDemoText('the instance page');
  await shot(page, label);
}

beforeAll(async () => {
  await browser.launch();
  const demoAdmin = await login('admin', 'admin', 'demo');
  await create(demoAdmin, '/api/v1/workflow/process-definitions/deploy', { dsl: isoProcess() });
  demoInstance = await startAs(demoAdmin, demo.instanceBk);
  await startAs(demoAdmin, demo.draftBk, { draft: true });
  demoUsernames = (await api('/api/v1/users?pageSize=200', { token: demoAdmin })).body.data.items.map(
    (u: any) => u.username,
  );

  await create(await systemAdmin(), '/api/v1/tenants', {
    id: other.tenantId,
    name: 'Leak check B',
    admin: { username: 'admin', password: other.password },
  });
  const otherAdmin = await login('admin', other.password, other.tenantId);
  await create(otherAdmin, '/api/v1/users', { id: 'kim', username: 'kim', password: 'pw-kim', roles: ['admin'] });
  await create(otherAdmin, '/api/v1/workflow/process-definitions/deploy', { dsl: isoProcess() });
  await startAs(otherAdmin, other.instanceBk);
  otherUsers = (await api('/api/v1/users?pageSize=200', { token: otherAdmin })).body.data.items.map(
    (u: any) => u.username,
  );
});

afterAll(() => browser.close());

describe('one tab, two sessions', () => {
  it('after a logout, the next login (another tenant) sees nothing of the first session', async () => {
    const page = await newPage();
    await page.goto(`${baseUrl()}/`);
    await logIn(page, 'demo', 'admin', 'admin');
    await useDemoSession(page);
    await page.click('button:has-text("Log out")');
    await logIn(page, other.tenantId, 'admin', other.password);
    await expectNoTraceOfDemo(page, 'logout');
  });

  it("an answer to the first session's request that arrives after the next login does not reach it", async () => {
    const page = await newPage();
    await page.goto(`${baseUrl()}/`);
    await logIn(page, 'demo', 'admin', 'admin');
    await typeIntoStartForm(page);
    // The demo session's directory request is held back until the next person has logged in.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let demoAsked = false;
    await page.route('**/api/v1/users?*', async (route) => {
      if (tenantOfAuthorization(route.request().headers().authorization) === 'demo') {
        demoAsked = true;
        await held;
      }
      await route.continue().catch(() => {});
    });
    await inApp(page, `/instances/${encodeURIComponent(demoInstance)}`);
    await page.click('[data-testid=actions] button[data-action=transfer]');
    await page.focus('#transfer-user'); // the picker asks the server once it is used
    await expect.poll(() => demoAsked).toBe(true);
    await page.click('button:has-text("Log out")');
    await logIn(page, other.tenantId, 'admin', other.password);
    release();
    await expectNoTraceOfDemo(page, 'late-answer');
  });

  it("a logout in another tab of the same browser ends this tab's session too, and its next login is the one shown", async () => {
    const first = await newPage();
    await first.goto(`${baseUrl()}/`);
    await logIn(first, 'demo', 'admin', 'admin');
    await useDemoSession(first);
    const second = await first.context().newPage();
    await second.goto(`${baseUrl()}/inbox/todo`);
    await second.waitForSelector('[data-testid=whoami]');
    await second.click('button:has-text("Log out")');
    // The person switches between the tabs as they use them: a hidden tab runs no animation frames,
    // which every click there waits for, and is throttled under load (the case took 18 s before).
    // The first tab has left the demo session: the login form, nothing of demo on it.
    await first.bringToFront();
    await first.waitForSelector('input[name=username]');
    expect((await first.textContent('body')) ?? '').not.toContain(demo.typedBk);
    await second.bringToFront();
    await logIn(second, other.tenantId, 'admin', other.password);
    await first.bringToFront();
    // ...and follows the other tab's new login with a fresh page of that session.
    await expect
      .poll(() => first.textContent('[data-testid=whoami]').catch(() => null))
      .toBe(`admin@${other.tenantId}`);
    await expectNoTraceOfDemo(first, 'other-tab');
  });

  it('after the token expired, the next login (another tenant) sees nothing of the first session', async () => {
    const page = await newPage();
    // The page's clock is Playwright's, so the test need not wait for the expiry in real time.
    await page.clock.install();
    // A real token of the demo admin, valid for a minute.
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = await new SignJWT({ tid: 'demo' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('admin')
      .setIssuer('approval-service')
      .setAudience('approval-api')
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(inject('jwtSecret')));
    const can = { definitionsWrite: true, monitor: true, directory: true, admin: true };
    await page.goto(`${baseUrl()}/`);
    await page.evaluate(
      ([key, value]) => localStorage.setItem(key!, value!),
      [SESSION_KEY, JSON.stringify({ token, userId: 'admin', tenantId: 'demo', username: 'admin', exp, can })],
    );
    await page.reload();
    await page.waitForSelector('[data-testid=whoami]');
    await useDemoSession(page);
    // The session ends by itself at the token's expiry: the login form says why.
    await page.clock.fastForward(Math.max(0, exp * 1000 - (await page.evaluate(() => Date.now()))) + 1000);
    const expired = page.locator('.login [role=alert]');
    await expired.waitFor();
    expect(await expired.textContent()).toContain('expired');
    expect(await page.evaluate((key) => localStorage.getItem(key), SESSION_KEY)).toBeNull();
    await logIn(page, other.tenantId, 'admin', other.password);
    await expectNoTraceOfDemo(page, 'expired');
  });
});

/** The `tid` claim of a `Bearer` header's token. */
function tenantOfAuthorization(header: string | undefined): string | null {
  const payload = header?.replace(/^Bearer /, '').split('.')[1];
  if (!payload) return null;
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')).tid ?? null;
}
