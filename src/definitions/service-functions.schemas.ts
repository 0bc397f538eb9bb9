import { z } from '@hono/zod-openapi';
import { httpUrl, IsoDate } from '../shapes.js';
import { jsonSchema } from '../http/input.js';

/** Dotted identifiers, as embedding applications name their functions (`RiskService.manualReview`). */
const FunctionName = z
  .string()
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_$-]*(\.[A-Za-z_][A-Za-z0-9_$-]*)*$/, {
    message: 'letters, digits, _ $ - in dot-separated parts, each starting with a letter or _',
  })
  .openapi({ example: 'NotificationService.sendApprovalNotification' });

export const NameParam = z.object({
  name: FunctionName.openapi({ param: { name: 'name', in: 'path' } }),
});

export const RetryPolicy = z
  .object({
    maximumAttempts: z.number().int().min(1).max(100).default(3).openapi({ description: 'Attempts in all, ≥ 1' }),
    initialIntervalMs: z.number().int().min(1).max(3_600_000).default(1000),
    backoffCoefficient: z.number().min(1).max(10).default(2),
    maximumIntervalMs: z.number().int().min(1).max(86_400_000).nullable().default(null),
  })
  .strict()
  .openapi('ServiceFunctionRetryPolicy');

const JsonSchema = z.record(z.string(), z.unknown()).nullable().optional().openapi({
  description: 'JSON Schema of the param / the answer, for documentation',
});

const WEBHOOK_MAX_TIMEOUT_MS = 120_000;

const fields = {
  kind: z.enum(['activity', 'webhook']),
  taskQueue: z.string().min(1).max(200).optional().openapi({ description: 'kind activity: the task queue' }),
  activityType: z.string().min(1).max(200).optional().openapi({ description: 'kind activity: the activity type' }),
  url: httpUrl('the receiver authenticates each call by its x-gflow-signature header, made with `secret`')
    .optional()
    .openapi({
      description:
        'kind webhook: where the call is POSTed (http or https). No `user:password@` (400); a secret query parameter (`token`, `key`, `sig`, …) is stored and used, answered as `***`, and the answered URL sent back keeps it (docs/http.md "Credentials in URLs")',
    }),
  secret: z
    .string()
    .min(16)
    .max(500)
    .optional()
    .openapi({ description: 'kind webhook: the HMAC-SHA256 signing key. Write-only: never answered' }),
  timeoutMs: z
    .number()
    .int()
    .min(100)
    .max(86_400_000)
    .default(30_000)
    .openapi({ description: `Per attempt; a webhook at most ${WEBHOOK_MAX_TIMEOUT_MS} ms` }),
  retry: RetryPolicy.default({
    maximumAttempts: 3,
    initialIntervalMs: 1000,
    backoffCoefficient: 2,
    maximumIntervalMs: null,
  }),
  description: z.string().max(2000).nullable().optional(),
  inputSchema: JsonSchema,
  outputSchema: JsonSchema,
};

type Body = {
  kind: string;
  taskQueue?: string;
  activityType?: string;
  url?: string;
  secret?: string;
  timeoutMs: number;
};
/** Each kind's fields; a created webhook also brings its secret (an update keeps the stored one). */
const byKind = (created: boolean) => (v: Body, ctx: z.RefinementCtx) => {
  const need = (field: keyof Body, why: string) => {
    if (v[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `required for ${why}` });
  };
  if (v.kind === 'activity') {
    need('taskQueue', 'an activity');
    need('activityType', 'an activity');
  } else {
    need('url', 'a webhook');
    if (created) need('secret', 'a webhook (it signs its calls)');
    if (v.timeoutMs > WEBHOOK_MAX_TIMEOUT_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['timeoutMs'],
        message: `a webhook waits at most ${WEBHOOK_MAX_TIMEOUT_MS} ms`,
      });
  }
};

/** What `byKind` checks, as JSON Schema: each kind's required fields, a webhook's shorter timeout. */
const kinds = (webhookNeeds: string[]) =>
  jsonSchema({
    oneOf: [
      { properties: { kind: { const: 'activity' } }, required: ['taskQueue', 'activityType'] },
      {
        properties: { kind: { const: 'webhook' }, timeoutMs: { maximum: WEBHOOK_MAX_TIMEOUT_MS } },
        required: webhookNeeds,
      },
    ],
  });

export const FunctionBody = z
  .object({ name: FunctionName, ...fields })
  .strict()
  .superRefine(byKind(true))
  .openapi('ServiceFunctionCreate', {
    description: 'kind activity: taskQueue and activityType; kind webhook: url and secret, timeoutMs at most 120000',
    ...kinds(['url', 'secret']),
  });

export const FunctionUpdateBody = z
  .object(fields)
  .strict()
  .superRefine(byKind(false))
  .openapi('ServiceFunctionUpdate', {
    description:
      'The whole entry; a webhook keeps its secret when none is sent (an entry that has none to keep — an activity turned webhook — answers 409 without one)',
    ...kinds(['url']),
  });

export const ServiceFunction = z
  .object({
    id: z.string().nullable().openapi({ description: 'null for a built-in' }),
    name: z.string(),
    kind: z.enum(['builtin', 'activity', 'webhook']),
    builtin: z.boolean().openapi({ description: 'Built-ins are read-only' }),
    taskQueue: z.string().nullable(),
    activityType: z.string().nullable(),
    url: z.string().nullable().openapi({
      description: 'As stored, with the values of secret query parameters (and any `user:password@`) as `***`',
    }),
    hasSecret: z.boolean().openapi({ description: 'A webhook always has one; the secret itself is never answered' }),
    timeoutMs: z.number().int(),
    // A union, not .nullable(): that would make the request's RetryPolicy component nullable too.
    retry: z.union([RetryPolicy, z.null()]),
    description: z.string().nullable(),
    inputSchema: z.record(z.string(), z.unknown()).nullable(),
    outputSchema: z.record(z.string(), z.unknown()).nullable(),
    createdAt: IsoDate.nullable(),
    updatedAt: IsoDate.nullable(),
  })
  .openapi('ServiceFunction');
