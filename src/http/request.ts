// Typed readers of what the action routes share: the path id, an optional JSON body and the
// Idempotency-Key bound to that body.
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import { idempotency } from './idempotency.js';

/** The validated inputs an `/{id}/…` action route reads. */
type ActionContext<B> = Context<AppEnv, any, { out: { param: { id: string }; json?: B } }>;

/**
 * The path id, the body (`{}` when none was sent) and the scoped Idempotency-Key (undefined
 * without the header; 422 when the key came with another body).
 */
export async function actionInput<B extends object>(
  c: ActionContext<B>,
): Promise<{ id: string; body: B; key: string | undefined }> {
  const body = (c.req.valid('json') ?? {}) as B;
  return { id: c.req.valid('param').id, body, key: await idempotency(c, body) };
}
