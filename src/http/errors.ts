import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { WorkflowUpdateFailedError, WorkflowNotFoundError, ServiceError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { NotFoundError, UniqueConstraintViolationException, ConnectionException } from '@mikro-orm/core';
import { AppError, ErrorCodes, isErrorCode } from '../errors.js';
import type { AppEnv } from './context.js';

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

export function onError(err: Error, c: Context<AppEnv>) {
  const app = toAppError(err);
  if (app) {
    // The rest of an oversized body is never read: close the connection instead of parsing it as a request.
    if (app.status === 413) c.header('Connection', 'close');
    return c.json(body(app.code, app.message, app.data), app.status as 400);
  }
  c.get('deps')?.logger.error({ err, requestId: c.get('requestId') }, 'unhandled error');
  const internal = ErrorCodes.INTERNAL;
  return c.json(body(internal.code, internal.message), 500);
}

export function notFound(c: Context<AppEnv>) {
  const e = ErrorCodes.ROUTE_NOT_FOUND;
  return c.json(body(e.code, `${e.message}: ${c.req.method} ${c.req.path}`), 404);
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
    throw new AppError('UNKNOWN_FIELD', `Unknown field(s): ${unknown.flatMap((i) => i.keys ?? []).join(', ')}`, {
      fields,
    });
  }
  const summary = fields.map((f) => (f.path ? `${f.path}: ${f.message}` : f.message)).join('; ');
  throw new AppError('VALIDATION_FAILED', summary || 'Request validation failed', { fields });
}
