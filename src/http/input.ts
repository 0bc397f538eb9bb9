// Input at the edge (docs/http.md "Input at the edge"): the one place that decides
// which client strings and JSON shapes the service accepts, so nothing PostgreSQL or Temporal
// would choke on gets past the HTTP layer.
import type { Context, MiddlewareHandler } from 'hono';
import { z } from '@hono/zod-openapi';
import { matchedRoutes } from 'hono/route';
import { AppError } from '../errors.js';
import type { AppEnv } from './context.js';
import { STORABLE_STRING } from './openapi.js';
import {
  acceptableString,
  inspectJson,
  MAX_JSON_DEPTH,
  MAX_PARAMETER_LENGTH,
  MAX_VARIABLES_BYTES,
  STRING_PROBLEM,
  type InputProblem,
} from '../input-rules.js';

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
    const segment = decodeSegment(segments[i]);
    const problem = !acceptableString(segment) ? STRING_PROBLEM : tooLong(segment);
    if (!problem) continue;
    const param = pattern[i]?.startsWith(':') ? pattern[i].slice(1).replace(/\{.*$/, '') : null;
    return { path: param ? `path.${param}` : 'path', message: problem };
  }
  return null;
}

/** Path segments and query names and values: at most MAX_PARAMETER_LENGTH characters (code points). */
function tooLong(s: string): string | null {
  return s.length > MAX_PARAMETER_LENGTH && [...s].length > MAX_PARAMETER_LENGTH
    ? `longer than ${MAX_PARAMETER_LENGTH} characters`
    : null;
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
    const longName = tooLong(key);
    if (longName) fail({ path: 'query', message: `a parameter name ${longName}` });
    for (const v of values) {
      const problem = !acceptableString(v) ? STRING_PROBLEM : tooLong(v);
      if (problem) fail({ path: `query.${key}`, message: problem });
    }
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

// ---------- dot segments ----------

/** A `.` or `..` segment, also percent-encoded (URL parsing treats `%2e` as a dot). */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** Whether a request target's path (origin or absolute form) has a `.` or `..` segment. */
export function hasDotSegment(target: string): boolean {
  const path = target.replace(/^[a-z][a-z\d+.-]*:\/\/[^/]*/i, '').split(/[?#]/, 1)[0]!;
  return path.split('/').some((segment) => DOT_SEGMENT.test(segment));
}

/**
 * Refuses a request whose target, as sent, has a `.` or `..` path segment. URL parsing removes
 * them before routing, so `POST /tasks/./delegate` would reach `/tasks/delegate` — another
 * resource, and a 405 or another route's answer. No path parameter may be `.` or `..`, and
 * browsers and HTTP clients remove such segments before sending: only a hand-made request has them.
 */
export const dotSegments: MiddlewareHandler<AppEnv> = async (c, next) => {
  const target: unknown = (c.env as { incoming?: { url?: unknown } } | undefined)?.incoming?.url;
  if (typeof target === 'string' && hasDotSegment(target)) {
    const message = 'a path segment may not be . or .. (URL normalisation removes it, naming another resource)';
    throw new AppError('VALIDATION_FAILED', `path: ${message}`, { fields: [{ path: 'path', message }] });
  }
  await next();
};

// ---------- 405 ----------

interface DeclaredRoute {
  pattern: RegExp;
  method: string;
  /** Parameter segments: a literal segment (`/deploy`) is more specific than `/{id}`. */
  params: number;
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
 * `Allow` names the methods of the most specific routes that match (those of `/deploy`, not of
 * `/{id}`), as the OpenAPI document lists them. The declared routes are read from the app once,
 * on the first request (all are registered by then).
 */
export function methodGuard(routes: () => ReadonlyArray<{ method: string; path: string }>): MiddlewareHandler<AppEnv> {
  let declared: DeclaredRoute[] | null = null;
  return async (c, next) => {
    declared ??= routes()
      .filter((r) => r.method !== 'ALL')
      .map((r) => ({
        pattern: compile(r.path),
        method: r.method.toUpperCase(),
        params: r.path.split('/').filter((seg) => seg === '*' || seg.startsWith(':')).length,
      }));
    // The router found this method's handler: the request is not a 405, and the ~200 route
    // patterns need not run (they did on every request: about 2 % of the server's CPU).
    if (matchedRoutes(c).some((r) => r.method !== 'ALL' && !r.path.endsWith('*'))) return next();
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    const matching = declared.filter((r) => r.pattern.test(c.req.path));
    // Any matching route with this method handles the request (the router picks it).
    if (matching.length > 0 && !matching.some((r) => r.method === method)) {
      const specific = Math.min(...matching.map((r) => r.params));
      const allow = new Set(matching.filter((r) => r.params === specific).map((r) => r.method));
      if (allow.has('GET')) allow.add('HEAD');
      const list = [...allow].sort().join(', ');
      c.header('Allow', list);
      throw new AppError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed on ${c.req.path}; allowed: ${list}`, {
        allow: [...allow].sort(),
      });
    }
    await next();
  };
}

// ---------- shared schemas ----------

/** The serialized size check of client-sent variables (depth is already bounded by edgeInput). */
export function variablesSizeOk(value: unknown): boolean {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') <= MAX_VARIABLES_BYTES;
}

export const VARIABLES_TOO_LARGE = `larger than ${MAX_VARIABLES_BYTES / 1024} KiB serialized`;

/** What the document says about client-sent variables (JSON Schema cannot bound a serialized size or nested strings). */
export const VARIABLES_RULE = `Variables: name → any JSON value. Serialised as UTF-8 JSON at most ${MAX_VARIABLES_BYTES} bytes (${MAX_VARIABLES_BYTES / 1024} KiB) → else 400; no string or key inside may contain U+0000 or a lone surrogate; nested at most ${MAX_JSON_DEPTH} levels counting from the body. A process with a form checks the values against it (400 naming each field).`;

/** Variables sent by a client: an object of name → value, bounded in size. */
export const VariablesInput = z
  .record(z.string(), z.unknown())
  .refine(variablesSizeOk, { message: VARIABLES_TOO_LARGE })
  .openapi('VariablesInput', { description: VARIABLES_RULE });

/** One variable's value (`PUT …/variables/{name}`): any JSON value, `null` included, bounded like variables. */
export const VariableValue = z
  .unknown()
  .refine(variablesSizeOk, { message: VARIABLES_TOO_LARGE })
  .openapi({
    description: `Any JSON value (null included). Serialised at most ${MAX_VARIABLES_BYTES / 1024} KiB; no U+0000 or lone surrogate in any string or key; nested at most ${MAX_JSON_DEPTH} levels counting from the body.`,
  });

/**
 * Not blank: some character that String.prototype.trim keeps (and no U+0000), as JSON Schema
 * states it — the whitespace of ECMAScript spelled out, since `\s` differs between regex engines.
 */
export const NON_BLANK_PATTERN =
  '^[^\\u0000]*[^\\u0000\\u0009-\\u000d \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff][^\\u0000]*$';
const NON_BLANK = new RegExp(NON_BLANK_PATTERN);

/** Free text that must say something: at most `max` characters as sent, stored trimmed. */
export const nonBlankText = (max: number) =>
  z
    .string()
    .max(max)
    .regex(NON_BLANK, 'must not be blank')
    .transform((s) => s.trim())
    .openapi({ type: 'string', maxLength: max, pattern: NON_BLANK_PATTERN });

/** The keys of a record as the document states them (zod's record keys do not reach it). */
export const keysOf = (key: { minLength?: number; maxLength?: number }) => ({
  propertyNames: { ...key, pattern: STORABLE_STRING },
});

/** JSON Schema keywords the metadata types of zod-to-openapi do not list (`if`/`then`, `not`, …). */
export const jsonSchema = (keywords: Record<string, unknown>) => keywords as Record<never, never>;
