// How httpCall (engine version 3) and aiAgent put an answer into the variables, as GFlow does
// (its components/output_merge.go): the whole answer under the reserved key — the JSON object it
// holds, otherwise its text —, its top-level fields merged when flattening, the mappings last.
// Pure: runs inside the workflow.

export interface OutputMapping {
  from: string;
  to: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const unsafeKey = (k: string) => k === '__proto__' || k === 'constructor' || k === 'prototype';

/** End of the object that opens at `start` (a `{`), skipping braces inside strings; -1 when unclosed. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * The first JSON object in `text`: the whole text, one inside a ```json fence, or one amid prose
 * and a verdict line (models answer like that). Null when there is none.
 */
export function extractJsonObject(text: string): Record<string, unknown> | null {
  for (let start = text.indexOf('{'); start >= 0; start = text.indexOf('{', start + 1)) {
    const end = objectEnd(text, start);
    if (end < 0) return null;
    try {
      const value: unknown = JSON.parse(text.slice(start, end + 1));
      if (isPlainObject(value)) return value;
    } catch {
      // not JSON from this brace: try the next one
    }
  }
  return null;
}

/** The answer as GFlow keeps it: the object it is or holds, otherwise its trimmed text. */
export function answerValue(answer: unknown): Record<string, unknown> | string {
  if (isPlainObject(answer)) return answer;
  const text = typeof answer === 'string' ? answer : answer === undefined ? '' : JSON.stringify(answer);
  return extractJsonObject(text) ?? text.trim();
}

/**
 * A mapping's `from`: a dotted path (`data.score`, `items.0.name`), optionally written as JSONPath
 * (`$.data.score`). `body.` in front is dropped when the answer has no `body` field: the form this
 * service's earlier httpCall documented. Undefined when the path names nothing.
 */
export function valueAtPath(source: unknown, path: string): unknown {
  let rel = path === '$' ? '' : path.replace(/^\$\.?/, '');
  if (rel.startsWith('body.') && !(isPlainObject(source) && Object.hasOwn(source, 'body'))) rel = rel.slice(5);
  let cur = source;
  for (const part of rel.split('.').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** Puts `answer` into `variables` under the three rules; returns the value kept under the reserved key. */
export function mergeOutput(
  variables: Record<string, unknown>,
  answer: unknown,
  opts: { reservedKey: string; flatten: boolean; mappings?: OutputMapping[] },
): Record<string, unknown> | string {
  const value = answerValue(answer);
  variables[opts.reservedKey] = value;
  if (opts.flatten && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) if (!unsafeKey(k)) variables[k] = v;
  for (const m of opts.mappings ?? []) {
    if (unsafeKey(m.to)) continue;
    const v = typeof value === 'object' ? valueAtPath(value, m.from) : undefined;
    if (v !== undefined) variables[m.to] = v; // GFlow skips a path that names nothing
  }
  return value;
}
