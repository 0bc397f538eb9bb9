import { z } from '@hono/zod-openapi';
import { IsoDate } from '../../shapes.js';
import { VARIABLES_TOO_LARGE, variablesSizeOk } from '../input.js';
import { DecisionBody } from './tasks.schemas.js';

const text = (max: number) => z.string().max(max);
const userId = z.string().min(1).max(200);
const reason = text(4000).optional();

/** claim, unclaim, resolve: no fields (an empty object or no body). */
export const EmptyBody = z.object({}).strict().openapi('EmptyBody');

export const ReasonBody = z.object({ reason, comment: reason }).strict().openapi('ReasonBody');

/** recall: `reason` is the trail comment (RecallInput). */
export const RecallBody = z.object({ reason }).strict().openapi('RecallBody');

/** approve / reject (DecisionInput): DecisionBody, plus an admin's decision on behalf of the assignee. */
export const ApprovalDecisionBody = DecisionBody.extend({
  onBehalfOf: z
    .boolean()
    .optional()
    .openapi({ description: 'workflow:admin decides for the assignee; `reason` is then required' }),
  reason: reason.openapi({ description: 'Why (required with onBehalfOf); kept in the trail detail' }),
})
  .strict()
  .openapi('ApprovalDecisionBody');

export const ReturnBody = z
  .object({ targetActivityId: z.string().min(1).max(200), reason, comment: reason })
  .strict()
  .openapi('ReturnBody');

export const AssigneeBody = z.object({ assigneeUserId: userId, reason }).strict().openapi('AssigneeBody');

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

const ids = z.array(z.string().min(1).max(200)).max(200).optional();
export const CandidatesBody = z
  .object({ userIds: ids, roleIds: ids, deptIds: ids })
  .strict()
  .refine((b) => (b.userIds?.length ?? 0) + (b.roleIds?.length ?? 0) + (b.deptIds?.length ?? 0) > 0, {
    message: 'name at least one of userIds, roleIds, deptIds',
  })
  .openapi('CandidatesBody');

export const Candidate = z
  .object({ type: z.enum(['user', 'role', 'dept']), id: z.string(), name: z.string().nullable() })
  .openapi('Candidate');

export const TaskVariables = z.record(z.string(), z.unknown()).openapi('TaskVariables');

export const SetVariablesBody = z
  .object({
    variables: z
      .record(z.string().min(1).max(200), z.unknown())
      .refine((v) => Object.keys(v).length > 0, { message: 'at least one variable' })
      .refine(variablesSizeOk, { message: VARIABLES_TOO_LARGE }),
  })
  .strict()
  .openapi('SetTaskVariablesBody');

export const ValueBody = z
  .object({ value: z.unknown().refine(variablesSizeOk, { message: VARIABLES_TOO_LARGE }) })
  .strict()
  .refine((b) => Object.hasOwn(b, 'value'), { message: 'value is required', path: ['value'] })
  .openapi('TaskVariableValueBody');

export const CommentBody = z
  .object({ comment: z.string().trim().min(1).max(4000) })
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
  })
  .openapi('TaskComment');

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('TaskDeleted');

export const VariableParam = z.object({
  id: z.string().openapi({ param: { name: 'id', in: 'path' } }),
  variableName: z.string().openapi({ param: { name: 'variableName', in: 'path' } }),
});
