// The console's two pieces of the AI pre-review (docs/ai-review.md), in chromium against the real
// stack: the next approver sees what the model said (the note above the actions and the trail's
// `ai.review` entry, in English and in Chinese), with an OpenAI-compatible model server inside the
// test (test/helpers/model-server.ts); and an admin manages the tenant's private-network allowlist
// on the directory page. Screenshots: test/browser/screenshots/ai-review-*.png.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant } from '../helpers/api.js';
import { ConsoleBrowser, SCREENSHOTS, screenshots, englishCatalogueTexts } from '../helpers/console-browser.js';
import { deploy, eventually, start } from '../helpers/flow.js';
import { node, user, wire } from '../helpers/dsl.js';
import { startModelServer, type ModelServer } from '../helpers/model-server.js';
import { en } from '../../ui/src/i18n/en.js';
import { zhCN } from '../../ui/src/i18n/zh-CN.js';

const SUMMARY = 'The amount is within the travel budget and the receipts match the claimed nights.';

const browser = new ConsoleBrowser();
const shot = screenshots('ai-review-');
let model: ModelServer;
let tenantId: string;
let tokens: Record<string, string>;

const as = (who: string, locale: 'en-GB' | 'zh-CN' = 'en-GB'): Promise<Page> =>
  browser.as(who, { tenant: tenantId, password: who === 'admin' ? 'secret-admin' : `pw-${who}`, locale });

const englishTexts = englishCatalogueTexts(en, zhCN);

function englishIn(text: string): string[] {
  return englishTexts.filter((s) =>
    new RegExp(`(^|[^A-Za-z])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z])`).test(text),
  );
}

beforeAll(async () => {
  await browser.launch();
  ({ tenantId, tokens } = await createDemoLikeTenant('ui-ai'));
  model = await startModelServer({ pass: { answers: [`${SUMMARY}\nAI_DECISION: PASS`] } });
  const agent = await api('/api/v1/ai-agents', {
    token: tokens.admin,
    body: {
      agentId: 'expense-precheck',
      name: 'Expense pre-check',
      baseUrl: model.baseUrl,
      model: 'test-model',
      systemPrompt: 'You pre-review expense claims against the travel policy.',
      temperature: 0,
    },
  });
  expect(agent.status, JSON.stringify(agent.body)).toBe(201);
});

afterAll(async () => {
  await browser.close();
  await model?.close();
});

describe('AI pre-review in the console', () => {
  it('the approver after an aiAgent node sees the verdict and the summary, in English and in Chinese', async () => {
    const key = 'travel_expense_ai';
    await deploy(tokens.admin, {
      ruleChain: { id: key, name: 'Travel expense', root: true, additionalInfo: { category: 'Finance' } },
      metadata: {
        firstNodeIndex: 0,
        nodes: [
          node('s', 'startTask', undefined, 'Claim'),
          node(
            'ai',
            'aiAgent',
            {
              agentId: 'expense-precheck',
              inputAssembly: { customPrompt: 'SCENARIO:pass Check the claim ${msg.title} against the travel policy.' },
              decision: { rejectStrategy: 'toStarter' },
            },
            'Policy pre-check',
          ),
          { ...user('review', ['bob']), name: 'Manager review' },
          node('end', 'end', undefined, 'Paid'),
        ],
        connections: wire('s>ai ai>review review>end'),
      },
    });
    const id = await start(tokens.alice, key, { title: 'Trip to Berlin', amount: 1200 }, 'EXP-2026-114');
    // The model answered and bob's task is open.
    await eventually(
      async () =>
        (await api(`/api/v1/workflow/tasks?instanceId=${id}&pageSize=50`, { token: tokens.admin })).body.data
          .items as any[],
      (items) => items.some((x) => x.activityId === 'review' && x.status === 'active'),
      30_000,
    );
    expect(model.received.pass).toHaveLength(1);

    const bob = await as('bob');
    await bob.goto(`${baseUrl()}/inbox/todo`);
    await bob.locator('tr[data-business-key="EXP-2026-114"]').waitFor();
    await bob.goto(`${baseUrl()}/instances/${id}`);
    await bob.waitForSelector('[data-testid=actions] button[data-action=approve]');
    const note = bob.locator('[data-testid=ai-review] p[data-verdict=PASS]');
    await bob.waitForSelector('[data-testid=ai-review] p[data-verdict=PASS]:has-text("Policy pre-check")');
    const params = { verdict: 'PASS', agentId: 'expense-precheck', summary: SUMMARY };
    expect((await note.innerText()).trim()).toBe(`${en.history['ai.review'](params)} · Policy pre-check`);
    // The verdict in bold, the model's summary after it.
    expect(await note.locator('strong').innerText()).toBe('AI pre-review: passed');
    expect(await note.innerText()).toContain(`— ${SUMMARY}`);
    // The note comes before the actions: the approver reads it first.
    const [noteBox, actionsBox] = await Promise.all([
      bob.locator('[data-testid=ai-review]').boundingBox(),
      bob.locator('[data-testid=actions]').boundingBox(),
    ]);
    expect(noteBox!.y).toBeLessThan(actionsBox!.y);
    // The trail's entry, worded from its code.
    const entry = bob.locator('[data-testid=trail] li[data-type=ai_review]');
    expect(await entry.count()).toBe(1);
    expect(await entry.innerText()).toContain(en.trail.ai_review);
    expect((await entry.locator('[data-testid=trail-said][data-code="ai.review"]').innerText()).trim()).toBe(
      en.history['ai.review'](params),
    );
    await shot(bob, 'instance-en');
    // What the approver sees first (docs/images/ai-review-instance.png).
    await bob.screenshot({ path: path.join(SCREENSHOTS, 'ai-review-instance-en-top.png') });
    await bob.locator('[data-testid=ai-review]').screenshot({ path: path.join(SCREENSHOTS, 'ai-review-note-en.png') });

    // The same page after the header's language switch: Chinese words, the model's summary as it wrote it.
    await Promise.all([bob.waitForEvent('load'), bob.selectOption('[data-testid=language]', 'zh-CN')]);
    // The node's name once the definition is in (its id until then).
    await bob.waitForSelector('[data-testid=ai-review] p[data-verdict=PASS]:has-text("Policy pre-check")');
    await bob.waitForSelector('[data-testid=actions] button[data-action=approve]');
    expect(await bob.getAttribute('html', 'lang')).toBe('zh-CN');
    expect((await note.innerText()).trim()).toBe(`${zhCN.history['ai.review'](params)} · Policy pre-check`);
    expect(await note.locator('strong').innerText()).toBe(
      `${zhCN.aiReview.title}${zhCN.aiReview.colon}${zhCN.aiReview.verdict.PASS}`,
    );
    expect(await note.innerText()).toContain(`— ${SUMMARY}`);
    expect((await entry.locator('[data-testid=trail-said][data-code="ai.review"]').innerText()).trim()).toBe(
      zhCN.history['ai.review'](params),
    );
    expect(await entry.innerText()).toContain(zhCN.trail.ai_review);
    // Names in data are shown as written: the process's, its nodes', the form's and the model's words.
    const data = [
      'Travel expense',
      'Claim',
      'Policy pre-check',
      'Manager review',
      'Paid',
      'Finance',
      'title',
      'amount',
    ];
    let text = await bob.locator('body').innerText();
    for (const d of [SUMMARY, 'Trip to Berlin', ...data]) text = text.replaceAll(d, ' ');
    expect(englishIn(text), 'English catalogue text on the Chinese page').toEqual([]);
    expect(text).not.toMatch(/\b(undefined|NaN|\[object Object\])\b/);
    expect(text).not.toMatch(/\b(aiReview|history|trail|instance|allowlist)\.[a-z]\w*/);
    await shot(bob, 'instance-zh');
  });

  it('an admin adds entries to the network allowlist on the directory page, is told a bad one is refused, removes one', async () => {
    const admin = await as('admin');
    await admin.goto(`${baseUrl()}/admin/directory`);
    const section = admin.locator('#network-allowlist');
    await section.waitFor();
    expect(await section.locator('h2').innerText()).toBe(en.allowlist.title);
    await section.locator('[data-testid=allowlist-empty]').waitFor();
    await section.scrollIntoViewIfNeeded();
    await shot(admin, 'allowlist-empty');

    const addEntry = async (entry: string, description = '') => {
      await admin.fill('#allowlist-entry', entry);
      await admin.fill('#allowlist-description', description);
      await section.locator('button[type=submit]').click();
    };
    await addEntry('10.0.0.0/8', 'Office network');
    await section.locator('tr[data-entry="10.0.0.0/8"]').waitFor();
    expect(await section.locator('[data-testid=allowlist-note]').innerText()).toBe(en.allowlist.added('10.0.0.0/8'));
    expect(await admin.inputValue('#allowlist-entry')).toBe('');
    await addEntry('ERP.intranet.example');
    // Stored in lower case; the first entry keeps its description.
    await section.locator('tr[data-entry="erp.intranet.example"]').waitFor();
    const rows = await section.locator('[data-testid=allowlist] tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t').slice(0, 3))).toEqual([
      ['10.0.0.0/8', 'Office network', 'admin'],
      ['erp.intranet.example', '—', 'admin'],
    ]);

    // A bad entry is refused in words, and the list stays as it was.
    await addEntry('10.0.0.0/33');
    const refusal = section.locator('[data-testid=allowlist-note][role=alert]');
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(en.allowlist.invalid('10.0.0.0/33'));
    expect(await admin.inputValue('#allowlist-entry')).toBe('10.0.0.0/33');
    expect(await section.locator('[data-testid=allowlist] tbody tr').count()).toBe(2);
    await shot(admin, 'allowlist-refused');
    await section.screenshot({ path: path.join(SCREENSHOTS, 'ai-review-allowlist-section.png') });

    // Removing one keeps the other with its description.
    await section.locator('tr[data-entry="erp.intranet.example"] button[data-action=remove-entry]').click();
    await section.locator('tr[data-entry="erp.intranet.example"]').waitFor({ state: 'detached' });
    expect(await section.locator('[data-testid=allowlist-note]').innerText()).toBe(
      en.allowlist.removed('erp.intranet.example'),
    );
    const saved = await api('/api/v1/network-allowlist', { token: tokens.admin });
    expect(saved.body.data.entries.map((e: any) => [e.entry, e.description])).toEqual([
      ['10.0.0.0/8', 'Office network'],
    ]);
    await shot(admin, 'allowlist-removed');

    // The section in Chinese.
    const zh = await as('admin', 'zh-CN');
    await zh.goto(`${baseUrl()}/admin/directory`);
    const zhSection = zh.locator('#network-allowlist');
    await zhSection.locator('tr[data-entry="10.0.0.0/8"]').waitFor();
    expect(await zhSection.locator('h2').innerText()).toBe(zhCN.allowlist.title);
    expect(englishIn(await zhSection.innerText())).toEqual([]);
    await zhSection.screenshot({ path: path.join(SCREENSHOTS, 'ai-review-allowlist-section-zh.png') });

    await section.locator('tr[data-entry="10.0.0.0/8"] button[data-action=remove-entry]').click();
    await section.locator('[data-testid=allowlist-empty]').waitFor();
    expect((await api('/api/v1/network-allowlist', { token: tokens.admin })).body.data.entries).toEqual([]);
  });
});
