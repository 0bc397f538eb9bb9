import { z } from '@hono/zod-openapi';
import { Instance } from '../read-model/shapes.js';

export { ProcessKeyQuery as StuckQuery } from '../read-model/shapes.js';

export const StuckInstance = Instance.extend({
  detail: z
    .object({
      reason: z.string().openapi({
        description:
          'why it is stuck: the failure of a failed instance (which also carries failedNode, nodeType, at), else why nobody can move it on (with the nodes concerned)',
      }),
    })
    .catchall(z.unknown()),
}).openapi('StuckInstance');

export const RepairBody = z
  .object({ reason: z.string().max(2000).optional() })
  .strict()
  .openapi('RepairBody');

export const RepairResult = z
  .object({
    id: z.string(),
    status: z.string(),
    currentNodes: z.array(z.string()),
    detail: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'the failure, when the node failed again' }),
  })
  .openapi('RepairResult');

export const Deleted = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedInstance');

export const BatchDeleteBody = z
  .object({ ids: z.array(z.string().min(1).max(200)).min(1).max(200) })
  .strict()
  .openapi('BatchDeleteInstances');

export const BatchDeleteResult = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        ok: z.boolean(),
        code: z.number().int().openapi({
          description: '0 when deleted, else the error code (40400 unknown, 40901 running, 40300/40304 not allowed)',
        }),
        message: z.string(),
      }),
    ),
  })
  .openapi('BatchDeleteResult');
