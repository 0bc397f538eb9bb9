// The render threads of message templates (src/notifications/templates/pool.ts, docs/channels.md#templates)
// without a server: a render past its deadline is stopped (the thread terminated, a fresh one takes
// the next job), the output is capped as it grows, a thread reaching its heap cap ends alone (this
// process goes on), one deadline covers every part of a message, a stopped render at send time
// falls back to the default part — and a normal template renders exactly as it does in this thread.
import { afterAll, describe, expect, it } from 'vitest';
import { CHANNEL_KINDS, LOCALES, type TemplateFields } from '../../src/notifications/messages/index.js';
import { renderMessageSync } from '../../src/notifications/templates/message.js';
import { RenderPool, RenderStopped } from '../../src/notifications/templates/pool.js';
import { checkTemplate, renderMessage, sampleContext } from '../../src/notifications/templates/render.js';

/** One filter that runs for seconds: liquidjs checks its render limit only before each tag. */
const slowFilter = '{% assign b = (1..750000) | where_exp: "x", "x > 0 and x != 1 and x != 2 and x != 3" %}';
/** A loop of a few hundred milliseconds, well under one second. */
const quarter = '{% for i in (1..150000) %}{% assign x = i | plus: 1 %}{% endfor %}';
const hundred = '0123456789'.repeat(10);

/** The longest stall of this thread's event loop while `work` runs. */
async function stallDuring<T>(work: () => Promise<T>) {
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 10);
    last = now;
  }, 10);
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - t0, stall };
  } finally {
    clearInterval(timer);
  }
}

const check = (parts: Partial<TemplateFields>) => checkTemplate('task_assigned', 'en', parts);

describe('template render threads', () => {
  const pools: RenderPool[] = [];
  const pool = (limits: Partial<RenderPool['limits']>) => {
    const p = new RenderPool({ threads: 1, deadlineMs: 1_000, graceMs: 100, memoryMb: 64, ...limits });
    pools.push(p);
    return p;
  };
  afterAll(() => Promise.all(pools.map((p) => p.close())));

  it('renders a tenant template in the thread exactly as in this one', async () => {
    const override = {
      title: 'Decide {{ task.name | upcase }} for {{ payload.by | person }}',
      intro: '{% capture who %}{{ instance.initiator }}{% endcapture %}{{ who }} asks.',
      text: '{{ message.subject }}\n{% for f in message.facts %}{{ f.label }}={{ f.value }}\n{% endfor %}',
      html: '<p>{{ message.title }}</p>',
    };
    for (const kind of CHANNEL_KINDS)
      for (const locale of LOCALES) {
        const ctx = sampleContext(kind, locale);
        expect(await renderMessage(ctx, { override }), `${kind} ${locale}`).toEqual(
          renderMessageSync(ctx, { override }),
        );
      }
    const m = (await renderMessage(sampleContext('task_assigned', 'en'), { override }))!;
    expect(m.title).toBe('Decide APPROVE for Sample User');
    expect(m.intro).toBe('Sample User asks.');
    expect(m.html).toBe('<p>Decide APPROVE for Sample User</p>');
    expect(await check(override)).toEqual([]);
  });

  it('stops a render at the deadline of its message, off this thread, and renders the next one in a fresh thread', async () => {
    const { result, ms, stall } = await stallDuring(() => check({ title: slowFilter }));
    expect(result).toEqual([{ field: 'title', line: null, column: null, message: 'render took longer than 1 s' }]);
    // The filter alone runs for about 11 s: the bounds below leave a loaded machine room and still
    // tell a stop at the deadline, in another thread, from a render that ran to its end here.
    expect(ms).toBeGreaterThanOrEqual(1_000);
    expect(ms).toBeLessThan(5_000);
    // The filter ran in the thread: this one kept answering (before: stalled for the whole render).
    expect(stall).toBeLessThan(2_000);
    expect(await check({ title: 'Decide {{ task.name }}' })).toEqual([]);

    // Stopped by terminating the thread, not by liquidjs' own check (which never runs inside a filter).
    // No grace: the deadline itself ends the thread. A thread's first render compiles and warms up,
    // which a loaded machine may stretch past a short deadline: warm it until one passes.
    const short = pool({ deadlineMs: 1_000, graceMs: 0 });
    const ok = { op: 'check', kind: 'task_assigned', locale: 'en', parts: { title: 'ok' } } as const;
    const warm = async () => {
      for (let i = 0; ; i++) {
        const answer = await short.run(ok).catch((e: unknown) => e);
        if (!(answer instanceof RenderStopped) || i === 4) return answer;
      }
    };
    expect(await warm()).toEqual([]); // started: what follows times the render alone
    const t0 = performance.now();
    const err = await short
      .run({ op: 'check', kind: 'task_assigned', locale: 'en', parts: { title: slowFilter } })
      .catch((e: unknown) => e);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(err).toBeInstanceOf(RenderStopped);
    expect(err).toMatchObject({ reason: 'deadline', field: 'title', message: 'render took longer than 1 s' });
    expect(await warm()).toEqual([]);
  });

  it('has one deadline for all the parts of a message, not one each', async () => {
    const seven = Object.fromEntries(
      ['title', 'intro', 'facts', 'actions', 'subject', 'text', 'html'].map((f) => [f, quarter]),
    );
    const { result, ms } = await stallDuring(() => check(seven));
    expect(result).toHaveLength(1);
    expect(result[0]).toMatchObject({ message: 'render took longer than 1 s' });
    // Seven parts of about 250 ms each, each under a 1 s limit of its own: only one deadline for the
    // message stops them (the problem above); the bound keeps a hung render from passing.
    expect(ms).toBeLessThan(5_000);
  });

  it('caps the output as it is written: printed, and captured', async () => {
    const printed = await check({ text: `{% for i in (1..20000) %}{{ "${hundred}" }}{% endfor %}` });
    expect(printed).toEqual([
      { field: 'text', line: 1, column: 26, message: 'output larger than 1,000,000 characters' },
    ]);
    // A capture writes into its own buffer, which liquidjs charges to nothing: counted all the same.
    const captured = await check({
      html: `{% assign s = "${hundred}" %}\n{% for i in (1..30) %}{% capture s %}{{ s }}{{ s }}{% endcapture %}{% endfor %}`,
    });
    expect(captured).toEqual([
      { field: 'html', line: 2, column: expect.any(Number), message: 'output larger than 1,000,000 characters' },
    ]);
    // Just under the cap is fine (the message keeps at most 200,000 characters of text).
    expect(await check({ text: `{% for i in (1..9000) %}{{ "${hundred}" }}{% endfor %}` })).toEqual([]);
  });

  it('ends a thread that reaches its heap cap, and only that thread', async () => {
    const small = pool({ memoryMb: 32, deadlineMs: 20_000 });
    // Within liquidjs' own memory budget (a million items), but each item is a group of its own.
    const groups = '{% assign g = (1..1000000) | group_by_exp: "x", "x" %}{{ g | size }}';
    const err = await small
      .run({ op: 'check', kind: 'task_assigned', locale: 'en', parts: { title: groups } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RenderStopped);
    expect(err).toMatchObject({ reason: 'memory', field: 'title', message: 'render used more than 32 MB of memory' });
    expect(await small.run({ op: 'check', kind: 'task_assigned', locale: 'en', parts: { title: 'ok' } })).toEqual([]);
  });

  it('at send time, a part whose render was stopped falls back to the default; the other parts are kept', async () => {
    const fallbacks: Array<[string, string]> = [];
    const ctx = sampleContext('task_assigned', 'en');
    const m = (await renderMessage(ctx, {
      override: { title: slowFilter, intro: 'Over to you, {{ recipient.name }}.' },
      onFallback: (field, err) => fallbacks.push([field, (err as Error).message]),
    }))!;
    expect(fallbacks).toEqual([['title', 'render took longer than 1 s']]);
    expect(m.title).toBe(renderMessageSync(ctx)!.title);
    expect(m.intro).toBe('Over to you, Sample Approver.');
    // Errors inside the thread fall back part by part as before (here: the output cap).
    const big: Array<[string, string]> = [];
    const n = (await renderMessage(ctx, {
      override: { text: `{% for i in (1..20000) %}{{ "${hundred}" }}{% endfor %}` },
      onFallback: (field, err) => big.push([field, (err as Error).message]),
    }))!;
    expect(big).toEqual([['text', expect.stringMatching(/^output larger than 1,000,000 characters/)]]);
    expect(n.text).toBe(renderMessageSync(ctx)!.text);
  });
});
