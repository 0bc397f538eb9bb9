import { z } from '@hono/zod-openapi';
import { ProcessKeyQuery, Task } from '../read-model/shapes.js';
import { VariablesInput } from '../http/input.js';
import { TimestampQuery } from '../shapes.js';
import { AttachmentIds } from '../attachments/attachments.schemas.js';

export { Task, TaskQuery } from '../read-model/shapes.js';

/** My to-do and done lists: by process, business key text, initiator and due date. */
export const MyTasksQuery = ProcessKeyQuery.extend({
  q: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: 'Search text: a case-insensitive part of the business key' }),
  initiator: z.string().max(200).optional().openapi({ description: "the instance initiator's user id" }),
  dueBefore: TimestampQuery.optional().openapi({
    description: 'due at or before (tasks without a due date are left out)',
  }),
  dueAfter: TimestampQuery.optional().openapi({ description: 'due at or after' }),
});
export type MyTasksQuery = z.infer<typeof MyTasksQuery>;

export const ActionResult = z
  .object({
    task: Task,
    instance: z.object({ id: z.string(), status: z.string() }),
    removed: z.array(z.string()).optional(),
    kept: z.array(z.string()).optional(),
  })
  .openapi('TaskActionResult');

export const DecisionBody = z
  .object({
    comment: z.string().max(4000).optional(),
    variables: VariablesInput.optional(),
    attachments: AttachmentIds,
  })
  .strict()
  .openapi('DecisionBody');

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
