import { z } from '@hono/zod-openapi';
import { jsonSchema, keysOf } from '../http/input.js';

const NodeId = z.string().min(1).max(200);

const migrateFields = {
  targetDefinitionId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ description: 'id of a deployed (active or retired) version of the same process key' }),
  nodeMapping: z
    .record(NodeId, NodeId)
    .optional()
    .openapi({
      description:
        'node id of the current version → node id of the target; needed for every active node the target lacks (or to move one elsewhere)',
      example: { legacyReview: 'review' },
      ...keysOf({ minLength: 1, maxLength: 200 }),
    }),
  dryRun: z.boolean().default(false).openapi({ description: 'true: answer what would happen, change nothing' }),
};

export const MigrateBody = z.object(migrateFields).strict().openapi('MigrateInstanceBody');

export const BatchMigrateBody = z
  .object({
    processKey: z.string().min(1).max(200),
    sourceVersion: z
      .number()
      .int()
      .positive()
      .optional()
      .openapi({ description: 'only instances running this version (default: every version but the target)' }),
    sourceDefinitionId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: 'only instances running this definition (instead of sourceVersion)' }),
    ...migrateFields,
    limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .openapi({ description: 'at most this many instances per call, oldest first (default 100)' }),
  })
  .strict()
  .refine((b) => b.sourceVersion === undefined || b.sourceDefinitionId === undefined, {
    message: 'send sourceVersion or sourceDefinitionId, not both',
    path: ['sourceDefinitionId'],
  })
  .openapi(
    'MigrateInstancesBody',
    jsonSchema({
      description: 'At most one of sourceVersion and sourceDefinitionId',
      not: { required: ['sourceVersion', 'sourceDefinitionId'] },
    }),
  );

const NodeMove = z.object({
  tokenId: z.string(),
  nodeId: z.string().openapi({ description: 'the active node in the current version' }),
  type: z.string(),
  wait: z
    .enum(['task', 'resubmit', 'delay', 'join', 'child', 'call', 'failed', 'running'])
    .openapi({ description: 'what the path waits on there' }),
  outcome: z.enum(['kept', 'moved', 'restarted', 'refused']).openapi({
    description:
      'kept (same node), moved (to `to`, its work kept), restarted (its tasks cancelled, `to` runs afresh), refused',
  }),
  to: z.string().nullable(),
  reason: z.string(),
});

const TaskMove = z.object({
  taskId: z.string(),
  activityId: z.string(),
  name: z.string(),
  assignee: z.string().nullable(),
  status: z.string(),
  outcome: z.enum(['kept', 'moved', 'cancelled', 'refused']),
  to: z
    .string()
    .nullable()
    .openapi({ description: 'the node it belongs to afterwards (cancelled: where its path goes on)' }),
  toName: z.string(),
  reason: z.string(),
});

export const MigrationPlan = z
  .object({
    ok: z.boolean(),
    mappingProblems: z.array(z.string()),
    refusals: z.array(z.object({ nodeId: z.string().nullable(), reason: z.string() })),
    nodes: z.array(NodeMove),
    tasks: z.array(TaskMove),
    completedApprovals: z.array(z.string()),
    regions: z.array(z.object({ regionId: z.string(), forkId: z.string(), joinId: z.string() })),
  })
  .openapi('MigrationPlan');

export const MigrationResult = z
  .object({
    instanceId: z.string(),
    dryRun: z.boolean(),
    changed: z.boolean().openapi({ description: 'false when the instance already runs the target (a no-op)' }),
    migratable: z.boolean().openapi({ description: 'dry run: nothing refuses it' }),
    fromDefinitionId: z.string(),
    fromVersion: z.number().int().nullable(),
    toDefinitionId: z.string(),
    toVersion: z.number().int(),
    status: z.string(),
    // Unions, not .nullable(): that would make the named components themselves nullable.
    plan: z.union([MigrationPlan, z.null()]),
    compare: z.string().nullable().openapi({
      description:
        'path of GET /process-definitions/{from}/compare/{to}: the node-level difference of the two versions; null when the instance already runs the target',
    }),
  })
  .openapi('MigrationResult');

export const BatchMigrationResult = z
  .object({
    dryRun: z.boolean(),
    toDefinitionId: z.string(),
    toVersion: z.number().int(),
    total: z.number().int().openapi({ description: 'running instances that matched (before this call)' }),
    remaining: z.number().int().openapi({ description: 'matched but beyond `limit`: call again' }),
    items: z.array(
      z.object({
        instanceId: z.string(),
        ok: z.boolean(),
        code: z.number().int().openapi({
          description: '0, or the refusal: 40920 the plan refuses (dry run too), 42221 bad mapping, 40901 not running',
        }),
        message: z.string(),
        result: z.union([MigrationResult, z.null()]),
        data: z
          .unknown()
          .openapi({ description: 'the refusal data: the plan (40920) or the mapping problems (42221)' }),
      }),
    ),
  })
  .openapi('BatchMigrationResult');
