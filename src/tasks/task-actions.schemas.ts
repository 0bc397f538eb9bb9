import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';
import {
  jsonSchema,
  keysOf,
  NON_BLANK_PATTERN,
  nonBlankText,
  VariableValue,
  VARIABLES_RULE,
  VARIABLES_TOO_LARGE,
  variablesSizeOk,
} from '../http/input.js';
import { DecisionBody } from './tasks.schemas.js';
import { AttachmentIds, AttachmentRef } from '../attachments/attachments.schemas.js';

const text = (max: number) => z.string().max(max);
const userId = z.string().min(1).max(200);
const reason = text(4000).optional();

/** claim, unclaim, resolve: no fields (an empty object or no body). */
export const EmptyBody = z.object({}).strict().openapi('EmptyBody');

export const ReasonBody = z
  .object({ reason, comment: reason, attachments: AttachmentIds })
  .strict()
  .openapi('ReasonBody');

/** recall: `reason` is the trail comment (RecallInput). */
export const RecallBody = z.object({ reason }).strict().openapi('RecallBody');

/** approve / reject (DecisionInput): DecisionBody, plus an admin's decision on behalf of the assignee. */
export const ApprovalDecisionBody = DecisionBody.extend({
  onBehalfOf: z
    .boolean()
    .optional()
    .openapi({ description: 'workflow:admin decides for the assignee; `reason` is then required' }),
  reason: reason.openapi({ description: 'Why (required with onBehalfOf, not blank); kept in the trail detail' }),
})
  .strict()
  .refine((b) => !b.onBehalfOf || !!b.reason?.trim(), {
    message: 'reason is required when deciding on behalf of the assignee',
    path: ['reason'],
  })
  .openapi(
    'ApprovalDecisionBody',
    jsonSchema({
      if: { properties: { onBehalfOf: { const: true } }, required: ['onBehalfOf'] },
      then: { properties: { reason: { pattern: NON_BLANK_PATTERN } }, required: ['reason'] },
    }),
  );

export const ReturnBody = z
  .object({ targetActivityId: z.string().min(1).max(200), reason, comment: reason, attachments: AttachmentIds })
  .strict()
  .openapi('ReturnBody');

export const AssigneeBody = z
  .object({ assigneeUserId: userId, reason, attachments: AttachmentIds })
  .strict()
  .openapi('AssigneeBody');

export const AddSignBody = z
  .object({
    assigneeUserIds: z.array(userId).min(1).max(50),
    reason,
    position: z
      .enum(['before', 'after', 'parallel'])
      .optional()
      .openapi({ description: 'default before: they sign first' }),
  })
  .strict()
  .openapi('AddSignBody');

export const ReduceSignBody = z
  .object({ assigneeUserIds: z.array(userId).min(1).max(50), reason })
  .strict()
  .openapi('ReduceSignBody');

export const UrgeBody = z
  .object({ message: text(1000).optional() })
  .strict()
  .openapi('UrgeBody');

// Each list sent names someone, and at least one list is sent.
const ids = z.array(z.string().min(1).max(200)).min(1).max(200).optional();
export const CandidatesBody = z
  .object({ userIds: ids, roleIds: ids, deptIds: ids })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'name at least one of userIds, roleIds, deptIds' })
  .openapi('CandidatesBody', { description: 'At least one non-empty list', minProperties: 1 });

export const Candidate = z
  .object({ type: z.enum(['user', 'role', 'dept']), id: z.string(), name: z.string().nullable() })
  .openapi('Candidate');

export const TaskVariables = z.record(z.string(), z.unknown()).openapi('TaskVariables');

export const SetVariablesBody = z
  .object({
    variables: z
      .record(z.string().min(1).max(200), z.unknown())
      .refine((v) => Object.keys(v).length > 0, { message: 'at least one variable' })
      .refine(variablesSizeOk, { message: VARIABLES_TOO_LARGE })
      .openapi({
        minProperties: 1,
        ...keysOf({ minLength: 1, maxLength: 200 }),
        description: VARIABLES_RULE,
      }),
  })
  .strict()
  .openapi('SetTaskVariablesBody');

export const ValueBody = z
  .object({ value: VariableValue })
  .strict()
  .refine((b) => Object.hasOwn(b, 'value'), { message: 'value is required', path: ['value'] })
  .openapi('TaskVariableValueBody', { required: ['value'] });

export const CommentBody = z
  .object({ comment: nonBlankText(4000), attachments: AttachmentIds })
  .strict()
  .openapi('CommentBody');

export const Comment = z
  .object({
    id: z.string(),
    taskId: z.string(),
    instanceId: z.string(),
    userId: z.string(),
    comment: z.string(),
    time: IsoDate,
    attachments: z.array(AttachmentRef),
  })
  .openapi('TaskComment');

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('TaskDeleted');

export const VariableParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
  variableName: z.string().openapi({ param: { name: 'variableName', in: 'path' } }),
});
