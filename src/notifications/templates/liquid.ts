// The template language of messages: LiquidJS — no code runs, templates read only the variables they
// are given (own properties), no file is ever read (include / render / layout are refused), and
// parse and render time are bounded. Two engines: plain text, and HTML where every output is escaped.
// A tenant's template runs only in the render thread (./pool.ts), which sets each render's time limit
// to what is left of its message's deadline and is stopped outright when that passes.
import { Liquid, Tag, toValue, type Context, type Emitter, type Template } from 'liquidjs';
import { fileSize } from '../messages/common.js';

const LIMITS = { parseLimit: 200_000, renderLimit: 1_000, memoryLimit: 2_000_000 };

/**
 * The most characters one part may write, counted as they are written: its output, and what its
 * `capture` tags write (liquidjs charges neither to its memoryLimit). More than the longest part a
 * message keeps (render.ts: the HTML's 500,000), so a cap reached is a template gone wrong.
 */
export const OUTPUT_MAX = 1_000_000;
export const outputTooLarge = `output larger than ${OUTPUT_MAX.toLocaleString('en')} characters`;

/**
 * An emitter that counts. liquidjs writes every output of a render — `{{ }}`, text, what tags
 * print, and a `capture`'s body into its own buffer — through an emitter that its renderer's
 * `renderTemplates` makes when none is passed (the root of a render and each `capture`); so the
 * engines' renderer makes this one instead, and all emitters of one render (one Context) share a
 * count. The write that would pass OUTPUT_MAX throws before the characters are appended: the
 * error carries the tag's line and column (liquidjs wraps it in a RenderError).
 */
class CountingEmitter implements Emitter {
  buffer = '';
  constructor(private readonly count: { n: number }) {}
  private text(value: unknown): string {
    value = toValue(value);
    if (typeof value === 'string') return this.charge(value);
    if (value === null || value === undefined) return '';
    // An array prints as its items joined (liquidjs' stringify), counted item by item.
    if (Array.isArray(value)) return value.map((v) => this.text(v)).join('');
    return this.charge(String(value));
  }
  private charge(s: string): string {
    if (this.count.n + s.length > OUTPUT_MAX) throw new Error(outputTooLarge);
    this.count.n += s.length;
    return s;
  }
  write(html: unknown): void {
    this.buffer += this.text(html);
  }
}

/** Characters written by each render (by its Context, which a render and its captures share). */
const written = new WeakMap<Context, { n: number }>();

function countOutput(liquid: Liquid) {
  const renderer = liquid.renderer;
  const renderTemplates = renderer.renderTemplates.bind(renderer);
  renderer.renderTemplates = (templates: Template[], ctx: Context, emitter?: Emitter) => {
    if (!emitter) {
      let count = written.get(ctx);
      if (!count) written.set(ctx, (count = { n: 0 }));
      emitter = new CountingEmitter(count);
    }
    return renderTemplates(templates, ctx, emitter);
  };
}

/** A person's display name from their id (`{{ payload.by | person }}`); the id itself when unknown. */
function person(this: { context: { getSync(paths: PropertyKey[]): unknown } }, id: unknown): string {
  if (typeof id !== 'string') return id === null || id === undefined ? '' : String(id);
  const names = this.context.getSync(['names']) as Record<string, string> | undefined;
  return names && Object.hasOwn(names, id) ? names[id] : id;
}

function engine(escape: boolean): Liquid {
  const liquid = new Liquid({
    strictFilters: true,
    ownPropertyOnly: true,
    outputEscape: escape ? 'escape' : undefined,
    root: [],
    partials: [],
    layouts: [],
    ...LIMITS,
  });
  for (const name of ['include', 'render', 'layout'])
    liquid.registerTag(
      name,
      class extends Tag {
        constructor(...args: ConstructorParameters<typeof Tag>) {
          super(...args);
          throw new Error(`the ${name} tag is not available in message templates`);
        }
        *render(): Generator<unknown, void, unknown> {}
      },
    );
  liquid.registerFilter('person', person);
  liquid.registerFilter('filesize', fileSize);
  countOutput(liquid);
  return liquid;
}

export const plain = engine(false);
export const html = engine(true);

/**
 * Parsed templates by source, so the dispatcher parses a tenant's template once. Bounded by count
 * and by the characters of their sources, as it lives in the render thread's capped heap.
 */
const parsed = new Map<string, Template[]>();
const PARSED_MAX = 1000;
const PARSED_CHARS_MAX = 4_000_000;
let parsedChars = 0;

export function parse(liquid: Liquid, source: string): Template[] {
  const key = `${liquid === html ? 'h' : 'p'}:${source}`;
  let t = parsed.get(key);
  if (!t) {
    t = liquid.parse(source);
    while (parsed.size && (parsed.size >= PARSED_MAX || parsedChars + key.length > PARSED_CHARS_MAX)) {
      const oldest = parsed.keys().next().value!;
      parsed.delete(oldest);
      parsedChars -= oldest.length;
    }
    parsed.set(key, t);
    parsedChars += key.length;
  }
  return t;
}

/** A Liquid error's message without its position, and the position (1-based). */
export function located(err: unknown): { message: string; line: number | null; column: number | null } {
  const raw = (err as Error)?.message ?? String(err);
  const m = raw.match(/, line:(\d+), col:(\d+)$/);
  return m
    ? { message: raw.slice(0, m.index), line: Number(m[1]), column: Number(m[2]) }
    : { message: raw, line: null, column: null };
}
