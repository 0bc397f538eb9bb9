// The Idempotency-Key header (docs/contract.md, docs/http.md): read and validated in one place, scoped to the
// caller and the request, and bound to the first request body it came with.
import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { AppError } from '../errors.js';
import type { AppEnv } from './context.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const MAX_LENGTH = 255;
const KEY_RULE = `${IDEMPOTENCY_HEADER}: at most ${MAX_LENGTH} printable ASCII characters`;

const keySchema = z
  .string()
  .min(1, KEY_RULE)
  .max(MAX_LENGTH, KEY_RULE)
  .regex(/^[\x20-\x7e]+$/, KEY_RULE);

/**
 * The header as the routes that honour it declare it (`request.headers`): documented in the
 * OpenAPI and validated before the handler runs. Hono hands header names over in lower case.
 */
export const IdempotencyHeaders = z.object({
  'idempotency-key': keySchema.optional().openapi({
    description: `At most ${MAX_LENGTH} printable ASCII characters. Scoped to the caller and the request (tenant, user, method, path): a retry with the same body answers like the first request and has no second effect; the same key with another body answers 422 IDEMPOTENCY_KEY_REUSED.`,
    example: 'c0ffee-approve-1',
  }),
});

/** The validated header, or undefined when the request has none; 400 VALIDATION_FAILED otherwise. */
export function readIdempotencyKey(c: Context<AppEnv>): string | undefined {
  const raw = c.req.header(IDEMPOTENCY_HEADER);
  if (raw === undefined) return undefined;
  const parsed = keySchema.safeParse(raw);
  if (!parsed.success)
    throw new AppError('VALIDATION_FAILED', KEY_RULE, { fields: [{ path: IDEMPOTENCY_HEADER, message: KEY_RULE }] });
  return parsed.data;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** JSON with object keys sorted, so the same body sent with another key order hashes alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The scope of a key: tenant, user, method, path and the key itself (NUL-separated, so no field bleeds into another). */
export function idempotencyScope(parts: {
  tenantId: string;
  userId: string;
  method: string;
  path: string;
  key: string;
}): string {
  return sha256([parts.tenantId, parts.userId, parts.method.toUpperCase(), parts.path, parts.key].join('\0'));
}

export const bodyHash = (body: unknown) => sha256(canonical(body ?? {}));

// Rows older than this are pruned now and then; Temporal and the workflow's carried ids
// de-duplicate within a much shorter horizon anyway.
const RETENTION_DAYS = 30;

/**
 * For a request that carries the header: binds the key's scope to this body in PostgreSQL
 * (insert on conflict, so every replica and a retry after a crash see the same binding) and
 * answers the scoped id the Update is sent with. Another body under the same scope → 422.
 * Without the header: undefined (the server picks a fresh Update id).
 */
export async function idempotency(c: Context<AppEnv>, body: unknown): Promise<string | undefined> {
  const key = readIdempotencyKey(c);
  if (key === undefined) return undefined;
  const principal = c.get('principal');
  const scope = idempotencyScope({
    tenantId: principal.tenantId,
    userId: principal.userId,
    method: c.req.method,
    path: c.req.path,
    key,
  });
  const hash = bodyHash(body);
  const em = c.get('deps').orm.em.fork();
  // Two statements: a conflicting row committed by a concurrent request is visible only to a
  // statement that starts after it (READ COMMITTED snapshots are per statement).
  let rows = await em.execute<Array<{ body_hash: string }>>(
    `insert into idempotency_keys (scope, body_hash) values (?, ?) on conflict (scope) do nothing returning body_hash`,
    [scope, hash],
  );
  if (!rows.length) rows = await em.execute(`select body_hash from idempotency_keys where scope = ?`, [scope]);
  if (rows[0]?.body_hash !== hash) {
    throw new AppError(
      'IDEMPOTENCY_KEY_REUSED',
      `${IDEMPOTENCY_HEADER} was already used by this caller on ${c.req.method} ${c.req.path} with another body`,
    );
  }
  if (Math.random() < 0.01) {
    await em
      .execute(`delete from idempotency_keys where created_at < now() - (? * interval '1 day')`, [RETENTION_DAYS])
      .catch(() => undefined);
  }
  return scope;
}

/**
 * The id of the resource a keyed create makes (`POST /process-instances/start`): a UUID (version 8,
 * custom) derived from the key's scope, so a retry with the same key finds what the first request
 * created instead of creating another, on any replica and after a crash.
 */
export function idempotentId(scope: string, purpose: string): string {
  const h = sha256(`${purpose}\0${scope}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
