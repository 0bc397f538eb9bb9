// `${RULE_ENGINE_PREFIX}/api/v1/logs/runs`: RuleGo's run log, from rule_chain_runs.
import { z } from '@hono/zod-openapi';
import type { AppDeps } from '../context.js';
import { em } from '../http/middleware/auth.js';
import * as runs from './run-log.js';
import { sizePage } from './chains.schemas.js';
import {
  guard,
  noContent,
  rawJson,
  RuleGoPermissions as P,
  ruleGoRoute,
  ruleGoRouter,
  SizePageQuery,
} from './rulego-http.js';

const tags = ['rule chain runs'];
/** Unix ms up to 9999-12-31T23:59:59.999Z: a later instant is no four-digit-year time PostgreSQL reads. */
const MAX_MS = 253_402_300_799_999;
const Ms = z.coerce.number().int().min(0).max(MAX_MS);

const RunId = z.string().min(1).max(300);

const Msg = z
  .object({
    id: z.string(),
    ts: z.number().int(),
    type: z.string(),
    dataType: z.enum(['JSON', 'TEXT', 'BINARY']),
    data: z.string(),
    metadata: z.record(z.string(), z.string()),
  })
  .openapi('RuleMsg');

const NodeLog = z
  .object({
    nodeId: z.string(),
    inMsg: Msg,
    outMsg: Msg.nullable(),
    relationType: z.string(),
    err: z.string(),
    startTs: z.number().int(),
    endTs: z.number().int(),
    attempts: z.number().int().optional().openapi({ description: 'Attempts of an activity node (Temporal retries)' }),
  })
  .openapi('RuleNodeRunLog');

const summaryFields = {
  id: z.string(),
  chainId: z.string(),
  chainName: z.string(),
  startTs: z.number().int().openapi({ description: 'Epoch ms' }),
  endTs: z.number().int().openapi({ description: 'Epoch ms; 0 while running' }),
  success: z.boolean(),
  errorMsg: z.string(),
  status: z.enum(['running', 'succeeded', 'failed']).openapi({ description: 'Ours' }),
  trigger: z.record(z.string(), z.unknown()).openapi({
    description:
      'Ours: what started the run (`kind`: execute, notify, http, schedule, event, automation, flow, console)',
  }),
  chainVersion: z.number().int().openapi({ description: 'Ours: the version the run ran' }),
  errorNodeId: z.string().nullable().openapi({ description: 'Ours: the node the run failed at' }),
};

const RunSummary = z.object({ ...summaryFields, logs: z.null() }).openapi('RuleChainRunSummary');
const Run = z
  .object({ ...summaryFields, inMsg: Msg, outMsg: Msg.nullable(), logs: z.array(NodeLog) })
  .openapi('RuleChainRun');

const ListQuery = z.object({
  id: RunId.optional().openapi({
    param: { name: 'id', in: 'query' },
    description: 'One run: answers it alone (RuleGo’s way)',
  }),
  chainId: z
    .string()
    .max(256)
    .optional()
    .openapi({ param: { name: 'chainId', in: 'query' } }),
  startTime: Ms.optional().openapi({
    param: { name: 'startTime', in: 'query' },
    description: 'Started at or after (epoch ms)',
  }),
  endTime: Ms.optional().openapi({
    param: { name: 'endTime', in: 'query' },
    description: 'Started at or before (epoch ms)',
  }),
  ...SizePageQuery,
});
const DeleteQuery = z.object({
  id: RunId.optional().openapi({ param: { name: 'id', in: 'query' } }),
  chainId: z
    .string()
    .max(256)
    .optional()
    .openapi({ param: { name: 'chainId', in: 'query' } }),
});

export function runLogRoutes(deps: AppDeps) {
  const r = ruleGoRouter();
  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/runs',
      tags,
      summary: 'Runs, newest first (with `id`: that one run)',
      middleware: guard(...P.logRead),
      request: { query: ListQuery },
      responses: { 200: rawJson(z.union([sizePage(RunSummary), Run]), 'A page of runs; with `id`, the run') },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const tenantId = c.get('principal').tenantId;
      if (q.id) return c.json((await runs.getRun(em(c), deps.temporal, tenantId, q.id)) as never, 200);
      return c.json((await runs.listRuns(em(c), tenantId, q)) as never, 200);
    },
  );
  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/runs/{id}',
      tags,
      summary: 'One run: its messages and node log',
      middleware: guard(...P.logRead),
      request: { params: z.object({ id: RunId.openapi({ param: { name: 'id', in: 'path' } }) }) },
      responses: { 200: rawJson(Run) },
    }),
    async (c) =>
      c.json(
        (await runs.getRun(em(c), deps.temporal, c.get('principal').tenantId, c.req.valid('param').id)) as never,
        200,
      ),
  );
  r.openapi(
    ruleGoRoute({
      method: 'delete',
      path: '/runs',
      tags,
      summary: 'Delete one run (`id`) or every run of a chain (`chainId`); one of them is required',
      middleware: guard(...P.logDelete),
      request: { query: DeleteQuery },
      responses: { 204: noContent('Deleted') },
    }),
    async (c) => {
      await runs.deleteRuns(em(c), c.get('principal').tenantId, c.req.valid('query'));
      return c.body(null, 204);
    },
  );
  return r;
}
