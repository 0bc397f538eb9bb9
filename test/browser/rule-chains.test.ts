// The "Rule chains" page (docs/rule-chains.md#the-console): an admin builds a chain on the page (a
// filter and a script, connected by True), saves and deploys it, runs a test message and sees the
// output, the path on the graph and each node's messages; opens the run again from "Runs". A chain
// made by the API keeps its unknown fields and its layout through an edit on the page, and a bad
// expression is refused at save with the problem on its node. The list searches, stops and starts.
// At 390 px wide and in Chinese too. Screenshots: test/browser/screenshots/rule-chains-*.png.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { ConsoleBrowser, englishCatalogueTexts, screenshots } from '../helpers/console-browser.js';
import { en as consoleEn } from '../../ui/src/i18n/en.js';
import { zhCN as consoleZhCN } from '../../ui/src/i18n/zh-CN.js';
import { en as featureEn } from '../../ui/src/features/rule-chains/i18n/en.js';
import { zhCN as featureZhCN } from '../../ui/src/features/rule-chains/i18n/zh-CN.js';

/** The page's words: the console's and its own (ui/src/features/rule-chains/i18n/, loaded with its chunk). */
const en = { ...consoleEn, ...featureEn };
const zhCN = { ...consoleZhCN, ...featureZhCN };

const shot = screenshots('rule-chains-');
const RULES = '/rulego/api/v1/rules';

/** A chain made by the API, with fields the page does not know and every node placed. */
const extrasChain = (id: string) => ({
  ruleChain: {
    id,
    name: 'Invoice sync',
    root: true,
    debugMode: false,
    additionalInfo: { description: 'Keeps the ERP in step', owner: 'ops-team' },
    configuration: { vars: { region: 'eu' } },
  },
  metadata: {
    firstNodeIndex: 0,
    endpoints: [
      {
        id: 'hook',
        type: 'endpoint/http',
        name: 'ERP webhook',
        configuration: {},
        routers: [{ id: 'r1', params: ['POST'], from: { path: '/invoices' }, to: { path: `${id}:big`, wait: true } }],
      },
    ],
    nodes: [
      {
        id: 'big',
        type: 'exprFilter',
        name: 'Big invoice?',
        configuration: { expr: 'msg.total >= 1000' },
        additionalInfo: { layoutX: 40, layoutY: 30, colour: 'teal' },
        vendorField: { keep: true },
      },
      {
        id: 'tag',
        type: 'exprTransform',
        name: 'Tag it',
        configuration: { mapping: { total: 'msg.total', big: 'true' } },
        additionalInfo: { layoutX: 300, layoutY: 160 },
      },
    ],
    connections: [{ fromId: 'big', toId: 'tag', type: 'True', label: 'large' }],
    ruleChainConnections: [],
  },
});

describe('Rule chains (admin console page)', () => {
  const browser = new ConsoleBrowser();
  let tenantId: string;
  let admin: string;

  const asAdmin = (locale = 'en-GB', phone = false) =>
    browser.as('admin', {
      tenant: tenantId,
      password: 'secret-admin',
      locale,
      ...(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
    });
  /** What sticks out past the viewport's right edge; the graph scrolls in its own box, so its drawing does not count. */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return [...document.querySelectorAll('body *')]
        .filter((e) => !e.closest('svg') && e.getBoundingClientRect().right > width + 1)
        .map((e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
        .slice(0, 10);
    });
  const node = (page: Page, id: string) => page.locator(`[data-testid=chain-graph] g[data-node-id="${id}"]`);
  const openNav = async (page: Page, words: typeof en) => {
    await page.click(`header.top a:has-text("${words.nav.ruleChains}")`);
    await page.waitForSelector('[data-testid=chain-filters]');
  };

  beforeAll(async () => {
    await browser.launch();
    let tokens: Record<string, string>;
    ({ tenantId, tokens } = await createDemoLikeTenant('ui-chains'));
    admin = tokens.admin!;
    const components = await api('/rulego/api/v1/components', { token: admin });
    expect(components.status, JSON.stringify(components.body)).toBe(200);
    const res = await api(`${RULES}/invoice-sync`, { token: admin, body: extrasChain('invoice-sync') });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  afterAll(async () => {
    await browser.close();
  });

  it('builds a chain on the page, saves it, runs a test message: output, path on the graph, a node’s messages', async () => {
    const page = await asAdmin();
    await openNav(page, en);
    expect(await page.textContent('h1')).toBe(en.ruleChains.title);
    await page.locator('tr[data-chain-id=invoice-sync]').waitFor();
    expect(await page.locator('tr[data-chain-id=invoice-sync]').innerText()).toContain('HTTP');
    await shot(page, 'list');

    await page.click('[data-action=new-chain]');
    await page.waitForSelector('[data-testid=chain-settings]');
    await page.fill('#chain-id', 'order-check');
    await page.fill('#chain-name', 'Order check');
    // A filter on the amount, then a script that marks the message, connected by the filter's True.
    await page.click('[data-testid=palette] button[data-add=exprFilter]');
    await page.waitForSelector('[data-testid=node-panel][data-node-id=exprFilter1]');
    await page.fill('#node-name', 'Large order?');
    await page.fill('#cfg-expr', 'msg.amount > 100');
    await page.click('[data-testid=palette] button[data-add=jsTransform]');
    await page.waitForSelector('[data-testid=node-panel][data-node-id=jsTransform1]');
    await page.fill('#node-name', 'Mark checked');
    await page.fill(
      '#cfg-jsScript',
      "if (msg.sku === 'BAD') throw new Error('unknown sku');\nmsg.checked = true;\nmetadata.by = 'console';\nreturn {'msg': msg, 'metadata': metadata, 'msgType': msgType};",
    );
    await node(page, 'exprFilter1').click();
    await page.waitForSelector('[data-testid=node-panel][data-node-id=exprFilter1]');
    await page.fill('[data-testid=connect-form] input[name=relation]', 'True');
    await page.selectOption('[data-testid=connect-form] select[name=to]', 'jsTransform1');
    await page.click('[data-action=connect]');
    await page.locator('[data-testid=connections] li[data-to=jsTransform1][data-type=True]').waitFor();
    await page.locator('[data-testid=chain-graph] g[data-from=exprFilter1][data-to=jsTransform1]').waitFor();
    await shot(page, 'editor-built');

    await page.click('[data-action=save-chain]');
    await expect(page.locator('[data-testid=editor-note]').textContent()).resolves.toBe(en.ruleChains.saved);
    await page.waitForURL('**/admin/rule-chains/order-check');
    const saved = (await api(`${RULES}/order-check`, { token: admin })).body as any;
    expect(saved.ruleChain).toMatchObject({ id: 'order-check', name: 'Order check' });
    expect(saved.metadata.nodes.map((n: any) => [n.id, n.type, n.name])).toEqual([
      ['exprFilter1', 'exprFilter', 'Large order?'],
      ['jsTransform1', 'jsTransform', 'Mark checked'],
    ]);
    expect(saved.metadata.connections).toEqual([{ fromId: 'exprFilter1', toId: 'jsTransform1', type: 'True' }]);
    await expect(page.textContent('[data-testid=chain-state]')).resolves.toBe(en.ruleChains.started);

    await page.click('[data-tab=run]');
    await page.fill('#run-msg-type', 'ORDER');
    await page.fill('#run-body', '{"amount": 120, "sku": "A-7"}');
    await page.click('[data-action=run-chain]');
    const result = page.locator('[data-testid=run-result]');
    await result.waitFor();
    expect(await result.getAttribute('data-ok'), await result.innerText()).toBe('true');
    const output = JSON.parse((await page.textContent('[data-testid=run-output]'))!);
    expect(output).toEqual({ amount: 120, sku: 'A-7', checked: true });
    // The path on the graph: both nodes visited, with the relation each took, and the True connection followed.
    await page.waitForSelector('[data-testid=run-log]');
    await expect(node(page, 'exprFilter1').getAttribute('data-state')).resolves.toBe('visited');
    await expect(node(page, 'exprFilter1').getAttribute('data-relation')).resolves.toBe('True');
    await expect(node(page, 'jsTransform1').getAttribute('data-state')).resolves.toBe('visited');
    await expect(node(page, 'jsTransform1').getAttribute('data-relation')).resolves.toBe('Success');
    await expect(
      page.locator('[data-testid=chain-graph] g[data-from=exprFilter1][data-to=jsTransform1]').getAttribute('data-run'),
    ).resolves.toBe('true');
    // A node's log: what went in and what came out.
    await node(page, 'jsTransform1').click();
    const log = page.locator('[data-testid=node-log][data-node-id=jsTransform1]');
    await log.waitFor();
    expect(await log.locator('[data-testid=node-in]').innerText()).toContain('"amount": 120');
    expect(await log.locator('[data-testid=node-in]').innerText()).not.toContain('checked');
    expect(await log.locator('[data-testid=node-out]').innerText()).toContain('"checked": true');
    expect(await log.locator('[data-testid=node-out]').innerText()).toContain('by: console');
    await shot(page, 'run-log');

    // A message the filter refuses: the run ends at the filter (False, not connected), the script never runs.
    await page.fill('#run-body', '{"amount": 5}');
    await page.click('[data-action=run-chain]');
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid=chain-graph] g[data-node-id=exprFilter1]')
          ?.getAttribute('data-relation') === 'False',
    );
    await expect(node(page, 'jsTransform1').getAttribute('data-state')).resolves.toBe('idle');

    // The script throws (no Failure connection): the run fails, and the node shows why.
    await page.fill('#run-body', '{"amount": 500, "sku": "BAD"}');
    await page.click('[data-action=run-chain]');
    await page.waitForSelector('[data-testid=run-result][data-ok=false]');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=chain-graph] g[data-node-id=jsTransform1]')?.getAttribute('data-state') ===
        'failed',
    );
    await node(page, 'jsTransform1').click();
    expect(await page.textContent('[data-testid=node-log] [data-testid=node-error]')).toContain('unknown sku');
    await shot(page, 'run-failed');

    // "Runs": the three runs, newest first; the first one opens on the graph again.
    await page.click('[data-tab=runs]');
    await expect.poll(() => page.locator('[data-testid=run-list] li').count()).toBe(3);
    await page.locator('[data-testid=run-list] li').nth(2).locator('[data-action=open-run]').click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=chain-graph] g[data-node-id=jsTransform1]')?.getAttribute('data-state') ===
        'visited',
    );
    await shot(page, 'runs');
  });

  it('keeps unknown fields and the layout through an edit; a bad expression is refused with the problem on its node', async () => {
    const page = await asAdmin();
    await openNav(page, en);
    await page.locator('tr[data-chain-id=invoice-sync] [data-action=open]').click();
    await node(page, 'big').waitFor();
    // Drawn at its layout: the filter left of and above the transform, as placed.
    const [a, b] = await Promise.all([node(page, 'big').boundingBox(), node(page, 'tag').boundingBox()]);
    expect(a!.x).toBeLessThan(b!.x);
    expect(a!.y).toBeLessThan(b!.y);
    await expect(page.locator('[data-testid=chain-graph] g[data-from=big] text').textContent()).resolves.toBe(
      'True (large)',
    );
    // Its HTTP trigger sits above the node it feeds.
    const trigger = await page.locator('[data-testid=chain-graph] g[data-endpoint=hook]').boundingBox();
    expect(trigger!.y).toBeLessThan(a!.y);
    await expect(
      page.locator('[data-testid=chain-graph] g[data-from="endpoint:0"]').getAttribute('data-to'),
    ).resolves.toBe('big');

    await node(page, 'tag').click();
    await page.fill('#node-name', 'Tag large invoices');
    await page.click('[data-action=save-chain]');
    await expect(page.locator('[data-testid=editor-note]').textContent()).resolves.toBe(en.ruleChains.saved);
    const after = (await api(`${RULES}/invoice-sync`, { token: admin })).body as any;
    const want = extrasChain('invoice-sync');
    want.metadata.nodes[1]!.name = 'Tag large invoices';
    expect(after.metadata).toEqual(want.metadata);
    expect(after.ruleChain.additionalInfo.owner).toBe('ops-team');
    expect(after.ruleChain.configuration).toEqual(want.ruleChain.configuration);

    // A bad expression: 422, the problem listed and drawn on the node, its field marked; nothing stored.
    await node(page, 'big').click();
    await page.fill('#cfg-expr', 'msg.total >= ');
    await page.click('[data-action=save-chain]');
    await page.waitForSelector('[data-testid=chain-problems] li[data-node=big]');
    await expect(node(page, 'big').getAttribute('data-state')).resolves.toBe('problem');
    await page.waitForSelector(
      '[data-testid=node-panel][data-node-id=big] [data-field=expr] [data-testid=field-problem]',
    );
    expect(await page.getAttribute('#cfg-expr', 'aria-invalid')).toBe('true');
    const stored = (await api(`${RULES}/invoice-sync`, { token: admin })).body as any;
    expect(stored.metadata.nodes[0].configuration.expr).toBe('msg.total >= 1000');
    await shot(page, 'save-problem');

    // The JSON view holds the whole document as edited, fields the page does not know included.
    await page.click('[data-tab=json]');
    const json = JSON.parse(await page.inputValue('#chain-json'));
    expect(json.metadata.nodes[0]).toMatchObject({
      vendorField: { keep: true },
      configuration: { expr: 'msg.total >= ' },
    });
    expect(json.ruleChain.additionalInfo.owner).toBe('ops-team');
  });

  it('searches, stops, starts and deletes chains from the list', async () => {
    const scratch = { ...extrasChain('scratch'), ruleChain: { ...extrasChain('scratch').ruleChain, name: 'Scratch' } };
    expect((await api(`${RULES}/scratch`, { token: admin, body: scratch })).status).toBe(200);
    const page = await asAdmin();
    await openNav(page, en);
    await page.fill('input[name=keywords]', 'invoice');
    await page.click('[data-testid=chain-filters] button[type=submit]');
    await expect.poll(() => page.locator('[data-testid=chain-list] tbody tr').count()).toBe(1);
    const row = page.locator('tr[data-chain-id=invoice-sync]');
    await row.locator(`button:has-text("${en.ruleChains.stop}")`).click();
    await page.waitForSelector('tr[data-chain-id=invoice-sync][data-state=stopped]');
    expect(((await api(`${RULES}/invoice-sync`, { token: admin })).body as any).ruleChain.disabled).toBe(true);
    await page.selectOption('select[name=state]', 'stopped');
    await page.fill('input[name=keywords]', '');
    await page.click('[data-testid=chain-filters] button[type=submit]');
    await expect.poll(() => page.locator('[data-testid=chain-list] tbody tr').count()).toBe(1);
    await row.locator(`button:has-text("${en.ruleChains.start}")`).click();
    await expect
      .poll(async () => ((await api(`${RULES}/invoice-sync`, { token: admin })).body as any).ruleChain.disabled)
      .toBe(false);

    // Delete asks first; then the chain is gone from the list and the API.
    await page.selectOption('select[name=state]', '');
    await page.click('[data-testid=chain-filters] button[type=submit]');
    page.once('dialog', (d) => void d.accept());
    await page.locator('tr[data-chain-id=scratch] [data-action=delete]').click();
    await page.locator('tr[data-chain-id=scratch]').waitFor({ state: 'detached' });
    expect((await api(`${RULES}/scratch`, { token: admin })).status).toBe(404);
  });

  it('fits a phone (390 px): the list stacks, the editor shows the graph above its panels', async () => {
    const page = await asAdmin('en-GB', true);
    await page.goto(`${new URL(page.url()).origin}/admin/rule-chains`);
    await page.locator('tr[data-chain-id=order-check]').waitFor();
    await shot(page, 'phone-list');
    expect(await overflow(page)).toEqual([]);

    await page.locator('tr[data-chain-id=order-check] [data-action=open]').click();
    await node(page, 'exprFilter1').waitFor();
    const graph = await page.locator('[data-testid=chain-graph]').boundingBox();
    const panel = await page.locator('[role=tabpanel]').boundingBox();
    expect(panel!.y).toBeGreaterThan(graph!.y + graph!.height - 1);
    await shot(page, 'phone-editor');
    expect(await overflow(page)).toEqual([]);

    await page.click('[data-tab=run]');
    await page.fill('#run-body', '{"amount": 300}');
    await page.click('[data-action=run-chain]');
    await page.waitForSelector('[data-testid=run-log]');
    await node(page, 'jsTransform1').click();
    await page.waitForSelector('[data-testid=node-log][data-node-id=jsTransform1]');
    await shot(page, 'phone-run-log');
    expect(await overflow(page)).toEqual([]);
  });

  it('speaks Chinese: list, editor and run log from the zh-CN catalogue', async () => {
    const page = await asAdmin('zh-CN');
    await openNav(page, zhCN as typeof en);
    expect(await page.textContent('h1')).toBe(zhCN.ruleChains.title);
    await page.locator('tr[data-chain-id=order-check]').waitFor();
    expect(await page.locator('tr[data-chain-id=order-check]').innerText()).toContain(zhCN.ruleChains.started);
    const english = englishCatalogueTexts(featureEn, featureZhCN);
    /** The page's own words that show in English (none may, on a zh-CN page). */
    const englishShown = async (p: Page) => {
      const text = await p.innerText('main');
      return english.filter((w) => text.includes(w));
    };
    expect(await englishShown(page)).toEqual([]);
    await shot(page, 'zh-CN-list');

    await page.locator('tr[data-chain-id=order-check] [data-action=open]').click();
    await node(page, 'exprFilter1').waitFor();
    expect(await page.textContent('[data-tab=run]')).toBe(zhCN.ruleChains.tab.run);
    expect(await englishShown(page)).toEqual([]);
    await shot(page, 'zh-CN-editor');
    await page.click('[data-tab=run]');
    await page.fill('#run-body', '{"amount": 150}');
    await page.click('[data-action=run-chain]');
    await page.waitForSelector('[data-testid=run-log]');
    expect(await page.textContent('[data-testid=run-result] p')).toBe(zhCN.ruleChains.runOk);
    await node(page, 'exprFilter1').click();
    await page.waitForSelector('[data-testid=node-log][data-node-id=exprFilter1]');
    expect(await page.textContent('[data-testid=node-log] h4')).toBe(zhCN.ruleChains.inMsg);
    expect(await englishShown(page)).toEqual([]);
    await shot(page, 'zh-CN-run-log');

    const phone = await asAdmin('zh-CN', true);
    await phone.goto(`${new URL(phone.url()).origin}/admin/rule-chains`);
    await phone.locator('tr[data-chain-id=order-check]').waitFor();
    await shot(phone, 'zh-CN-phone-list');
    expect(await overflow(phone)).toEqual([]);
    await phone.locator('tr[data-chain-id=order-check] [data-action=open]').click();
    await node(phone, 'exprFilter1').waitFor();
    await shot(phone, 'zh-CN-phone-editor');
    expect(await overflow(phone)).toEqual([]);
    await phone.click('[data-tab=run]');
    await phone.fill('#run-body', '{"amount": 180}');
    await phone.click('[data-action=run-chain]');
    await phone.waitForSelector('[data-testid=run-log]');
    await node(phone, 'jsTransform1').click();
    await phone.waitForSelector('[data-testid=node-log][data-node-id=jsTransform1]');
    expect(await englishShown(phone)).toEqual([]);
    await shot(phone, 'zh-CN-phone-run-log');
    expect(await overflow(phone)).toEqual([]);
  });
});
