// The definitions page's first render for `npm run bench:ui` (issue 46): a tenant of its own with
// `count` process definitions deployed through the API (ten categories), its administrator logged in
// once through the page, then each run a fresh browser context (empty HTTP cache, the stored
// session) opens /admin/definitions; the figure is navigation start to the first definition row in
// the DOM, taken by a MutationObserver the bench injects (the page needs no mark of its own).
// Budget ≤ 1 s, median of `runs`.
import type { Browser } from 'playwright-core';
import { chainEdges, processDoc, testChain } from '../test/helpers/dsl.js';
import { median } from './median.js';

export const DEFINITIONS_BUDGET_MS = 1000;

const CATEGORIES = ['HR', 'Finance', 'Purchasing', 'IT', 'Legal', 'Sales', 'Facilities', 'Travel', 'Quality', 'Admin'];
const KINDS = ['Leave', 'Expense claim', 'Purchase order', 'Access request', 'Contract review'];

/** Definition `i`: start → one or two manager approvals → end, in category `i % 10`. */
function definitionAt(i: number) {
  const key = `bench_def_${String(i).padStart(4, '0')}`;
  const steps = Array.from({ length: 1 + (i % 2) }, (_, s) => ({
    id: `n${s + 1}`,
    type: 'userTask',
    name: `Approval ${s + 1}`,
    configuration: { approver: { type: 'manager', levels: s + 1 } },
  }));
  return processDoc(
    testChain(key, { category: CATEGORIES[i % CATEGORIES.length] }, `${KINDS[i % KINDS.length]} ${i}`),
    steps,
    chainEdges(['start', ...steps.map((s) => s.id), 'end']),
  );
}

async function call(baseUrl: string, p: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${baseUrl}${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: any };
  if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

export async function definitionsFigures(opts: {
  browser: Browser;
  baseUrl: string;
  systemToken: string;
  runs: number;
  count?: number;
}) {
  const { browser, baseUrl, runs } = opts;
  const count = opts.count ?? 500;
  const tenantId = `bench-defs-${Date.now().toString(36)}`;
  const password = 'bench-admin';
  await call(baseUrl, '/api/v1/tenants', opts.systemToken, {
    id: tenantId,
    name: tenantId,
    admin: { username: 'admin', password },
  });
  const token = (await call(baseUrl, '/api/v1/auth/login', undefined, { username: 'admin', password, tenantId }))
    .accessToken as string;
  const seedStarted = performance.now();
  let next = 0;
  // Four deploys at a time: each is a compile and a transaction of its own.
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < count) {
        const dsl = definitionAt(next++);
        await call(baseUrl, '/api/v1/workflow/process-definitions/deploy', token, { dsl });
      }
    }),
  );
  const seedMs = Math.round(performance.now() - seedStarted);
  const total = (await call(baseUrl, '/api/v1/workflow/process-definitions?page=1&pageSize=1', token)).total as number;

  const login = await browser.newContext();
  const page = await login.newPage();
  await page.goto(`${baseUrl}/`);
  await page.fill('input[name=tenant]', tenantId);
  await page.fill('input[name=username]', 'admin');
  await page.fill('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=whoami]');
  const storageState = await login.storageState();
  await login.close();

  const loads: number[] = [];
  for (let i = 0; i < runs; i++) {
    const ctx = await browser.newContext({ storageState });
    const p = await ctx.newPage();
    await p.addInitScript(() => {
      new MutationObserver((_m, obs) => {
        if (!document.querySelector('tr[data-definition-key]')) return;
        obs.disconnect();
        performance.mark('definitions-rendered');
      }).observe(document, { childList: true, subtree: true });
    });
    await p.goto(`${baseUrl}/admin/definitions`);
    await p.waitForSelector('tr[data-definition-key]');
    loads.push(Math.round(await p.evaluate(() => performance.getEntriesByName('definitions-rendered')[0]!.startTime)));
    await ctx.close();
  }
  return { count: total, seedMs, load: median(loads), loads };
}
