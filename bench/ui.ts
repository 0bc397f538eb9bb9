// `npm run bench:ui`: the web console's budgets on the embedded stack — JavaScript shipped
// (gzipped, ≤ 250 KB) and the initial part of it, the entry chunk with its static imports (what loads
// before the first page renders, bench/initial-chunk.ts, ≤ 80 KB); the inbox's first load (≤ 1 s:
// navigation start to the rendered to-do list, in a fresh browser context with an empty HTTP cache
// and a stored session; median of BENCH_UI_RUNS); the designer's (bench/designer.ts); the definitions
// page's first render with 500 definitions (bench/definitions-page.ts, ≤ 1 s, measured as the inbox);
// the people picker's server answer time at 20,000 and 100,000 users (bench/people.ts, p95 ≤ 150 ms).
// Exits 1 when a budget is exceeded. Needs Debian's chromium (CHROMIUM_PATH), except
// `BENCH_UI_ONLY=people`, which runs the people figures alone; `BENCH_UI_ONLY=definitions` runs the
// sizes and the definitions page alone.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStack } from '../scripts/stack.js';
import { launchChromium } from '../test/helpers/chromium-launch.js';
import { JS_BUDGET_GZIP, distDir, ensureUi, uiSize } from '../scripts/build-ui.js';
import { DEFINITIONS_BUDGET_MS, definitionsFigures } from './definitions-page.js';
import { EDIT_BUDGET_MS, OPEN_BUDGET_MS, designerFigures } from './designer.js';
import { INITIAL_JS_BUDGET_GZIP, initialJs } from './initial-chunk.js';
import { median } from './median.js';
import { peopleFigures } from './people.js';

const RUNS = Number(process.env.BENCH_UI_RUNS ?? 5);
const LOAD_BUDGET_MS = 1000;
const TASKS = Number(process.env.BENCH_UI_TASKS ?? 25);
const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => p && existsSync(p),
);

/** The system administrator's token (the bench's people tenants are made with it). */
async function systemToken(baseUrl: string) {
  const res = await fetch(`${baseUrl}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password: 'admin', tenantId: 'system' }),
  });
  return ((await res.json()) as { data: { accessToken: string } }).data.accessToken;
}

if (process.env.BENCH_UI_ONLY === 'people') {
  const stack = await startStack({ name: 'bench-people', logLevel: 'warn' });
  try {
    const people = await peopleFigures(stack.baseUrl, await systemToken(stack.baseUrl));
    console.log(
      `people picker (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs)\n${people.lines.join('\n')}`,
    );
    process.exitCode = people.ok ? 0 : 1;
  } finally {
    await stack.stop();
  }
  process.exit();
}
if (!executablePath) throw new Error('chromium not found: apt-get install -y chromium, or set CHROMIUM_PATH');

await ensureUi({ quiet: true });
const size = uiSize();
const initial = initialJs(distDir, size);
const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const sizeLines = () => {
  const imports = initial.files.slice(1).map((f) => path.basename(f.file).replace(/-[\w-]{8}\.js$/, ''));
  return `  JavaScript shipped   ${kb(size.jsGzipBytes)} KB gzipped (${kb(size.jsBytes)} KB raw)   budget ${JS_BUDGET_GZIP / 1024} KB   ${size.jsGzipBytes <= JS_BUDGET_GZIP ? 'ok' : 'OVER'}
  initial JavaScript   ${kb(initial.gzipBytes)} KB gzipped (${kb(initial.bytes)} KB raw): entry ${kb(initial.entry.gzipBytes)} KB + ${imports.length} static imports (${imports.join(', ')})   budget ${INITIAL_JS_BUDGET_GZIP / 1024} KB   ${initial.gzipBytes <= INITIAL_JS_BUDGET_GZIP ? 'ok' : 'OVER'}
  CSS                  ${kb(size.cssGzipBytes)} KB gzipped`;
};
const sizesOk = size.jsGzipBytes <= JS_BUDGET_GZIP && initial.gzipBytes <= INITIAL_JS_BUDGET_GZIP;
const definitionsLine = (d: Awaited<ReturnType<typeof definitionsFigures>>) =>
  `  definitions page     median ${d.load} ms of ${d.loads.length} (${d.loads.join(', ')} ms), ${d.count} definitions (deployed in ${(d.seedMs / 1000).toFixed(1)} s)   budget ${DEFINITIONS_BUDGET_MS} ms   ${d.load <= DEFINITIONS_BUDGET_MS ? 'ok' : 'OVER'}`;
const stack = await startStack({ name: 'bench-ui', logLevel: 'warn' });
const browser = await launchChromium(executablePath);
if (process.env.BENCH_UI_ONLY === 'definitions') {
  try {
    const d = await definitionsFigures({
      browser,
      baseUrl: stack.baseUrl,
      systemToken: await systemToken(stack.baseUrl),
      runs: RUNS,
    });
    console.log(
      `web console budgets (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs)\n${sizeLines()}\n${definitionsLine(d)}`,
    );
    process.exitCode = sizesOk && d.load <= DEFINITIONS_BUDGET_MS ? 0 : 1;
  } finally {
    await browser.close();
    await stack.stop();
  }
  process.exit();
}
try {
  const post = async (p: string, body: unknown, token?: string) => {
    const res = await fetch(`${stack.baseUrl}${p}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${p}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const tokenOf = async (username: string, password: string) =>
    (await post('/api/v1/auth/login', { username, password, tenantId: 'demo' })).accessToken as string;
  const admin = await tokenOf('admin', 'admin');
  const dsl = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../examples/leave-request.json'), 'utf8'));
  await post('/api/v1/workflow/process-definitions/deploy', { dsl }, admin);
  const alice = await tokenOf('alice', 'demo');
  // A to-do list with content: short leave requests go to bob.
  for (let i = 0; i < TASKS; i++)
    await post(
      '/api/v1/workflow/process-instances/start',
      { processKey: 'leave_request', businessKey: `BENCH-${i}`, variables: { days: 1 + (i % 3), reason: 'bench' } },
      alice,
    );

  // Log in once through the page, keep the session (localStorage) for the cold loads.
  const first = await browser.newContext();
  const page = await first.newPage();
  await page.goto(`${stack.baseUrl}/`);
  await page.fill('input[name=username]', 'bob');
  await page.fill('input[name=password]', 'demo');
  await page.click('button[type=submit]');
  await page.waitForSelector('[data-testid=list-todo]');
  const storageState = await first.storageState();
  await first.close();

  const loads: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext({ storageState });
    const p = await ctx.newPage();
    await p.goto(`${stack.baseUrl}/inbox/todo`);
    await p.waitForSelector('[data-testid=list-todo] tbody tr');
    loads.push(
      Math.round(
        await p.evaluate(() => performance.getEntriesByName('inbox-rendered')[0]?.startTime ?? performance.now()),
      ),
    );
    await ctx.close();
  }
  // The designer, as an administrator: a 300-node process opened and edited.
  const adminPage = await (await browser.newContext()).newPage();
  await adminPage.goto(`${stack.baseUrl}/`);
  await adminPage.fill('input[name=username]', 'admin');
  await adminPage.fill('input[name=password]', 'admin');
  await adminPage.click('button[type=submit]');
  await adminPage.waitForSelector('[data-testid=whoami]');
  const designer = await designerFigures({
    browser,
    baseUrl: stack.baseUrl,
    adminToken: admin,
    storageState: await adminPage.context().storageState(),
    runs: RUNS,
  });
  await adminPage.context().close();
  const system = await systemToken(stack.baseUrl);
  const definitions = await definitionsFigures({ browser, baseUrl: stack.baseUrl, systemToken: system, runs: RUNS });
  const people = await peopleFigures(stack.baseUrl, system);
  const definitionsOk = definitions.load <= DEFINITIONS_BUDGET_MS;
  const designerOk =
    designer.open <= OPEN_BUDGET_MS && designer.rename <= EDIT_BUDGET_MS && designer.insert <= EDIT_BUDGET_MS;

  const loadMedian = median(loads);
  const load = os.loadavg()[0]!.toFixed(1);
  console.log(`web console budgets (load average ${load} on ${os.cpus().length} CPUs)
${sizeLines()}
  inbox first load     median ${loadMedian} ms of ${RUNS} (${loads.join(', ')} ms), ${TASKS} tasks   budget ${LOAD_BUDGET_MS} ms   ${loadMedian <= LOAD_BUDGET_MS ? 'ok' : 'OVER'}
  designer open        median ${designer.open} ms of ${RUNS} (${designer.opens.join(', ')} ms), ${designer.nodes} nodes   budget ${OPEN_BUDGET_MS} ms   ${designer.open <= OPEN_BUDGET_MS ? 'ok' : 'OVER'}
  designer edit        rename ${designer.rename} ms, insert ${designer.insert} ms (median re-render)   budget ${EDIT_BUDGET_MS} ms   ${designer.rename <= EDIT_BUDGET_MS && designer.insert <= EDIT_BUDGET_MS ? 'ok' : 'OVER'}
${definitionsLine(definitions)}
${people.lines.join('\n')}`);
  process.exitCode = sizesOk && loadMedian <= LOAD_BUDGET_MS && designerOk && definitionsOk && people.ok ? 0 : 1;
} finally {
  await browser.close();
  await stack.stop();
}
