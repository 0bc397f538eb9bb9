// The strings and JSON shapes the service accepts anywhere (docs/http.md "Input at the edge"):
// pure rules, used by the HTTP edge (src/http/input.ts) and by services that read input from
// elsewhere (an imported DSL file, token claims).
import { AppError } from './errors.js';

/** Deepest JSON nesting accepted in any request body (and an imported DSL file). */
export const MAX_JSON_DEPTH = 32;
/** Largest serialized (UTF-8 JSON) size of the variables of one request. */
export const MAX_VARIABLES_BYTES = 256 * 1024;
/**
 * Longest decoded path segment, query parameter name or value (characters). With the server's
 * header limit (MAX_HEADER_BYTES) it keeps every URL the document allows below a 431.
 */
export const MAX_PARAMETER_LENGTH = 1000;
/** The request line and headers together (Node's `maxHeaderSize`); beyond → 431. */
export const MAX_HEADER_BYTES = 64 * 1024;

// U+0000 (PostgreSQL text and jsonb cannot store it) and UTF-16 surrogates without their pair
// (not valid Unicode: PostgreSQL's UTF-8 encoding refuses them).
// eslint-disable-next-line no-control-regex -- U+0000 is exactly the character PostgreSQL refuses
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether the service accepts this string anywhere (ids, names, values, claims). */
export function acceptableString(s: string): boolean {
  return !UNSTORABLE.test(s);
}

export const STRING_PROBLEM = 'must not contain U+0000 or unpaired UTF-16 surrogates';

export interface InputProblem {
  path: string;
  message: string;
}

const join = (prefix: string, key: string) => (prefix ? `${prefix}.${key}` : key);

/**
 * The first problem of a parsed JSON value: a string or key the service refuses, or nesting deeper
 * than `maxDepth`. Iterative (an explicit stack), so a hostile depth cannot overflow the call stack.
 */
export function inspectJson(value: unknown, prefix = '', maxDepth = MAX_JSON_DEPTH): InputProblem | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: prefix, depth: 0 }];
  while (stack.length > 0) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (!acceptableString(v)) return { path, message: STRING_PROBLEM };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > maxDepth) return { path, message: `nested deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--)
        stack.push({ value: v[i], path: join(path, String(i)), depth: depth + 1 });
      continue;
    }
    const keys = Object.keys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i];
      if (!acceptableString(key)) return { path: join(path, JSON.stringify(key)), message: `key ${STRING_PROBLEM}` };
      stack.push({ value: (v as Record<string, unknown>)[key], path: join(path, key), depth: depth + 1 });
    }
  }
  return null;
}

/** Throws the 400 envelope naming the field, when the value has a problem. */
export function refuseUnacceptable(value: unknown, prefix = '', maxDepth = MAX_JSON_DEPTH): void {
  const problem = inspectJson(value, prefix, maxDepth);
  if (problem)
    throw new AppError('VALIDATION_FAILED', `${problem.path || 'body'}: ${problem.message}`, { fields: [problem] });
}
