import { z } from '@hono/zod-openapi';
import { Task } from '../read-model/shapes.js';
import { VariablesInput } from '../http/input.js';

export { Task, TaskQuery } from '../read-model/shapes.js';

export const ActionResult = z
  .object({
    task: Task,
    instance: z.object({ id: z.string(), status: z.string() }),
    removed: z.array(z.string()).optional(),
    kept: z.array(z.string()).optional(),
  })
  .openapi('TaskActionResult');

export const DecisionBody = z
  .object({ comment: z.string().max(4000).optional(), variables: VariablesInput.optional() })
  .strict()
  .openapi('DecisionBody');

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
