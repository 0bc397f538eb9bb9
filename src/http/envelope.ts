import { z } from '@hono/zod-openapi';

/** `{ code: 0, data, message: 'ok' }` — the success envelope. */
export function ok<T>(data: T) {
  return { code: 0 as const, data, message: 'ok' };
}

export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal(0), data, message: z.string() });
}

export const ErrorEnvelope = z
  .object({ code: z.number().int(), data: z.unknown().nullable(), message: z.string() })
  .openapi('ErrorEnvelope');

export function page<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorEnvelope } },
});

/** The error responses every authenticated route can give. */
export const commonErrors = {
  400: errorResponse('Malformed input or unknown field'),
  401: errorResponse('No or bad token'),
  403: errorResponse('Permission missing'),
  404: errorResponse('Not found (also for objects of another tenant)'),
  409: errorResponse('The state does not allow the action'),
  413: errorResponse('Body too large'),
  415: errorResponse('Body is not application/json'),
  422: errorResponse(
    'DSL or condition does not validate, an Idempotency-Key reused with another body, a notification channel refuses the setting, or a network allowlist entry names a forbidden address',
  ),
  429: errorResponse('Rate limited'),
  503: errorResponse('A dependency is unavailable'),
};

/**
 * The headers of a rate-limited endpoint (hono-rate-limiter, IETF draft-7 names): on every answer
 * the limiter counted, and `Retry-After` on a 429.
 */
export const rateLimitHeaders = {
  'RateLimit-Policy': {
    description: '`<limit>;w=<window seconds>`: the budget of failed requests per window',
    schema: { type: 'string' as const },
  },
  RateLimit: {
    description: '`limit=<n>, remaining=<n>, reset=<seconds>`: what is left of the budget in this window',
    schema: { type: 'string' as const },
  },
};

/** A 429 of a rate-limited endpoint, with its headers. */
export function rateLimited(description: string) {
  return {
    ...errorResponse(description),
    headers: {
      ...rateLimitHeaders,
      'Retry-After': {
        description: 'Seconds until the window resets',
        schema: { type: 'integer' as const },
      },
    },
  };
}

/** An error response of a rate-limited endpoint (its budget headers included). */
export function countedError(description: string) {
  return { ...errorResponse(description), headers: rateLimitHeaders };
}

export function json<T extends z.ZodType>(schema: T, description = 'OK') {
  return { description, content: { 'application/json': { schema: envelope(schema) } } };
}

export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { 'application/json': { schema } } };
}

/** A JSON body a route accepts but does not require: an absent body reads as `{}` (see `endpoint` in router.ts). */
export function optionalBody<T extends z.ZodType>(schema: T) {
  return { required: false, content: { 'application/json': { schema } } };
}
