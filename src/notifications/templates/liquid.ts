// The template language of messages: LiquidJS — no code runs, templates read only the variables they
// are given (own properties), no file is ever read (include / render / layout are refused), and
// parse and render time are bounded. Two engines: plain text, and HTML where every output is escaped.
import { Liquid, Tag, type Template } from 'liquidjs';

const LIMITS = { parseLimit: 200_000, renderLimit: 1_000, memoryLimit: 20_000_000 };

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
  return liquid;
}

export const plain = engine(false);
export const html = engine(true);

/** Parsed templates by source, so the dispatcher parses a tenant's template once. */
const parsed = new Map<string, Template[]>();
const PARSED_MAX = 1000;

export function parse(liquid: Liquid, source: string): Template[] {
  const key = `${liquid === html ? 'h' : 'p'}:${source}`;
  let t = parsed.get(key);
  if (!t) {
    t = liquid.parse(source);
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    parsed.set(key, t);
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
