import { z } from '@hono/zod-openapi';
import { IsoDate, PageQuery } from '../envelope.js';
import { TimestampQuery, VariablesInput, VARIABLES_TOO_LARGE, variablesSizeOk } from '../input.js';

export const Variables = z.record(z.string(), z.unknown()).openapi('Variables');

export const Instance = z
  .object({
    id: z.string(),
    processKey: z.string(),
    processVersion: z.number().int().nullable(),
    definitionId: z.string(),
    processName: z.string(),
    businessKey: z.string().nullable(),
    status: z.enum(['draft', 'active', 'suspended', 'completed', 'rejected', 'terminated', 'failed']),
    initiatorId: z.string(),
    variables: Variables,
    currentNodes: z.array(z.string()),
    startTime: IsoDate,
    endTime: IsoDate.nullable(),
    endReason: z.string().nullable(),
  })
  .openapi('Instance');

export const TrailEntry = z
  .object({
    id: z.string(),
    type: z.string(),
    activityId: z.string().nullable(),
    taskId: z.string().nullable(),
    userId: z.string().nullable(),
    comment: z.string().nullable(),
    time: IsoDate,
    detail: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi('TrailEntry');

export const Upcoming = z
  .object({
    activityId: z.string(),
    name: z.string(),
    approvers: z.array(z.string()),
    candidates: z.object({ roleIds: z.array(z.string()), deptIds: z.array(z.string()) }),
    undecided: z.boolean(),
  })
  .openapi('UpcomingNode');

export const InstanceWithTrail = Instance.extend({ trail: z.array(TrailEntry), upcoming: z.array(Upcoming) }).openapi('InstanceWithTrail');

export const InstanceDetail = z
  .object({
    instance: Instance,
    trail: z.array(TrailEntry),
    form: z.record(z.string(), z.unknown()).nullable(),
    permissions: z.array(z.string()),
    upcoming: z.array(Upcoming),
  })
  .openapi('InstanceDetail');

export const StartBody = z
  .object({
    processKey: z.string().min(1),
    businessKey: z.string().max(200).nullable().optional(),
    variables: VariablesInput.optional(),
    draft: z.boolean().optional(),
  })
  .strict()
  .openapi('StartInstance');

export const Started = z.object({ instanceId: z.string(), instance: Instance }).openapi('StartedInstance');

export const InstanceQuery = PageQuery.extend({
  processKey: z.string().optional(),
  businessKey: z.string().optional(),
  status: z.string().optional().openapi({ description: 'comma-separated statuses' }),
  initiator: z.string().optional(),
  startedAfter: TimestampQuery.optional(),
  startedBefore: TimestampQuery.optional(),
});

export const CcRecord = z
  .object({
    instanceId: z.string(),
    processKey: z.string(),
    processName: z.string(),
    businessKey: z.string().nullable(),
    initiatorId: z.string(),
    activityId: z.string(),
    status: z.string(),
    ccTime: IsoDate,
    read: z.boolean(),
  })
  .openapi('CcRecord');

export const ActionBody = z.object({ reason: z.string().max(2000).optional(), comment: z.string().max(2000).optional() }).strict().openapi('InstanceActionBody');
export const InstanceStatus = z.object({ id: z.string(), status: z.string() }).openapi('InstanceStatus');
export const SetVariablesBody = z.object({ variables: VariablesInput }).strict().openapi('SetVariables');
export const UpdateVariableBody = z.object({ value: z.unknown().refine(variablesSizeOk, { message: VARIABLES_TOO_LARGE }) }).strict().openapi('UpdateVariable');

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
export const VariableParam = IdParam.extend({ variableName: z.string().openapi({ param: { name: 'variableName', in: 'path' } }) });
