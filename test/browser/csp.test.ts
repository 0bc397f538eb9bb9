// The console's Content-Security-Policy in Chromium (docs/console.md "Content-Security-Policy"):
// every page an admin opens — login, inbox, start, an instance with its diagram, definitions, the
// designer (new and an existing process), monitoring, directory, the notification channels,
// templates with the preview frame, deliveries, settings — and /docs run under it without a single
// violation, the notification WebSocket connects (connect-src 'self' covers same-origin ws:), and
// the preview's e-mail HTML keeps its inline styles. A script injected into the page is blocked and
// reported — and runs when the same page is served without the header, so the check is not vacuous.
// Nobody can frame the console. Screenshots: test/browser/screenshots/csp-*.png.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant } from '../helpers/api.js';
import { ConsoleBrowser, SCREENSHOTS, logIn, screenshots } from '../helpers/console-browser.js';
import { users } from '../helpers/dsl.js';
import { deploy, oneStep, start } from '../helpers/flow.js';

const shot = screenshots('csp-');
const root = path.resolve(import.meta.dirname, '../..');

interface Violation {
  /** The URL of the document the violation happened in (or the page, for a console line). */
  where: string;
  what: string;
}

/**
 * Collects every CSP violation of a page: the `securitypolicyviolation` events of its documents
 * (an init script reports them through a binding, neither of which CSP governs) and the console
 * lines Chromium writes for them — those also cover the sandboxed preview frame, where no script
 * (so no init script) runs.
 */
async function watch(page: Page): Promise<Violation[]> {
  const seen: Violation[] = [];
  const context = page.context();
  await context.exposeBinding('__cspViolation', ({ frame }, v: Record<string, unknown>) => {
    seen.push({ where: frame.url(), what: JSON.stringify(v) });
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as any).__cspViolation({
        directive: e.effectiveDirective,
        blocked: e.blockedURI,
        sample: e.sample,
        source: `${e.sourceFile}:${e.lineNumber}`,
      });
    });
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push({ where: page.url(), what: m.text() });
  });
  return seen;
}

/** A script element and an inline event handler, appended to the page; what each of them set. */
const inject = (page: Page) =>
  page.evaluate(async () => {
    const w = window as any;
    const script = document.createElement('script');
    script.textContent = 'window.__injectedScript = 1';
    document.body.append(script);
    const div = document.createElement('div');
    div.innerHTML = '<img src="/no-such-image.png" onerror="window.__injectedHandler = 1">';
    document.body.append(div);
    await new Promise((r) => setTimeout(r, 500));
    return { script: w.__injectedScript as unknown, handler: w.__injectedHandler as unknown };
  });

describe('Content-Security-Policy (console and /docs, in Chromium)', () => {
  const browser = new ConsoleBrowser({ viewport: { width: 1280, height: 900 } });
  let tenantId: string;
  let tokens: Record<string, string>;
  let instanceId: string;
  let draftId: string;
  let definitionKey: string;

  /** A fresh page, watched from its first document, signed in as the tenant's admin. */
  async function admin(): Promise<{ page: Page; seen: Violation[]; sockets: string[] }> {
    const page = await browser.page();
    const seen = await watch(page);
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    const res = await page.goto(`${baseUrl()}/`);
    expect(res!.headers()['content-security-policy']).toContain("script-src 'self'");
    await logIn(page, tenantId, 'admin', 'secret-admin');
    return { page, seen, sockets };
  }

  beforeAll(async () => {
    await browser.launch();
    ({ tenantId, tokens } = await createDemoLikeTenant('ui-csp'));
    definitionKey = `csp_leave_${randomUUID().slice(0, 6)}`;
    const dsl = oneStep(definitionKey, users('bob'));
    dsl.ruleChain.name = 'Leave request (CSP)';
    await deploy(tokens.admin!, dsl);
    instanceId = await start(tokens.alice!, definitionKey, {}, 'CSP-1');
    // A draft of the example leave request, with a return edge: the designer draws its graph.
    const example = JSON.parse(readFileSync(path.join(root, 'examples', 'leave-request.json'), 'utf8'));
    example.ruleChain.id = `csp_graph_${randomUUID().slice(0, 6)}`;
    example.metadata.connections.push({ fromId: 'manager_and_hr', toId: 'start', type: 'Reject' });
    const draft = await api('/api/v1/workflow/process-definitions', { token: tokens.admin, body: { dsl: example } });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    draftId = draft.body.data.id;
  });

  afterAll(() => browser.close());

  it('every console page runs without a violation; the WebSocket connects; the preview keeps its styles', async () => {
    const { page, seen, sockets } = await admin();
    const open = async (p: string, ready: string) => {
      const res = await page.goto(`${baseUrl()}${p}`);
      // Every document of the console (index.html and each SPA route) carries the policy.
      expect(res!.headers()['content-security-policy'], p).toContain("frame-ancestors 'none'");
      await page.waitForSelector(ready);
      await page.waitForSelector('header .dot.on'); // the socket again, from this document
    };

    // The live dot turns on once the notification socket said "ready": same-origin ws: is allowed.
    await page.waitForSelector('header .dot.on');
    expect(sockets.some((u) => u.startsWith(`ws://${new URL(baseUrl()).host}/api/v1/ws/notifications`))).toBe(true);

    await open('/inbox/todo', 'table.list, p.card.muted');
    await open('/start', 'h1');
    await open(`/instances/${encodeURIComponent(instanceId)}`, '[data-testid=instance-header]');
    await page.waitForSelector('#diagram svg');
    await open('/admin/definitions', `tr[data-definition-key=${definitionKey}]`);
    await page.click(`tr[data-definition-key=${definitionKey}] a`);
    await page.waitForSelector('#diagram svg');
    // The designer: the deployed process (its Edit button, a client-side navigation), a new one, a graph.
    await page.goto(`${baseUrl()}/admin/definitions`);
    await page.click(`tr[data-definition-key=${definitionKey}] button[data-edit]`);
    await page.waitForSelector('[data-testid=flow], [data-testid=graph]');
    await open('/admin/designer/new', '[data-testid=flow]');
    await open(`/admin/designer/${encodeURIComponent(draftId)}`, '[data-testid=graph]');
    await shot(page, 'designer-graph');
    await open('/admin/monitoring', 'h1');
    await open('/admin/directory', '[data-testid=tenant-locale]');
    await open('/admin/notifications/channels', 'h1');
    await open('/admin/notifications/deliveries', 'h1');
    await open('/settings', '[data-testid=notification-settings]');

    // The template preview: the e-mail HTML in a sandboxed srcdoc frame, which inherits the policy.
    await open('/admin/notifications/templates', '[data-testid=template-editor]');
    await page.selectOption('[data-testid=template-kind]', 'task_assigned');
    await page.selectOption('[data-testid=template-locale]', 'en');
    await page.waitForSelector('[data-testid=template-editor][data-locale=en]');
    await page.selectOption('[data-testid=preview-instance]', instanceId);
    await page.click('[data-action=preview]');
    await page.waitForSelector('[data-testid=template-preview]');
    const frame = page.frameLocator('[data-testid=preview-html]');
    await expect(frame.locator('body').innerText()).resolves.toContain('CSP-1');
    // Its style="…" attributes apply (the grey page, the green button): 'unsafe-inline' in style-src is for this.
    await expect(frame.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor)).resolves.toBe(
      'rgb(246, 248, 250)',
    );
    await expect(
      frame
        .locator('a')
        .first()
        .evaluate((a) => [getComputedStyle(a).backgroundColor, getComputedStyle(a).color]),
    ).resolves.toEqual(['rgb(26, 127, 55)', 'rgb(255, 255, 255)']);
    // The console measured it (allow-same-origin) and made the frame as tall as the message.
    const height = await page.locator('[data-testid=preview-html]').evaluate((f) => f.getBoundingClientRect().height);
    expect(height).toBeGreaterThan(200);
    await page.locator('[data-testid=template-preview]').scrollIntoViewIfNeeded();
    await shot(page, 'template-preview');

    expect(seen, JSON.stringify(seen, null, 2)).toEqual([]);
  });

  it('blocks and reports a script injected into the page; the same page without the header runs it', async () => {
    const { page, seen } = await admin();
    await page.goto(`${baseUrl()}/inbox/todo`);
    await page.waitForSelector('table.list, p.card.muted');
    expect(await inject(page)).toEqual({ script: undefined, handler: undefined });
    await expect.poll(() => seen.map((v) => v.what).join('\n')).toMatch(/script-src-elem/);
    expect(seen.some((v) => /script-src-attr/.test(v.what))).toBe(true);

    // Control: the same console, its documents served without the header (the API untouched).
    const bare = await browser.page();
    const bareSeen = await watch(bare);
    await bare.route(`${baseUrl()}/**`, async (route) => {
      if (route.request().resourceType() !== 'document') return route.continue();
      const res = await route.fetch();
      const headers = { ...res.headers() };
      delete headers['content-security-policy'];
      await route.fulfill({ response: res, headers });
    });
    const res = await bare.goto(`${baseUrl()}/`);
    expect(res!.headers()['content-security-policy']).toBeUndefined();
    await logIn(bare, tenantId, 'admin', 'secret-admin');
    await bare.goto(`${baseUrl()}/inbox/todo`);
    await bare.waitForSelector('table.list, p.card.muted');
    expect(await inject(bare)).toEqual({ script: 1, handler: 1 });
    expect(bareSeen).toEqual([]);
  });

  it('cannot be framed, not even by itself', async () => {
    const page = await browser.page();
    const lines: string[] = [];
    page.on('console', (m) => lines.push(m.text()));
    await page.setContent(`<iframe src="${baseUrl()}/inbox/todo"></iframe>`);
    await expect.poll(() => lines.join('\n')).toMatch(/frame-ancestors 'none'/);
    const child = page.frames().find((f) => f !== page.mainFrame())!;
    expect(child.url()).not.toContain(new URL(baseUrl()).host);
  });

  it('/docs (Swagger UI) runs under its own policy without a violation, "Try it out" included', async () => {
    const page = await browser.page();
    const seen = await watch(page);
    const res = await page.goto(`${baseUrl()}/docs`);
    const policy = res!.headers()['content-security-policy'];
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self';");
    await page.waitForSelector('.opblock-summary');
    await page.click('button.authorize');
    await page.waitForSelector('.modal-ux');
    await page.click('.modal-ux .close-modal');
    const login = page.locator('.opblock-summary:has-text("/api/v1/auth/login")').first();
    await login.click();
    await page.click('.try-out__btn');
    await page.fill(
      '.body-param__text',
      JSON.stringify({ username: 'nobody', password: 'wrong-password', tenantId: 'demo' }),
    );
    await page.click('.execute');
    // The API's answer, highlighted by Swagger UI (fetched from this origin: connect-src 'self').
    const status = page.locator('.live-responses-table tbody td.response-col_status').first();
    await status.waitFor();
    expect(await status.textContent()).toContain('401');
    await page.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'csp-docs-try-it-out.png') }); // the viewport: the page is long
    // The schemas (listed, open by default; OpenAPI 3.1: JSON Schema 2020-12 views): one opened all the way.
    const schemas = page.locator('section.models');
    await schemas.scrollIntoViewIfNeeded();
    await schemas.locator('.json-schema-2020-12-expand-deep-button').first().click();
    await schemas.locator('.json-schema-2020-12-property').first().waitFor();
    expect(seen, JSON.stringify(seen, null, 2)).toEqual([]);
  });
});
