// The console in Simplified Chinese (docs/console.md "Languages"): the main scenario once in zh-CN
// with no English catalogue text and no raw key on the page, and a process with Chinese names
// (examples/leave-request.zh-CN.json) deployed, shown and run in both languages. Screenshots go to
// test/browser/screenshots/i18n-*.png.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, login } from '../helpers/api.js';
import { ConsoleBrowser, SCREENSHOTS, act, screenshots, englishCatalogueTexts } from '../helpers/console-browser.js';
import { en } from '../../ui/src/i18n/en.js';
import { zhCN } from '../../ui/src/i18n/zh-CN.js';

const root = path.resolve(import.meta.dirname, '../..');
const TENANT = 'demo';

const browser = new ConsoleBrowser();
const shot = screenshots('i18n-');

/** A fresh browser speaking `lang` (navigator.languages), logged in as `user`. */
const as = (user: string, lang: 'zh-CN' | 'en-GB'): Promise<Page> => browser.as(user, { locale: lang });

const englishTexts = englishCatalogueTexts(en, zhCN);

/** The page's visible text holds no English catalogue sentence and no raw key (`inbox.todo`, `undefined`). */
async function expectChinese(page: Page) {
  const text = await page.locator('body').innerText();
  const found = englishTexts.filter((s) =>
    new RegExp(`(^|[^A-Za-z])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z])`).test(text),
  );
  expect(found, `English on ${page.url()}`).toEqual([]);
  expect(text).not.toMatch(/\b(undefined|NaN|\[object Object\])\b/);
  expect(text).not.toMatch(/\b(nav|inbox|instance|action|trail|reason|status|admin|designer|common)\.[a-z]\w*/);
  expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
}

async function deploy(file: string) {
  const dsl = JSON.parse(readFileSync(path.join(root, 'examples', file), 'utf8'));
  const r = await api('/api/v1/workflow/process-definitions/deploy', {
    token: await login('admin', 'admin', TENANT),
    body: { dsl },
  });
  if (r.status !== 201) throw new Error(`deploy failed: ${JSON.stringify(r.body)}`);
}

/** alice starts `processKey` for 5 days (manager and HR countersign: bob first), bob approves with a comment. */
async function scenario(lang: 'zh-CN' | 'en-GB', processKey: string, tag: string) {
  const alice = await as('alice', lang);
  await alice.click('a[href="/start"]');
  await alice.click(`a[href="/start/${processKey}"]`);
  await alice.click('button[type=submit]');
  await alice.waitForSelector('#start-days-err');
  const required = await alice.textContent('#start-days-err');
  await shot(alice, `${tag}-start-form`);
  const bk = `BK-${randomUUID().slice(0, 8)}`;
  await alice.fill('#businessKey', bk);
  await alice.fill('#start-days', '5');
  await alice.fill('#start-reason', lang === 'zh-CN' ? '家庭旅行' : 'Family trip');
  await alice.click('button[type=submit]');
  await alice.waitForSelector('[data-testid=instance-header]');
  const instanceUrl = alice.url();

  const bob = await as('bob', lang);
  await bob.goto(`${baseUrl()}/inbox/todo`);
  await bob.locator(`tr[data-business-key="${bk}"]`).waitFor();
  await shot(bob, `${tag}-inbox`);
  await bob.goto(instanceUrl);
  await bob.waitForSelector('[data-testid=actions] button[data-action=approve]');
  await shot(bob, `${tag}-instance-bob`);
  await act(bob, 'approve', { '#approve-comment': lang === 'zh-CN' ? '同意，祝旅途愉快' : 'Enjoy the trip' });

  await alice.reload();
  await alice.waitForSelector('[data-testid=trail]');
  await alice.waitForSelector('[data-testid=trail] li[data-type=assign][data-user=bob] [data-testid=assign-reason]');
  const why = await alice.textContent(
    '[data-testid=trail] li[data-type=assign][data-user=bob] [data-testid=assign-reason]',
  );
  await shot(alice, `${tag}-instance-alice`);
  return { alice, bob, required, why, trail: await alice.locator('[data-testid=trail]').innerText() };
}

beforeAll(async () => {
  await browser.launch();
  await deploy('leave-request.json');
  await deploy('leave-request.zh-CN.json');
});

afterAll(() => browser.close());

describe('the console in Simplified Chinese', () => {
  it('the main scenario in zh-CN: no English catalogue text, no raw key; the trail and the "why" in Chinese', async () => {
    // The process with Chinese names: names in data are shown as written, so English ones would count as English here.
    const { alice, bob, required, why, trail } = await scenario('zh-CN', 'leave_request_zh', 'zh');
    expect(required).toContain('请填写');
    expect(why).toContain(zhCN.reason.user);
    expect(trail).toContain(zhCN.trail.approve);
    expect(trail).toContain('同意，祝旅途愉快');
    await expectChinese(alice);
    await expectChinese(bob);
    // Only this process's rows: other browser tests on the same stack leave tasks named in English
    // in bob's list, and names in data are shown as written.
    await bob.goto(`${baseUrl()}/inbox/done?process=leave_request_zh`);
    await bob.waitForSelector('h1');
    await bob.waitForLoadState('networkidle');
    // The process filter lists every process's name (data, as written): not the catalogue's words.
    await bob.$$eval('select', (els) => els.forEach((e) => ((e as HTMLElement).style.display = 'none')));
    await expectChinese(bob);
    await shot(bob, 'zh-inbox-done');
    // The API answers in the caller's language; the code stays.
    const refused = await fetch(`${baseUrl()}/api/v1/workflow/process-instances/nothing-here`, {
      headers: { Authorization: `Bearer ${await login('alice', 'demo', TENANT)}`, 'Accept-Language': 'zh-CN' },
    });
    const body = (await refused.json()) as { code: number; message: string };
    expect(body.code).toBe(40400);
    expect(body.message).toMatch(/\p{Script=Han}/u);
  });

  it('the header switch changes the language and the choice survives a reload', async () => {
    const page = await as('alice', 'en-GB');
    expect(await page.textContent('[data-testid=logout]')).toBe(en.nav.logout);
    await Promise.all([page.waitForEvent('load'), page.selectOption('[data-testid=language]', 'zh-CN')]);
    await page.waitForSelector('[data-testid=whoami]');
    expect(await page.textContent('[data-testid=logout]')).toBe(zhCN.nav.logout);
    await page.reload();
    await page.waitForSelector('[data-testid=whoami]');
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    await shot(page, 'switch');
  });

  it('the trail of an automatic approval and a return reads Chinese (from codes, not the English comments)', async () => {
    // 发起人确认 (alice, selfApproval autoApprove) → 经理审批 (bob) → 财务审批 (carol, rejects back: toPrev).
    const key = `trail_zh_${randomUUID().slice(0, 6)}`;
    const node = (id: string, name: string, configuration: Record<string, unknown>) => ({
      id,
      type: 'userTask',
      name,
      configuration,
    });
    const dsl = {
      ruleChain: { id: key, name: '报销审批', root: true, additionalInfo: { category: '测试' } },
      metadata: {
        firstNodeIndex: 0,
        nodes: [
          { id: 'start', type: 'startTask', name: '发起' },
          node('confirm', '发起人确认', {
            approver: { type: 'user', userIds: ['alice'] },
            selfApproval: 'autoApprove',
          }),
          node('manager', '经理审批', { approver: { type: 'user', userIds: ['bob'] } }),
          node('finance', '财务审批', {
            approver: { type: 'user', userIds: ['carol'] },
            reject: { strategy: 'toPrev' },
          }),
          { id: 'end', type: 'end', name: '结束' },
        ],
        connections: ['start>confirm', 'confirm>manager', 'manager>finance', 'finance>end'].map((e) => {
          const [fromId, toId] = e.split('>');
          return { fromId, toId, type: 'Success' };
        }),
      },
    };
    const admin = await login('admin', 'admin', TENANT);
    expect((await api('/api/v1/workflow/process-definitions/deploy', { token: admin, body: { dsl } })).status).toBe(
      201,
    );
    const tokens = {
      alice: await login('alice', 'demo', TENANT),
      bob: await login('bob', 'demo', TENANT),
      carol: await login('carol', 'demo', TENANT),
    };
    const started = await api('/api/v1/workflow/process-instances/start', {
      token: tokens.alice,
      body: { processKey: key, variables: {}, businessKey: `BK-${randomUUID().slice(0, 8)}` },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const id = started.body.data.instanceId as string;
    const decide = async (who: 'bob' | 'carol', action: string, comment: string) => {
      const todo = await api('/api/v1/workflow/process-instances/todo?pageSize=200', { token: tokens[who] });
      const task = todo.body.data.items.find((x: any) => x.instanceId === id);
      expect(task, `${who}'s task`).toBeTruthy();
      const r = await api(`/api/v1/workflow/tasks/${task.id}/${action}`, { token: tokens[who], body: { comment } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await decide('bob', 'approve', '同意');
    await decide('carol', 'reject', '金额需要重新核对');

    const page = await as('alice', 'zh-CN');
    await page.goto(`${baseUrl()}/instances/${id}`);
    await page.waitForSelector('[data-testid=trail] [data-code="reject.backTo"]');
    const said = async (code: string) =>
      (
        await page.locator(`[data-testid=trail] [data-testid=trail-said][data-code="${code}"]`).first().textContent()
      )?.trim();
    expect(await said('autoApprove.selfApproval')).toBe(zhCN.history['autoApprove.selfApproval']());
    // Node names come with the definition, which may load after the trail: until then the id shows.
    await expect
      .poll(() => said('reject.backTo'), { timeout: 10_000 })
      .toBe(zhCN.history['reject.backTo']({ target: '经理审批', strategy: 'toPrev' }));
    const trail = await page.locator('[data-testid=trail]').innerText();
    // The English comments the API keeps for older clients are not shown.
    expect(trail).not.toContain('Approved automatically');
    expect(trail).not.toContain('Rejected: back to');
    expect(trail).toContain('金额需要重新核对');
    // Why bob: the rule recorded in the assign entry, in Chinese.
    expect(
      await page
        .locator('[data-testid=trail] li[data-type=assign][data-user=bob] [data-testid=assign-reason]')
        .first()
        .textContent(),
    ).toContain(zhCN.reason.user);
    await expectChinese(page);
    await page.locator('#trail').screenshot({ path: path.join(SCREENSHOTS, 'i18n-zh-trail-codes.png') });
    await shot(page, 'zh-trail-codes-page');
  });

  it('an ended instance says why in Chinese (from its ending code), and the directory sets the tenant default language', async () => {
    const key = `end_zh_${randomUUID().slice(0, 6)}`;
    const dsl = {
      ruleChain: { id: key, name: '采购申请', root: true, additionalInfo: { category: '测试' } },
      metadata: {
        firstNodeIndex: 0,
        nodes: [
          { id: 'start', type: 'startTask', name: '发起' },
          {
            id: 'manager',
            type: 'userTask',
            name: '经理审批',
            configuration: { approver: { type: 'user', userIds: ['bob'] } },
          },
          { id: 'end', type: 'end', name: '结束' },
        ],
        connections: [
          { fromId: 'start', toId: 'manager', type: 'Success' },
          { fromId: 'manager', toId: 'end', type: 'Success' },
        ],
      },
    };
    const admin = await login('admin', 'admin', TENANT);
    expect((await api('/api/v1/workflow/process-definitions/deploy', { token: admin, body: { dsl } })).status).toBe(
      201,
    );
    const alice = await login('alice', 'demo', TENANT);
    const bob = await login('bob', 'demo', TENANT);
    const started = await api('/api/v1/workflow/process-instances/start', {
      token: alice,
      body: { processKey: key, variables: {}, businessKey: `BK-${randomUUID().slice(0, 8)}` },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const id = started.body.data.instanceId as string;
    const todo = await api('/api/v1/workflow/process-instances/todo?pageSize=200', { token: bob });
    const task = todo.body.data.items.find((x: any) => x.instanceId === id);
    const rejected = await api(`/api/v1/workflow/tasks/${task.id}/reject`, {
      token: bob,
      body: { comment: '预算不足' },
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);

    const page = await as('alice', 'zh-CN');
    await page.goto(`${baseUrl()}/instances/${id}`);
    await page.waitForSelector('[data-testid=end-reason]');
    expect(await page.getAttribute('[data-testid=end-reason]', 'data-code')).toBe('end.rejected');
    expect((await page.textContent('[data-testid=end-reason]'))?.trim()).toBe(
      zhCN.ending['end.rejected']({ nodeId: 'manager', nodeName: '经理审批', comment: '预算不足' }),
    );
    // The English words the API keeps (endReason for an English caller) are not shown.
    expect(await page.locator('[data-testid=instance-header]').innerText()).not.toContain('Rejected at');
    await expectChinese(page);
    await page
      .locator('[data-testid=instance-header]')
      .screenshot({ path: path.join(SCREENSHOTS, 'i18n-zh-end-reason.png') });

    // The tenant's default language: shown and changed on the directory page, in Chinese.
    const before = (await api('/api/v1/tenant-settings', { token: admin })).body.data.defaultLocale;
    const directory = await as('admin', 'zh-CN');
    await directory.goto(`${baseUrl()}/admin/directory`);
    await directory.waitForSelector('#tenant-language [data-testid=tenant-locale]:not([disabled])');
    expect(await directory.textContent('#tenant-language-h')).toBe(zhCN.admin.tenantLanguage);
    expect(await directory.locator('#tenant-language').innerText()).toContain(zhCN.admin.tenantLanguageHelp);
    expect(await directory.inputValue('[data-testid=tenant-locale]')).toBe(before ?? '');
    await directory.selectOption('[data-testid=tenant-locale]', 'zh-CN');
    await directory.click('[data-action=save-tenant-language]');
    await directory.waitForSelector('[data-testid=tenant-language-saved]');
    expect((await api('/api/v1/tenant-settings', { token: admin })).body.data).toMatchObject({
      defaultLocale: 'zh-CN',
    });
    await directory
      .locator('#tenant-language')
      .screenshot({ path: path.join(SCREENSHOTS, 'i18n-zh-tenant-language.png') });
    await shot(directory, 'zh-directory');
    await directory.reload();
    await directory.waitForSelector('#tenant-language [data-testid=tenant-locale]:not([disabled])');
    expect(await directory.inputValue('[data-testid=tenant-locale]')).toBe('zh-CN');
    // Back as it was, for the other tests on this stack.
    const reset = await api('/api/v1/tenant-settings', {
      method: 'PUT',
      token: admin,
      body: { defaultLocale: before },
    });
    expect(reset.status).toBe(200);
  });

  for (const lang of ['zh-CN', 'en-GB'] as const) {
    it(`the process with Chinese names (请假流程) deploys, shows and runs in ${lang}`, async () => {
      const tag = lang === 'zh-CN' ? 'gflow-zh' : 'gflow-en';
      const { alice } = await scenario(lang, 'leave_request_zh', tag);
      const header = await alice.textContent('[data-testid=instance-header]');
      expect(header).toContain('请假流程');
      const diagram = (await alice.locator('[data-testid=diagram]').textContent()) ?? '';
      for (const name of ['判断请假天数', '经理审批', '经理与HR会签'])
        expect(diagram.replace(/\s/g, '')).toContain(name);
      expect(await alice.getAttribute('[data-testid=diagram] [data-node-id=manager_and_hr]', 'data-state')).toBe(
        'current',
      );
      if (lang === 'zh-CN') await expectChinese(alice);
      else expect(await alice.textContent('[data-testid=logout]')).toBe(en.nav.logout);
    });
  }
});
