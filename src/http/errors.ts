import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { WorkflowUpdateFailedError, WorkflowNotFoundError, ServiceError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { NotFoundError, UniqueConstraintViolationException, ConnectionException } from '@mikro-orm/core';
import zodZhCN from 'zod/v4/locales/zh-CN.js';
import { problemMessageIn } from '../../dsl/problems.zh-CN.js';
import { AppError, ErrorCodes, isErrorCode, type ErrorCode } from '../errors.js';
import { zhCNErrors } from '../errors.zh-CN.js';
import type { AppEnv } from './context.js';
import { requestLocale, type ApiLocale } from './locale.js';

function body(code: number, message: string, data: unknown = null) {
  return { code, data, message };
}

// Connection refused/reset, and PostgreSQL's "shutting down" / connection-exception classes.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** PostgreSQL could not be reached or went away under the request. */
function databaseUnavailable(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e instanceof ConnectionException) return true;
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    // Over a Unix socket a stopped server is a missing socket file.
    if (e.code === 'ENOENT' && e.syscall === 'connect') return true;
    if (
      typeof e.message === 'string' &&
      /Connection terminated|connect ECONNREFUSED|server closed the connection/i.test(e.message)
    )
      return true;
  }
  return false;
}

/** Turns any thrown error into an AppError (or null when it is a bug). */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof HTTPException) {
    if (err.status === 413) return new AppError('PAYLOAD_TOO_LARGE');
    if (err.status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', err.message || undefined);
    if (err.message.startsWith('Malformed JSON')) return new AppError('MALFORMED_JSON');
    if (err.status === 400) return new AppError('BAD_REQUEST', err.message);
    if (err.status === 401) return new AppError('UNAUTHENTICATED', err.message);
  }
  if (err instanceof WorkflowUpdateFailedError) {
    const cause = err.cause;
    if (cause instanceof ApplicationFailure && isErrorCode(cause.type)) {
      return new AppError(cause.type, cause.message, (cause.details?.[0] as unknown) ?? null);
    }
  }
  if (err instanceof ApplicationFailure && isErrorCode(err.type)) return new AppError(err.type, err.message);
  if (err instanceof WorkflowNotFoundError) return new AppError('NOT_FOUND', 'The instance is not running');
  if (err instanceof NotFoundError) return new AppError('NOT_FOUND');
  if (err instanceof UniqueConstraintViolationException) return new AppError('ALREADY_EXISTS');
  if (databaseUnavailable(err)) return new AppError('UNAVAILABLE', 'PostgreSQL is unavailable');
  if (err instanceof ServiceError) return new AppError('UNAVAILABLE', 'Temporal is unavailable');
  return null;
}

// ---------- the caller's language (docs/http.md "Languages") ----------

/** The schema issues behind a validation error, kept aside so their words can be said in another language. */
const issuesOf = new WeakMap<AppError, ZodIssueLike[]>();

const zodZh = zodZhCN().localeError as (issue: Record<string, unknown>) => string | { message: string } | undefined;

/** A schema issue in Chinese (zod's own zh-CN words); the value received is not known here, so it is not named. */
function issueInChinese(issue: ZodIssueLike): string {
  try {
    const words = zodZh(issue as unknown as Record<string, unknown>);
    const text = typeof words === 'string' ? words : words?.message;
    return text ? text.replace(/，实际接收 .*$/, '') : issue.message;
  } catch {
    return issue.message;
  }
}

/** The sentence of `type` in `locale`: the catalogue's (errors.ts, errors.zh-CN.ts). */
export function sentenceOf(type: ErrorCode, locale: ApiLocale): string {
  return locale === 'zh-CN' ? zhCNErrors[type] : ErrorCodes[type].message;
}

/**
 * The envelope's words in the caller's language. `code` and the data's machine-readable fields stay
 * as they are. The message is the catalogue sentence of the error's type; where a service added
 * specifics in English to that sentence, the sentence is replaced and the specifics follow it
 * (`流程定义校验未通过：…`); specifics written without the sentence are kept after it. Field errors
 * and validation problems are said again from their codes.
 */
export function localize(app: AppError, locale: ApiLocale): { message: string; data: unknown } {
  if (locale === 'en') return { message: app.message, data: app.data };
  const sentence = sentenceOf(app.type, locale);
  const english = ErrorCodes[app.type].message;
  let data = app.data;
  let message: string;
  const d = (data && typeof data === 'object' ? data : {}) as Record<string, unknown>;
  if (Array.isArray(d.problems)) {
    const problems = (d.problems as { nodeId?: string | null; message: string }[]).map((p) => ({
      ...p,
      message: problemMessageIn(locale, p),
    }));
    data = { ...d, problems };
    const first = problems[0];
    const where = first?.nodeId ? `节点 ${first.nodeId}：` : '';
    const more = problems.length > 1 ? `（另有 ${problems.length - 1} 个问题）` : '';
    message = first ? `${sentence}：${where}${first.message}${more}` : sentence;
  } else if (Array.isArray(d.fields) && issuesOf.has(app)) {
    const issues = issuesOf.get(app)!;
    const fields = (d.fields as { path: string; message: string }[]).map((f, i) => ({
      ...f,
      message: issues[i] ? issueInChinese(issues[i]) : f.message,
    }));
    data = { ...d, fields };
    const summary = fields.map((f) => (f.path ? `${f.path}：${f.message}` : f.message)).join('；');
    message = summary ? `${sentence}：${summary}` : sentence;
  } else if (app.message === english) {
    message = sentence;
  } else if (app.message.startsWith(english)) {
    message = sentence + app.message.slice(english.length).replace(/^:\s*/, '：');
  } else {
    message = `${sentence}：${app.message}`;
  }
  return { message, data };
}

export function onError(err: Error, c: Context<AppEnv>) {
  const locale = requestLocale(c);
  const app = toAppError(err);
  if (app) {
    // The rest of an oversized body is never read: close the connection instead of parsing it as a request.
    if (app.status === 413) c.header('Connection', 'close');
    const { message, data } = localize(app, locale);
    c.header('Content-Language', locale);
    c.header('Vary', 'Accept-Language', { append: true });
    return c.json(body(app.code, message, data), app.status as 400);
  }
  c.get('deps')?.logger.error({ err, requestId: c.get('requestId') }, 'unhandled error');
  const internal = ErrorCodes.INTERNAL;
  return c.json(body(internal.code, sentenceOf('INTERNAL', locale)), 500);
}

export function notFound(c: Context<AppEnv>) {
  const e = ErrorCodes.ROUTE_NOT_FOUND;
  const sentence = sentenceOf('ROUTE_NOT_FOUND', requestLocale(c));
  return c.json(body(e.code, `${sentence}: ${c.req.method} ${c.req.path}`), 404);
}

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** The validation hook of every route: unknown fields and bad values become 400 envelopes. */
export function validationHook(result: { success: boolean; error?: { issues: ZodIssueLike[] }; target?: string }) {
  if (result.success) return;
  const issues = result.error?.issues ?? [];
  // Query and path parameters are named as such (`query.startedAfter`, `path.id`); body fields plainly.
  const prefix = result.target === 'query' ? 'query' : result.target === 'param' ? 'path' : '';
  const fields = issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join('.'),
    message: i.message,
    ...(i.keys ? { keys: i.keys } : {}),
  }));
  const unknown = issues.filter((i) => i.code === 'unrecognized_keys');
  if (unknown.length && result.target !== 'query') {
    const error = new AppError(
      'UNKNOWN_FIELD',
      `Unknown field(s): ${unknown.flatMap((i) => i.keys ?? []).join(', ')}`,
      { fields },
    );
    issuesOf.set(error, issues);
    throw error;
  }
  const summary = fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ');
  const error = new AppError('VALIDATION_FAILED', summary || 'Request validation failed', { fields });
  issuesOf.set(error, issues);
  throw error;
}
