// The one people picker against a directory larger than a page (issue 46, finding 1): a tenant of
// 300+ users made through the API, the names the tests look for sorted after the first 200 (the
// console once loaded `pageSize=200` and filtered in the browser). The designer's People picker
// finds erin and 张三 by pinyin, Try it's initiator picker finds alice, a task's transfer picker
// hands the task to a user beyond 200, the directory page searches and pages from the URL; the
// picker open with results and chips at 1440 and 390 px, in English and 简体中文.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, create, createDemoLikeTenant } from '../helpers/api.js';
import { linear, steps } from '../helpers/dsl.js';
import { ConsoleBrowser, act, openForm, screenshots } from '../helpers/console-browser.js';

const browser = new ConsoleBrowser({ viewport: { width: 1440, height: 1000 } });
const shot = screenshots('people-picker-');
const EXTRA = 300;
/** The tenant's size beyond the demo people and EXTRA: the 20,000. */
const BIG = 20_000;
let tenantId = '';
let adminToken = '';
let adminId = '';

type Size = { lang: 'en-GB' | 'zh-CN'; width: 1440 | 390 };
const adminPage = ({ lang, width }: Size = { lang: 'en-GB', width: 1440 }) =>
  browser.as('admin', {
    tenant: tenantId,
    password: 'secret-admin',
    locale: lang,
    viewport: { width, height: width === 390 ? 844 : 1000 },
  });

/** The picker whose text box is `#id`. */
const picker = (page: Page, id: string) => page.locator(`[data-picker="${id}"]`);
const option = (page: Page, id: string, userId: string) =>
  picker(page, id).locator(`[role=listbox] [role=option][data-id="${userId}"]`);
const chip = (page: Page, id: string, userId: string) =>
  picker(page, id).locator(`[data-testid=chips] li[data-id="${userId}"]`);

/** Types `text` into the picker and waits for `userId` among the server's answers. */
async function find(page: Page, id: string, text: string, userId: string) {
  await page.fill(`#${id}`, text);
  await option(page, id, userId).waitFor();
}

/** The picker at 390 px: its list as wide as its panel at most, nothing to scroll sideways inside it. */
async function expectFits(page: Page, id: string) {
  const box = await picker(page, id).evaluate((root) => {
    const list = root.querySelector('[role=listbox]') as HTMLElement;
    const r = list.getBoundingClientRect();
    return { right: r.right, left: r.left, scroll: list.scrollWidth, client: list.clientWidth, vw: innerWidth };
  });
  expect(box.left, JSON.stringify(box)).toBeGreaterThanOrEqual(0);
  expect(box.right, JSON.stringify(box)).toBeLessThanOrEqual(box.vw);
  expect(box.scroll, JSON.stringify(box)).toBeLessThanOrEqual(box.client);
}

beforeAll(async () => {
  await browser.launch();
  const demo = await createDemoLikeTenant('pp');
  tenantId = demo.tenantId;
  adminToken = demo.tokens.admin!;
  // 300 people whose usernames sort before every demo name (the list is ordered by username), so
  // alice, erin, grace and 张三 are all beyond the first 200; ten at a time.
  const people = Array.from({ length: EXTRA }, (_, i) => {
    const n = String(i + 1).padStart(3, '0');
    return {
      id: `emp-${n}`,
      username: `a-emp-${n}`,
      displayName: `Employee ${n}`,
      password: 'pw-employee',
      deptId: ['eng', 'hr', 'finance'][i % 3],
    };
  });
  // 张三's username says nothing of his name: only pinyin finds him by "zhangsan".
  people.push({ id: 'zhang-san', username: 'u-7788', displayName: '张三', password: 'pw-employee', deptId: 'hr' });
  for (let i = 0; i < people.length; i += 10)
    await Promise.all(people.slice(i, i + 10).map((p) => create(adminToken, '/api/v1/users', p)));
  // A real organisation's size: 20,000 more, with Chinese names, through the directory's batch API.
  // Their names and initials never read zhangsan or zs (no 张/赵/周, no given name in s or sh), so the
  // pinyin search below must pick 张三 out of them.
  const surnames = ['王', '李', '刘', '陈', '杨', '黄', '吴', '孙', '马', '林'];
  const given = [
    '伟',
    '芳',
    '娜',
    '敏',
    '静',
    '丽',
    '强',
    '磊',
    '军',
    '洋',
    '勇',
    '艳',
    '杰',
    '娟',
    '涛',
    '明',
    '超',
    '霞',
    '平',
    '刚',
  ];
  for (let from = 0; from < BIG; from += 1000) {
    const users = Array.from({ length: Math.min(1000, BIG - from) }, (_, k) => {
      const i = from + k;
      return {
        id: `m-${i}`,
        username: `m-${String(i).padStart(5, '0')}`,
        displayName: `${surnames[i % surnames.length]}${given[Math.floor(i / surnames.length) % given.length]}${given[Math.floor(i / 200) % given.length]}`,
        password: 'pw-member',
        deptId: ['eng', 'hr', 'finance'][i % 3],
      };
    });
    await create(adminToken, '/api/v1/users/batch', { users });
  }
  const listed = await api('/api/v1/users?page=1&pageSize=200', { token: adminToken });
  const first200 = (listed.body.data.items as Array<{ id: string; username: string }>).map((u) => u.id);
  expect(listed.body.data.total).toBeGreaterThan(BIG + 300);
  for (const u of ['alice', 'erin', 'grace', 'zhang-san']) expect(first200, u).not.toContain(u);
  adminId = (listed.body.data.items as Array<{ id: string; username: string }>)
    .concat((await api('/api/v1/users?q=admin&pageSize=50', { token: adminToken })).body.data.items)
    .find((u) => u.username === 'admin')!.id;
}, 240_000);
afterAll(() => browser.close());

/** A new process with one approver step of named people, its People picker open on `text`. */
async function designerPicker(page: Page, name?: { name: string; key: string }) {
  await page.goto(`${baseUrl()}/admin/designer/new`);
  await page.waitForSelector('[data-testid=flow]');
  if (name) {
    await page.fill('#p-name', name.name);
    await page.fill('#p-key', name.key);
  }
  const flow = page.locator('[data-testid=flow]');
  await flow.locator('> [data-slot]').first().locator('button[aria-expanded]').click();
  await flow.locator('> [data-slot]').first().locator('[data-kind=approver]').click();
  await page.click('[data-node-id=approver_1] > button[aria-pressed]');
  await page.selectOption('#approver_1-approver', 'user');
  return 'approver_1-userIds';
}

describe('the people picker in a directory larger than a page', () => {
  it('the designer’s People picker finds erin (beyond 200) and, by keyboard, grace; chips name them', async () => {
    const page = await adminPage();
    const id = await designerPicker(page);
    await find(page, id, 'erin', 'erin');
    // The server answered the search (not a list filtered here): the request carried q.
    await option(page, id, 'erin').click();
    await chip(page, id, 'erin').waitFor();
    // Keyboard: arrows to the answer, Enter picks it, Escape closes the list.
    await page.fill(`#${id}`, 'grace');
    await option(page, id, 'grace').waitFor();
    await page.keyboard.press('ArrowDown');
    expect(await page.getAttribute(`#${id}`, 'aria-activedescendant')).toBeTruthy();
    await page.keyboard.press('Enter');
    await chip(page, id, 'grace').waitFor();
    await page.keyboard.press('Escape');
    await page.waitForSelector(`[data-picker="${id}"] [role=listbox]`, { state: 'detached' });
    expect(await page.getAttribute(`#${id}`, 'aria-expanded')).toBe('false');
    // A chip's ×: removes the one it names.
    await chip(page, id, 'grace').locator('button').click();
    await chip(page, id, 'grace').waitFor({ state: 'detached' });
    // Empty box: the recent choices come first.
    await page.fill(`#${id}`, '');
    await page.focus(`#${id}`);
    await option(page, id, 'grace').waitFor();
    const firstOption = await picker(page, id).locator('[role=option]').first().getAttribute('data-id');
    expect(['erin', 'grace']).toContain(firstOption);
  });

  // The server's search matches pinyin and initials (GET /users?q=); 张三's username is u-7788.
  it('张三 found by the pinyin “zhangsan” and the initials “zs”', async () => {
    const page = await adminPage();
    const id = await designerPicker(page);
    await find(page, id, 'zhangsan', 'zhang-san');
    await option(page, id, 'zhang-san').click();
    await chip(page, id, 'zhang-san').waitFor();
    expect(await chip(page, id, 'zhang-san').textContent()).toContain('张三');
    await find(page, id, 'zs', 'zhang-san');
  });

  it('Try it’s initiator picker finds alice; the simulation runs as her', async () => {
    const page = await adminPage();
    const id = await designerPicker(page);
    await find(page, id, 'erin', 'erin');
    await option(page, id, 'erin').click();
    await find(page, 'sim-initiator', 'alice', 'alice');
    await option(page, 'sim-initiator', 'alice').click();
    await chip(page, 'sim-initiator', 'alice').waitFor();
    const sent = page.waitForRequest((r) => r.url().includes('/process-definitions/simulate'));
    await page.click('[data-testid=simulate] button[type=submit]');
    expect((await sent).postDataJSON().initiatorId).toBe('alice');
    await page.waitForSelector('[data-testid=sim-steps]');
  });

  it('a saved definition’s ids show their names, even those on no result page', async () => {
    const page = await adminPage();
    const id = await designerPicker(page, { name: 'Names of ids', key: `names_${Date.now()}` });
    await find(page, id, 'Employee 299', 'emp-299');
    await option(page, id, 'emp-299').click();
    // Reopened from the saved draft: the chip is named from GET /users/{id}.
    const saving = page.waitForResponse(
      (r) =>
        /\/process-definitions(\/[^/]+)?$/.test(new URL(r.url()).pathname) &&
        ['POST', 'PUT'].includes(r.request().method()),
    );
    await page.click('[data-tool=save]');
    const saved = await saving;
    const defId = (await saved.json()).data.id as string;
    await page.goto(`${baseUrl()}/admin/designer/${encodeURIComponent(defId)}`);
    await page.click('[data-node-id=approver_1] > button[aria-pressed]');
    await expect.poll(() => chip(page, id, 'emp-299').textContent()).toContain('Employee 299');
  });

  it('the transfer picker of a task hands it to grace (beyond the first 200)', async () => {
    const key = `pp_transfer_${Date.now()}`;
    const dep = await api('/api/v1/workflow/process-definitions/deploy', {
      token: adminToken,
      body: { dsl: linear(key, steps({ approver: { type: 'user', userIds: [adminId] } })) },
    });
    expect(dep.status, JSON.stringify(dep.body)).toBe(201);
    const started = await api('/api/v1/workflow/process-instances/start', {
      token: adminToken,
      body: { processKey: key, businessKey: `PP-${Date.now()}`, variables: {} },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const instanceId = started.body.data.instanceId as string;
    const page = await adminPage();
    await page.goto(`${baseUrl()}/instances/${encodeURIComponent(instanceId)}`);
    await openForm(page, 'transfer');
    await find(page, 'transfer-user', 'grace', 'grace');
    await option(page, 'transfer-user', 'grace').click();
    await chip(page, 'transfer-user', 'grace').waitFor();
    await act(page, 'transfer', { '#transfer-comment': 'grace knows this one' });
    const tasks = await api(`/api/v1/workflow/process-instances/${encodeURIComponent(instanceId)}`, {
      token: adminToken,
    });
    expect(JSON.stringify(tasks.body.data)).toContain('grace');
  });

  it('the directory page searches on the server and keeps the search and page in the URL', async () => {
    const page = await adminPage();
    await page.goto(`${baseUrl()}/admin/directory`);
    await page.waitForSelector('[data-testid=users] tr[data-user-id]');
    // 300+ users, 50 a page: a pager, and page 2 in the URL.
    await page.locator('#users nav.pager button').last().click();
    await expect.poll(() => new URL(page.url()).searchParams.get('users.page')).toBe('2');
    await page.fill('#users-search', 'erin');
    await page.waitForSelector('[data-testid=users] tr[data-user-id=erin]');
    expect(await page.locator('[data-testid=users] tr[data-user-id]').count()).toBeLessThan(5);
    expect(new URL(page.url()).searchParams.get('users.q')).toBe('erin');
    expect(new URL(page.url()).searchParams.get('users.page')).toBeNull();
    await page.reload();
    await page.waitForSelector('[data-testid=users] tr[data-user-id=erin]');
    expect(await page.inputValue('#users-search')).toBe('erin');
    await shot(page, 'directory-1440-en');
  });

  for (const size of [
    { lang: 'en-GB', width: 1440 },
    { lang: 'en-GB', width: 390 },
    { lang: 'zh-CN', width: 1440 },
    { lang: 'zh-CN', width: 390 },
  ] as Size[])
    it(`open with results and chips: ${size.width} px, ${size.lang}`, async () => {
      const page = await adminPage(size);
      const tag = `${size.width}-${size.lang === 'zh-CN' ? 'zh' : 'en'}`;
      const id = await designerPicker(page);
      await find(page, id, 'erin', 'erin');
      await option(page, id, 'erin').click();
      await find(page, id, 'alice', 'alice');
      await option(page, id, 'alice').click();
      await find(page, id, 'Employee 2', 'emp-200');
      await page.locator(`[data-picker="${id}"]`).scrollIntoViewIfNeeded();
      if (size.width === 390) await expectFits(page, id);
      await shot(page, `designer-${tag}`);

      const key = `pp_shot_${Date.now()}`;
      await api('/api/v1/workflow/process-definitions/deploy', {
        token: adminToken,
        body: { dsl: linear(key, steps({ approver: { type: 'user', userIds: [adminId] } })) },
      });
      const started = await api('/api/v1/workflow/process-instances/start', {
        token: adminToken,
        body: { processKey: key, businessKey: `PP-${Date.now()}`, variables: {} },
      });
      await page.goto(`${baseUrl()}/instances/${encodeURIComponent(started.body.data.instanceId)}`);
      await openForm(page, 'addSign');
      await find(page, 'addsign-users', 'erin', 'erin');
      await option(page, 'addsign-users', 'erin').click();
      await find(page, 'addsign-users', 'a-emp-25', 'emp-250');
      await page.locator('[data-picker=addsign-users]').scrollIntoViewIfNeeded();
      if (size.width === 390) await expectFits(page, 'addsign-users');
      await shot(page, `addsign-${tag}`);
    });
});
