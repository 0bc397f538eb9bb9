// Input at the edge (docs/http.md "Input at the edge"): the one place that decides
// which client strings and JSON shapes the service accepts, so nothing PostgreSQL or Temporal
// would choke on gets past the HTTP layer.
import type { Context, MiddlewareHandler } from 'hono';
import { z } from '@hono/zod-openapi';
import { matchedRoutes } from 'hono/route';
import { AppError } from '../errors.js';
import type { AppEnv } from './context.js';

/** Deepest JSON nesting accepted in any request body (and an imported DSL file). */
export const MAX_JSON_DEPTH = 32;
/** Largest serialized (UTF-8 JSON) size of the variables of one request. */
export const MAX_VARIABLES_BYTES = 256 * 1024;

// U+0000 (PostgreSQL text and jsonb cannot store it) and UTF-16 surrogates without their pair
// (not valid Unicode: PostgreSQL's UTF-8 encoding refuses them).
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether the service accepts this string anywhere (ids, names, values, claims). */
export function acceptableString(s: string): boolean {
  return !UNSTORABLE.test(s);
}

const STRING_PROBLEM = 'must not contain U+0000 or unpaired UTF-16 surrogates';

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
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: join(path, String(i)), depth: depth + 1 });
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
  if (problem) throw new AppError('VALIDATION_FAILED', `${problem.path || 'body'}: ${problem.message}`, { fields: [problem] });
}

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // not valid percent-encoding: the raw text is plain ASCII, so storable
  }
}

/** Path problems, named after the route's parameters (`path.id`) when a route matched. */
function pathProblem(c: Context<AppEnv>): InputProblem | null {
  const segments = new URL(c.req.url).pathname.split('/');
  // The handler's route (middleware are registered for ALL methods with `*` paths).
  const route = matchedRoutes(c).findLast((r) => r.method !== 'ALL' && !r.path.endsWith('*'));
  const pattern = route ? route.path.split('/') : [];
  for (let i = 0; i < segments.length; i++) {
    if (acceptableString(decodeSegment(segments[i]))) continue;
    const param = pattern[i]?.startsWith(':') ? pattern[i].slice(1).replace(/\{.*$/, '') : null;
    return { path: param ? `path.${param}` : 'path', message: STRING_PROBLEM };
  }
  return null;
}

/**
 * Refuses, before authentication and any handler, a request whose decoded path segments, query
 * parameters or JSON body carry strings the service does not accept or JSON nested too deep.
 * The parsed body is cached by Hono, so the validators reuse it.
 */
export const edgeInput: MiddlewareHandler<AppEnv> = async (c, next) => {
  const fail = (problem: InputProblem) => {
    throw new AppError('VALIDATION_FAILED', `${problem.path}: ${problem.message}`, { fields: [problem] });
  };
  const path = pathProblem(c);
  if (path) fail(path);
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (!acceptableString(key)) fail({ path: `query.${JSON.stringify(key)}`, message: `name ${STRING_PROBLEM}` });
    for (const v of values) if (!acceptableString(v)) fail({ path: `query.${key}`, message: STRING_PROBLEM });
  }
  const type = c.req.header('Content-Type')?.split(';')[0].trim() ?? '';
  if (JSON_MEDIA.test(type) && c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    let body: unknown;
    let parsed = false;
    try {
      body = await c.req.json();
      parsed = true;
    } catch {
      // Malformed or empty: the route's validator answers that (MALFORMED_JSON).
    }
    if (parsed) {
      const problem = inspectJson(body);
      if (problem) fail({ path: problem.path || 'body', message: problem.message });
    }
  }
  await next();
};

// ---------- 405 ----------

interface DeclaredRoute {
  pattern: RegExp;
  method: string;
}

function compile(path: string): RegExp {
  const source = path
    .split('/')
    .map((seg) => (seg === '*' ? '.*' : seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * A path that exists but not for this method answers 405 with `Allow` (before authentication).
 * The declared routes are read from the app once, on the first request (all are registered by then).
 */
export function methodGuard(routes: () => ReadonlyArray<{ method: string; path: string }>): MiddlewareHandler<AppEnv> {
  let declared: DeclaredRoute[] | null = null;
  return async (c, next) => {
    declared ??= routes()
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({ pattern: compile(r.path), method: r.method.toUpperCase() }));
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    const matching = declared.filter((r) => r.pattern.test(c.req.path));
    if (matching.length > 0 && !matching.some((r) => r.method === method)) {
      const allow = new Set(matching.map((r) => r.method));
      if (allow.has('GET')) allow.add('HEAD');
      const list = [...allow].sort().join(', ');
      c.header('Allow', list);
      throw new AppError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed on ${c.req.path}; allowed: ${list}`, { allow: [...allow].sort() });
    }
    await next();
  };
}

// ---------- shared schemas ----------

/** A timestamp query parameter: ISO-8601 with offset, parsed once, handed on as a UTC ISO string. */
export const TimestampQuery = z
  .string()
  .datetime({ offset: true })
  .transform((s, ctx) => {
    const d = new Date(s);
    const year = d.getUTCFullYear();
    // PostgreSQL refuses offsets beyond ±15:59, which Date normalises; years are kept to 0001–9999.
    if (Number.isNaN(d.getTime()) || year < 1 || year > 9999) {
      ctx.addIssue({ code: 'custom', message: 'not a timestamp between 0001 and 9999 (UTC)' });
      return z.NEVER;
    }
    return d.toISOString();
  })
  .openapi({ type: 'string', format: 'date-time', description: 'ISO-8601 with offset; years 0001–9999 in UTC' });

/** The serialized size check of client-sent variables (depth is already bounded by edgeInput). */
export function variablesSizeOk(value: unknown): boolean {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') <= MAX_VARIABLES_BYTES;
}

export const VARIABLES_TOO_LARGE = `larger than ${MAX_VARIABLES_BYTES / 1024} KiB serialized`;

/** Variables sent by a client: an object of name → value, bounded in size. */
export const VariablesInput = z
  .record(z.string(), z.unknown())
  .refine(variablesSizeOk, { message: VARIABLES_TOO_LARGE })
  .openapi('VariablesInput');
