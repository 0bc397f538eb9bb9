import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';
import { Instance, InstanceQuery, Task, TrailEntry, UndecidedBy } from '../read-model/shapes.js';
import { INSTANCE_STATUSES } from '../../workflows/engine/types.js';
import { PageQuery } from '../paging.js';
import { VariablesInput, VariableValue } from '../http/input.js';

export { ApplicationsQuery, Instance, ProcessKeyQuery, TrailEntry, Variables } from '../read-model/shapes.js';

/**
 * A comma-separated list of `statuses` (an unknown one is a 400, not an empty list): a pattern, so the
 * document says which values it takes, not only its description.
 */
export function statusList<const S extends readonly string[]>(statuses: S) {
  const one = `(?:${statuses.join('|')})`;
  return z
    .string()
    .regex(new RegExp(`^\\s*(?:${one}\\s*)?(?:,\\s*(?:${one}\\s*)?)*$`), {
      message: `comma-separated, each one of: ${statuses.join(', ')}`,
    })
    .optional()
    .openapi({ description: `comma-separated, each one of: ${statuses.join(', ')}` });
}

/** The instance list: the read model's filters, statuses checked, and a search in the business key. */
export const InstanceListQuery = InstanceQuery.extend({
  status: statusList(INSTANCE_STATUSES),
  q: z.string().max(200).optional().openapi({
    description: 'Search text: a case-insensitive part of the business key (businessKey matches it whole)',
  }),
});
export type InstanceListQuery = z.infer<typeof InstanceListQuery>;

/** Copies to me: by process and business key text. */
export const CcQuery = PageQuery.extend({
  processKey: z.string().optional(),
  q: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: 'Search text: a case-insensitive part of the business key' }),
});

export const Upcoming = z
  .object({
    activityId: z.string(),
    name: z.string(),
    approvers: z.array(z.string()),
    candidates: z.object({ roleIds: z.array(z.string()), deptIds: z.array(z.string()) }),
    undecided: z.boolean(),
    undecidedBy: z.array(UndecidedBy).openapi({ description: 'why the node is undecided; empty when it is decided' }),
  })
  .openapi('UpcomingNode');

export const InstanceWithTrail = Instance.extend({ trail: z.array(TrailEntry), upcoming: z.array(Upcoming) }).openapi(
  'InstanceWithTrail',
);

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

/** The instance's process fields as a task carries them, and the copy's own. */
export const CcRecord = Task.pick({
  instanceId: true,
  processKey: true,
  processName: true,
  businessKey: true,
  initiatorId: true,
  activityId: true,
})
  .extend({
    status: z.string(),
    ccTime: IsoDate,
    read: z.boolean(),
  })
  .openapi('CcRecord');

export const ActionBody = z
  .object({ reason: z.string().max(2000).optional(), comment: z.string().max(2000).optional() })
  .strict()
  .openapi('InstanceActionBody');
// Not named InstanceStatus: generators name the Instance's `status` enum so (openapi-python-client).
export const InstanceStatus = z.object({ id: z.string(), status: z.string() }).openapi('InstanceActionResult');
export const SetVariablesBody = z.object({ variables: VariablesInput }).strict().openapi('SetVariables');
export const UpdateVariableBody = z
  .object({ value: VariableValue })
  .strict()
  .refine((b) => Object.hasOwn(b, 'value'), { message: 'value is required', path: ['value'] })
  .openapi('UpdateVariable', { required: ['value'] });

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
export const VariableParam = IdParam.extend({
  variableName: z.string().openapi({ param: { name: 'variableName', in: 'path' } }),
});
