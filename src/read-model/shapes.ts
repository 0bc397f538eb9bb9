// The read model's resources as the API answers them (tasks, instances, the trail) and the list
// queries that read them, declared once as zod schemas: the routes document and validate with
// them, services and tests use their z.infer types.
import { z } from '@hono/zod-openapi';
import { INSTANCE_STATUSES, TASK_KINDS, TASK_STATUSES } from '../../workflows/engine/types.js';
import { PageQuery } from '../paging.js';
import { IsoDate, TimestampQuery } from '../shapes.js';
import { ASSIGNMENT_KINDS } from './assignment-reason.js';

export const Candidates = z
  .object({ userIds: z.array(z.string()), roleIds: z.array(z.string()), deptIds: z.array(z.string()) })
  .openapi('Candidates');

export const AssignmentReason = z
  .object({
    kind: z.enum(ASSIGNMENT_KINDS),
    text: z.string().openapi({ description: 'in words, e.g. "role finance (3 members)"' }),
    ids: z
      .array(z.string())
      .openapi({ description: "the rule's users, roles or departments; for manager rules the person whose manager" }),
    count: z.number().int().nullable().openapi({ description: 'pool members or people listed' }),
    level: z.number().int().nullable().openapi({ description: 'manager level' }),
    by: z.string().nullable().openapi({
      description:
        'who put it there (delegating owner, transferring approver, admin, add-signer; the initiator a substitute stands in for)',
    }),
    rule: z
      .string()
      .nullable()
      .openapi({ description: 'the fallback rule, e.g. role:finance-director; or the selfApproval setting' }),
  })
  .openapi('AssignmentReason');

/** Why a node ahead is undecided (dsl/ahead.ts): upcoming steps and simulations. */
export const UndecidedBy = z.object({
  nodeId: z.string().openapi({ description: 'the switch/inclusive whose outcome is open' }),
  variable: z.string().openapi({ description: 'the variable its condition reads (msg: all of them)' }),
  setBy: z
    .string()
    .nullable()
    .openapi({ description: 'the node that has not run yet and writes it; null when it is missing' }),
});

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
    kind: z.enum(TASK_KINDS),
    assignee: z.string().nullable(),
    candidates: Candidates,
    status: z.enum(TASK_STATUSES),
    result: z.string().nullable(),
    parentTaskId: z.string().nullable(),
    owner: z.string().nullable(),
    dueDate: IsoDate.nullable(),
    createTime: IsoDate,
    endTime: IsoDate.nullable(),
    comment: z.string().nullable(),
    // A union, not .nullable(): that would make the AssignmentReason component itself nullable.
    assignmentReason: z.union([AssignmentReason, z.null()]).openapi({
      description: 'why the task is where it is (null: recorded before reasons were kept)',
    }),
  })
  .openapi('Task');
export type Task = z.infer<typeof Task>;

export const Variables = z.record(z.string(), z.unknown()).openapi('Variables');

/** Why a `failed` instance stopped (the engine's detail when a node's outcome had nowhere to go). */
export const InstanceFailure = z
  .object({
    reason: z.string().openapi({ description: 'what failed, e.g. "service function X failed: …"' }),
    failedNode: z.string().nullable().openapi({ description: 'the node that failed' }),
    nodeType: z.string().nullable(),
    at: IsoDate.nullable().openapi({ description: 'when it failed' }),
  })
  .openapi('InstanceFailure');

export const Instance = z
  .object({
    id: z.string(),
    processKey: z.string(),
    processVersion: z.number().int().nullable(),
    definitionId: z.string(),
    processName: z.string(),
    businessKey: z.string().nullable(),
    status: z.enum(INSTANCE_STATUSES),
    initiatorId: z.string(),
    variables: Variables,
    currentNodes: z.array(z.string()),
    startTime: IsoDate,
    endTime: IsoDate.nullable(),
    endReason: z.string().nullable().openapi({
      description:
        "why it ended, in the caller's language (said from `endCode` and `endParams`); instances that ended before codes existed: the English words recorded then; null while running and when it simply completed",
    }),
    endCode: z.string().nullable().openapi({
      description:
        'why it ended, as a stable code: `end.withdrawn`, `end.terminated`, `end.completed` (by an administrator), `end.rejected`, `end.subProcess`; null while running, when it simply completed, and for instances that ended before codes existed',
    }),
    endParams: z.record(z.string(), z.unknown()).nullable().openapi({
      description:
        "the code's parameters (`reason` an administrator gave, `nodeId`/`nodeName`/`comment` of a rejection, `targetId`/`status` of a sub-process); clients word them in their language",
    }),
    failure: z.union([InstanceFailure, z.null()]).openapi({
      description: 'status `failed`: why, and where (a re-drive runs the node again); null otherwise',
    }),
  })
  .openapi('Instance');
export type Instance = z.infer<typeof Instance>;

export const TrailEntry = z
  .object({
    id: z.string(),
    type: z.string(),
    activityId: z.string().nullable(),
    taskId: z.string().nullable(),
    userId: z.string().nullable(),
    comment: z.string().nullable().openapi({
      description:
        "the person's comment, or (with `code`) the engine's words in English, kept for older clients; entries recorded before codes existed have only this",
    }),
    time: IsoDate,
    detail: z.record(z.string(), z.unknown()).nullable(),
    code: z.string().nullable().openapi({
      description:
        'what the engine itself says, as a stable code (e.g. `autoApprove.selfApproval`, `reject.backTo`, `instance.failed`); null for what a person did or said',
    }),
    params: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "the code's parameters (node ids, names, counts); clients word them in their language" }),
  })
  .openapi('TrailEntry');
export type TrailEntry = z.infer<typeof TrailEntry>;

// ---------- list queries ----------

/** A filter's name, or its name and the description the document gives it. */
type TextFilter = string | readonly [name: string, description: string];
type FilterName<F> = F extends readonly [infer N, string] ? N : F;

/** Optional plain-text filters, in the order given. */
function textFilters<const F extends readonly TextFilter[]>(...filters: F) {
  return Object.fromEntries(
    filters.map((f) =>
      typeof f === 'string' ? [f, z.string().optional()] : [f[0], z.string().optional().openapi({ description: f[1] })],
    ),
  ) as { [N in FilterName<F[number]> & string]: z.ZodOptional<z.ZodString> };
}

/** `<prefix>After` and `<prefix>Before`, an optional time range (its bounds listed in the given order). */
function timeRange<P extends string>(prefix: P, order: ['After', 'Before'] | ['Before', 'After']) {
  const bound = TimestampQuery.optional();
  return Object.fromEntries(order.map((end) => [`${prefix}${end}`, bound])) as {
    [K in `${P}After` | `${P}Before`]: typeof bound;
  };
}

export const TaskQuery = PageQuery.extend({
  ...textFilters('instanceId', 'assignee', ['status', 'comma-separated, e.g. pending,active'], 'processKey'),
  ...timeRange('due', ['Before', 'After']),
});
export type TaskQuery = z.infer<typeof TaskQuery>;

export const InstanceQuery = PageQuery.extend({
  ...textFilters('processKey', 'businessKey', ['status', 'comma-separated statuses'], 'initiator'),
  ...timeRange('started', ['After', 'Before']),
});
export type InstanceQuery = z.infer<typeof InstanceQuery>;

/** My to-do, my done tasks, the backlog and stuck instances: by process. */
export const ProcessKeyQuery = PageQuery.extend(textFilters('processKey'));
export type ProcessKeyQuery = z.infer<typeof ProcessKeyQuery>;

/** Instances I started. */
export const ApplicationsQuery = PageQuery.extend(textFilters('status'));
export type ApplicationsQuery = z.infer<typeof ApplicationsQuery>;

export const OverdueQuery = PageQuery.extend(textFilters('processKey', 'assignee'));
export type OverdueQuery = z.infer<typeof OverdueQuery>;
