import { z } from '@hono/zod-openapi';
import { IsoDate, PageQuery } from '../envelope.js';
import { TimestampQuery, VariablesInput } from '../input.js';

export const Candidates = z.object({ userIds: z.array(z.string()), roleIds: z.array(z.string()), deptIds: z.array(z.string()) }).openapi('Candidates');

export const Task = z
  .object({
    id: z.string(),
    instanceId: z.string(),
    processKey: z.string(),
    processName: z.string(),
    businessKey: z.string().nullable(),
    initiatorId: z.string(),
    activityId: z.string(),
    name: z.string(),
    kind: z.enum(['approval', 'handle', 'resubmit', 'delay']),
    assignee: z.string().nullable(),
    candidates: Candidates,
    status: z.enum(['pending', 'active', 'waiting', 'suspended', 'completed', 'cancelled']),
    result: z.string().nullable(),
    parentTaskId: z.string().nullable(),
    owner: z.string().nullable(),
    dueDate: IsoDate.nullable(),
    createTime: IsoDate,
    endTime: IsoDate.nullable(),
    comment: z.string().nullable(),
  })
  .openapi('Task');

export const TaskQuery = PageQuery.extend({
  instanceId: z.string().optional(),
  assignee: z.string().optional(),
  status: z.string().optional().openapi({ description: 'comma-separated, e.g. pending,active' }),
  processKey: z.string().optional(),
  dueBefore: TimestampQuery.optional(),
  dueAfter: TimestampQuery.optional(),
});

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
