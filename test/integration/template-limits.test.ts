// Hostile message templates (docs/channels.md#templates) against the real stack: a template whose
// output doubles into hundreds of millions of characters, one that prints a string in a loop past the
// output cap, a filter that runs for seconds inside one tag, and seven parts each well under a
// one-second limit of their own are all refused — 422 TEMPLATE_INVALID naming the part — within
// about the one-second deadline of the whole message (save and preview), nothing is stored, and the
// server's /healthz answers promptly all the while (templates render in a render thread).
import { beforeAll, describe, expect, it } from 'vitest';
import { api, baseUrl, createDemoLikeTenant, expectError } from '../helpers/api.js';

const BASE = '/api/v1/notification-templates';
/** The deadline of a whole message is 1 s; what a refusal may take on a loaded machine. */
const SAVE_BOUND_MS = 5_000;
/**
 * The slowest /healthz answer allowed while a hostile template renders: a few milliseconds on a
 * quiet machine; rendered on the request thread, the filter below stalled it for seconds.
 */
const HEALTHZ_BOUND_MS = 1_000;

/** 100 characters doubled 16 times (6.5 M characters) and printed 40 times: ~260 M characters. */
const doubling = `{% assign s = "${'0123456789'.repeat(10)}" %}${'{% assign s = s | append: s %}'.repeat(16)}${'{{ s }}'.repeat(40)}`;
/** Printed 20,000 times: 2 M characters, twice the output cap, from nothing liquidjs charges to memory. */
const printed = `{% assign s = "${'0123456789'.repeat(10)}" %}{% for i in (1..20000) %}{{ s }}{% endfor %}`;
/**
 * One filter that runs for seconds (about 1 s with `x > 0` alone, so a heavier test), within the
 * memory budget: liquidjs checks its render limit only between tags.
 */
const whereExp = '{% assign b = (1..750000) | where_exp: "x", "x > 0 and x != 1 and x != 2 and x != 3" %}';
/** A loop of about 250 ms under liquidjs (on this machine), under any per-part limit of 1 s. */
const quarter = '{% for i in (1..150000) %}{% assign x = i | plus: 1 %}{% endfor %}';
const seven = Object.fromEntries(
  ['title', 'intro', 'facts', 'actions', 'subject', 'text', 'html'].map((f) => [f, quarter]),
);

/** Runs `work` while polling /healthz back to back: the slowest answer, and the time `work` took. */
async function whilePolling<T>(work: () => Promise<T>) {
  let done = false;
  let slowest = 0;
  let answers = 0;
  const poller = (async () => {
    while (!done) {
      const t0 = performance.now();
      const res = await fetch(`${baseUrl()}/healthz`);
      await res.text();
      expect(res.status).toBe(200);
      slowest = Math.max(slowest, performance.now() - t0);
      answers++;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - t0, slowest, answers };
  } finally {
    done = true;
    await poller;
  }
}

describe('message template limits', () => {
  let t: Record<string, string>;
  const put = (path: string, body: unknown) => api(`${BASE}/${path}`, { method: 'PUT', token: t.admin, body });

  beforeAll(async () => {
    ({ tokens: t } = await createDemoLikeTenant('tpllim'));
    // Warm: the first render starts the renderer.
    expect((await put('task_assigned/en', {})).status).toBe(200);
  });

  const refused = (label: string, run: () => Promise<{ status: number; body: any }>, field: string, message: RegExp) =>
    it(label, async () => {
      const { result, ms, slowest, answers } = await whilePolling(run);
      console.log(`${label}: ${Math.round(ms)} ms, slowest /healthz ${Math.round(slowest)} ms (${answers} answers)`);
      expectError(result, 422, 42260);
      expect(result.body.data.problems[0]).toMatchObject({ field, message: expect.stringMatching(message) });
      expect(ms).toBeLessThan(SAVE_BOUND_MS);
      expect(answers).toBeGreaterThan(0);
      expect(slowest).toBeLessThan(HEALTHZ_BOUND_MS);
      const after = await api(`${BASE}/task_assigned/en`, { token: t.admin });
      expect(after.body.data.overridden).toEqual([]);
    });

  refused(
    'a template whose output doubles is refused: its string outgrows the memory budget',
    () => put('task_assigned/en', { text: doubling }),
    'text',
    /^memory alloc limit exceeded$/,
  );
  refused(
    'a template printing past the output cap is stopped as its output grows',
    () => put('task_assigned/en', { html: printed }),
    'html',
    /^output larger than 1,000,000 characters$/,
  );
  refused(
    'one filter running past the deadline is stopped',
    () => put('task_assigned/en', { title: whereExp }),
    'title',
    /^render took longer than 1 s$/,
  );
  it('seven slow parts share one deadline (save and preview), and the renderer recovers', async () => {
    for (const run of [
      () => put('task_assigned/en', seven),
      () => api(`${BASE}/task_assigned/en/preview`, { token: t.admin, body: { parts: seven } }),
    ]) {
      const { result, ms, slowest, answers } = await whilePolling(run);
      console.log(`seven parts: ${Math.round(ms)} ms, slowest /healthz ${Math.round(slowest)} ms (${answers} answers)`);
      expectError(result, 422, 42260);
      expect(result.body.data.problems).toHaveLength(1);
      // Which part the deadline falls in depends on the machine's speed.
      expect(result.body.data.problems[0]).toMatchObject({
        field: expect.stringMatching(/^(title|intro|facts|actions|subject|text|html)$/),
        message: 'render took longer than 1 s',
      });
      expect(ms).toBeLessThan(SAVE_BOUND_MS);
      expect(slowest).toBeLessThan(HEALTHZ_BOUND_MS);
    }
    expect((await api(`${BASE}/task_assigned/en`, { token: t.admin })).body.data.overridden).toEqual([]);
    // A normal template still saves and previews after the renderer was stopped.
    const ok = await put('task_assigned/en', { title: 'Decide {{ task.name | upcase }}' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const preview = await api(`${BASE}/task_assigned/en/preview`, { token: t.admin, body: {} });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.message.title).toBe('Decide APPROVE');
    expect((await api(`${BASE}/task_assigned/en`, { method: 'DELETE', token: t.admin })).status).toBe(200);
  });
});
