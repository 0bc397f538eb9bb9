// Conditions for people who do not write code (issue 46): on a leave form, `days > 3 and type is
// "annual"` built with the condition builder, saved, reopened as rules; the code view shows the CEL;
// `days > 3` typed as code suggests msg.days with its label; problems name the step and the field as
// the panels do, in English and Chinese. Screenshots at 1440 and 390 px, en and zh-CN:
// test/browser/screenshots/conditions-*.png.
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, login } from '../helpers/api.js';
import { ConsoleBrowser, SCREENSHOTS, demoPassword, screenshots } from '../helpers/console-browser.js';
import { processDoc } from '../helpers/dsl.js';
import { en } from '../../ui/src/features/designer/i18n/en.js';
import { zhCN } from '../../ui/src/features/designer/i18n/zh-CN.js';

const DEFS = '/api/v1/workflow/process-definitions';
const browser = new ConsoleBrowser({ viewport: { width: 1440, height: 1000 } });
const shot = screenshots('conditions-');
type Lang = 'en-GB' | 'zh-CN';
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
const as = (lang: Lang, phone = false) => browser.as('admin', { locale: lang, ...(phone ? PHONE : {}) });
const CEL = 'msg.days > 3 && msg.type == "annual"';
let adminToken: string | undefined;
const token = async () => (adminToken ??= await login('admin', demoPassword('admin'), 'demo'));

const form = {
  fields: [
    { name: 'days', label: 'Leave days', type: 'number', required: true },
    {
      name: 'type',
      label: 'Leave type',
      type: 'select',
      options: [
        { value: 'annual', label: 'Annual' },
        { value: 'sick', label: 'Sick' },
      ],
    },
    { name: 'reason', label: 'Reason', type: 'textarea' },
  ],
};

/** A draft: start → "Long leave?" (one empty case) → "HR check" (named people, none chosen yet) → end. */
async function leaveDraft(): Promise<string> {
  const key = `leave_cond_${randomUUID().slice(0, 6)}`;
  const dsl = processDoc(
    { id: key, name: 'Leave (conditions)', additionalInfo: { category: 'HR', formType: 'design', form } },
    [
      { id: 'route', type: 'switch', name: 'Long leave?', configuration: { cases: [{ case: '', then: 'long' }] } },
      { id: 'hr', type: 'userTask', name: 'HR check', configuration: { approver: { type: 'user', userIds: [] } } },
    ],
    [
      ['start', 'route'],
      ['route', 'hr', 'long'],
      ['route', 'end', 'Default'],
      ['hr', 'end'],
    ],
  );
  const r = await api(DEFS, { token: await token(), body: { dsl } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id;
}

/** A draft for Try it: "Long leave?" on CEL → the HR department's pool; else the end. */
async function tryDraft(): Promise<string> {
  const key = `leave_try_${randomUUID().slice(0, 6)}`;
  const dsl = processDoc(
    { id: key, name: 'Leave (try it)', additionalInfo: { category: 'HR', formType: 'design', form } },
    [
      { id: 'route', type: 'switch', name: 'Long leave?', configuration: { cases: [{ case: CEL, then: 'long' }] } },
      { id: 'hr', type: 'userTask', name: 'HR check', configuration: { approver: { type: 'dept', deptIds: ['hr'] } } },
    ],
    [
      ['start', 'route'],
      ['route', 'hr', 'long'],
      ['route', 'end', 'Default'],
      ['hr', 'end'],
    ],
  );
  const r = await api(DEFS, { token: await token(), body: { dsl } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.id;
}

async function openRoute(page: Page, id: string) {
  await page.goto(`${baseUrl()}/admin/designer/${encodeURIComponent(id)}`);
  await page.waitForSelector('[data-testid=flow]');
  await page.click('[data-node-id=route] > button[aria-pressed]');
  await page.waitForSelector('[data-panel-node=route]');
}

const rule = (i: number, part: 'field' | 'op' | 'value') => `#route-case-0-rules-rule-${i}-${part}`;
const caseCheck = (page: Page) => page.textContent('[data-case="0"] [data-testid=case-check]');
const problem = (page: Page, code: string) =>
  page.textContent(`[data-testid=designer-problems] > ul li[data-code="${code}"]`);

beforeAll(() => browser.launch());
afterAll(() => browser.close());

describe('the condition builder', () => {
  let id: string;
  let tryId: string;
  beforeAll(async () => {
    id = await leaveDraft();
    tryId = await tryDraft();
  });

  it('builds days > 3 and type is "annual", saves it, and opens it as rules again; the code view has the CEL and suggests msg.days', async () => {
    const page = await as('en-GB');
    await openRoute(page, id);
    // An empty case opens as rules: the form's fields by label, operators of the field's type.
    await page.waitForSelector('[data-case="0"][data-mode=builder]');
    const fieldOptions = await page.locator(`${rule(0, 'field')} option`).allTextContents();
    expect(fieldOptions).toEqual(['Leave days', 'Leave type', 'Reason']);
    await page.selectOption(rule(0, 'field'), 'days');
    expect(await page.locator(`${rule(0, 'op')} option`).allTextContents()).toEqual(['=', '≠', '<', '≤', '>', '≥']);
    await page.selectOption(rule(0, 'op'), 'gt');
    await page.fill(rule(0, 'value'), '3');
    expect(await page.textContent('[data-testid=case-cel]')).toBe('msg.days > 3');
    await page.click('[data-testid=add-rule]');
    await page.selectOption(rule(1, 'field'), 'type');
    expect(await page.locator(`${rule(1, 'op')} option`).allTextContents()).toEqual(['is', 'is not', 'is one of']);
    // A choice field's value is one of its options, by label.
    expect(await page.locator(`${rule(1, 'value')} option:not([disabled])`).allTextContents()).toEqual([
      'Annual',
      'Sick',
    ]);
    await page.selectOption(rule(1, 'value'), 'annual');
    expect(await page.inputValue('#route-case-0-rules-join')).toBe('and');
    expect(await page.textContent('[data-testid=case-cel]')).toBe(CEL);
    expect(await caseCheck(page)).toBe(en.designer.f.caseOk);
    // The branch's card says it in words.
    expect(await page.textContent('[data-split=route] [data-branch=long] code')).toBe(
      'Leave days > 3 and Leave type is Annual',
    );

    // A problem in words: the step's name, the field as the panel labels it, no JSON path or key.
    const words = await problem(page, 'approver.idsRequired');
    expect(words).toContain('HR check');
    expect(words).toContain(
      `${en.designer.f.users}${en.designer.problemWords.sep}${en.designer.problemWords.idsRequired.user}`,
    );
    expect(words).not.toMatch(/userIds|configuration|approver type/);
    await shot(page, 'builder-1440-en');

    // Saved, then opened again: the same rows.
    await page.click('[data-tool=save]');
    await page.waitForSelector(`[data-testid=designer-outcome]:has-text("${en.designer.saved}")`);
    const stored = await api(`${DEFS}/${id}`, { token: await token() });
    expect(stored.body.data.dsl.metadata.nodes.find((n: any) => n.id === 'route').configuration.cases[0].case).toBe(
      CEL,
    );
    await openRoute(page, id);
    await page.waitForSelector('[data-case="0"][data-mode=builder]');
    expect(await page.inputValue(rule(0, 'field'))).toBe('days');
    expect(await page.inputValue(rule(0, 'op'))).toBe('gt');
    expect(await page.inputValue(rule(0, 'value'))).toBe('3');
    expect(await page.inputValue(rule(1, 'field'))).toBe('type');
    expect(await page.inputValue(rule(1, 'op'))).toBe('eq');
    expect(await page.inputValue(rule(1, 'value'))).toBe('annual');

    // The code view: the CEL the engine runs.
    await page.click('[data-case="0"] [data-mode-button=code]');
    expect(await page.inputValue('#route-case-0')).toBe(CEL);
    // A bare name: the nearest form field, by name and label; the rules cannot show it, and say why.
    await page.fill('#route-case-0', 'days > 3');
    await page.waitForSelector('[data-case="0"] [data-testid=case-check].error');
    expect(await caseCheck(page)).toBe('Unknown name "days" — did you mean msg.days (Leave days)?');
    expect(await page.textContent('[data-testid=case-why-code]')).toBe(
      en.designer.cond.asCode(en.designer.cond.why.operator('days')),
    );
    expect(await page.getAttribute('[data-case="0"] [data-mode-button=builder]', 'disabled')).not.toBeNull();
    await shot(page, 'code-suggestion-1440-en');
    // Fixed in code, it can be shown as rules again.
    await page.fill('#route-case-0', 'msg.days > 3');
    expect(await caseCheck(page)).toBe(en.designer.f.caseOk);
    await page.click('[data-case="0"] [data-mode-button=builder]');
    expect(await page.inputValue(rule(0, 'value'))).toBe('3');
    expect(await page.locator('[data-case="0"] [data-rule]').count()).toBe(1);
  });

  it('zh-CN: the rules, the suggestion and the problems in Chinese', async () => {
    const page = await as('zh-CN');
    await openRoute(page, id);
    await page.waitForSelector('[data-case="0"][data-mode=builder]');
    expect(await page.locator(`${rule(1, 'op')} option`).allTextContents()).toEqual(
      ['eq', 'ne', 'in'].map((op) => zhCN.designer.cond.ops[op]),
    );
    expect(await page.textContent('#route-case-0-rules-join option:checked')).toBe(zhCN.designer.cond.joins.and);
    const words = await problem(page, 'approver.idsRequired');
    expect(words).toContain(
      `${zhCN.designer.f.users}${zhCN.designer.problemWords.sep}${zhCN.designer.problemWords.idsRequired.user}`,
    );
    expect(words).not.toMatch(/userIds|configuration/);
    await shot(page, 'builder-1440-zh');
    await page.click('[data-case="0"] [data-mode-button=code]');
    await page.fill('#route-case-0', 'days > 3');
    await page.waitForSelector('[data-case="0"] [data-testid=case-check].error');
    expect(await caseCheck(page)).toBe('未知的名称“days”——是不是 msg.days（Leave days）？');
    await page.fill('#route-case-0', 'msg.days > "x"');
    expect(await caseCheck(page)).toBe('不能对数字和文本使用 >');
    await shot(page, 'code-suggestion-1440-zh');
  });

  for (const lang of ['en-GB', 'zh-CN'] as const) {
    it(`fits a phone (390 px, ${lang})`, async () => {
      const page = await as(lang, true);
      await openRoute(page, id);
      await page.waitForSelector('[data-case="0"][data-mode=builder]');
      await page.locator('[data-testid=condition-builder]').scrollIntoViewIfNeeded();
      const box = await page.locator('[data-testid=condition-builder]').boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
      const tag = lang === 'en-GB' ? 'en' : 'zh';
      // The viewport where the builder is, and the whole page.
      await page.screenshot({ path: `${SCREENSHOTS}/conditions-builder-390-${tag}.png` });
      await shot(page, `page-390-${tag}`);

      // Try it in words: the case taken as its rules read, the department pool by its name, not ids.
      const words = lang === 'en-GB' ? en.designer : zhCN.designer;
      await page.goto(`${baseUrl()}/admin/designer/${encodeURIComponent(tryId)}`);
      await page.waitForSelector('[data-testid=flow]');
      await page.fill('#sim-days', '5');
      await page.fill('#sim-type', 'annual');
      await page.click('[data-testid=simulate] button[type=submit]');
      await page.waitForSelector('[data-testid=sim-steps]');
      const route = await page.textContent('[data-testid=sim-steps] li[data-node-id=route]');
      const rules = `Leave days > 3 ${words.cond.joinWords.and} Leave type ${words.cond.ops.eq} Annual`;
      expect(route).toContain(`${words.sim.caseTaken(1)}${words.sim.sep}${rules}`);
      expect(route).not.toContain('msg.');
      const hr = await page.textContent('[data-testid=sim-steps] li[data-node-id=hr]');
      expect(hr).toContain(words.sim.dept('Human Resources'));
      expect(hr).not.toMatch(/\bhr\b/);
      await page.locator('[data-testid=simulate]').scrollIntoViewIfNeeded();
      const sim = await page.locator('[data-testid=simulate]').boundingBox();
      expect(sim!.x + sim!.width).toBeLessThanOrEqual(390);
      await page.screenshot({ path: `${SCREENSHOTS}/conditions-try-it-390-${tag}.png` });
    });
  }
});
