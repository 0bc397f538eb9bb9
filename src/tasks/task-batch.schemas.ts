import { z } from '@hono/zod-openapi';

/** At most this many tasks in one batch decision (docs/task-actions.md, "Batch decisions"). */
export const MAX_BATCH_TASKS = 100;

export const BatchDecisionBody = z
  .object({
    taskIds: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(MAX_BATCH_TASKS)
      .refine((ids) => new Set(ids).size === ids.length, { message: 'taskIds: each task at most once' })
      .openapi({ description: `1 to ${MAX_BATCH_TASKS} task ids, each at most once`, uniqueItems: true }),
    comment: z.string().max(4000).optional(),
  })
  .strict()
  .openapi('BatchDecisionBody');

const Status = z.object({ id: z.string(), status: z.string() });

export const BatchDecisionItem = z
  .object({
    taskId: z.string(),
    ok: z.boolean(),
    code: z.number().int().openapi({ description: '0 when decided, else the error code of the refusal' }),
    message: z.string(),
    task: Status.nullable().openapi({ description: 'The task after the decision (null when refused)' }),
    instance: Status.nullable().openapi({ description: 'Its instance after the decision (null when refused)' }),
  })
  .openapi('BatchDecisionItem');

export const BatchDecisionResult = z
  .object({
    results: z.array(BatchDecisionItem).openapi({ description: 'One entry per task id, in the order sent' }),
    succeeded: z.number().int(),
    failed: z.number().int(),
  })
  .openapi('BatchDecisionResult');
