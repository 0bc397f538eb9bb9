// `${RULE_ENGINE_PREFIX}/api/v1/rules`: RuleGo-Server's chain routes (docs/rule-chains.md).
import type { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppDeps } from '../context.js';
import type { AppEnv } from '../http/context.js';
import { em } from '../http/middleware/auth.js';
import type { RuleMsg } from '../../chains/types.js';
import * as chains from './chains.js';
import { dataTypeOf, executeChain, headersToMetadata, notifyChain, type RunRequest } from './executions.js';
import * as s from './chains.schemas.js';
import { flag, guard, noContent, rawJson, RuleGoPermissions as P, ruleGoRoute, ruleGoRouter } from './rulego-http.js';

const tags = ['rule chains'];

const chainDeps = (deps: AppDeps, c: Context<AppEnv>) => ({
  em: em(c),
  temporal: deps.temporal,
  taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
});

/** The output message as RuleGo answers it: its data (JSON when it is JSON), the run id in X-Run-Id. */
export function outputAnswer(c: Context<AppEnv>, runId: string, msg: RuleMsg) {
  c.header('X-Run-Id', runId);
  c.header('X-Msg-Type', msg.type);
  c.header('Content-Type', msg.dataType === 'JSON' ? 'application/json' : 'text/plain; charset=utf-8');
  return c.body(msg.data, 200);
}

const runHeaders = {
  'X-Run-Id': { description: 'The run’s id (GET /logs/runs/{id})', schema: { type: 'string' as const } },
  'X-Msg-Type': { description: 'msg.type of the output message', schema: { type: 'string' as const } },
};

/** The output answer in the document. */
export const outputResponse = {
  description:
    'The output message’s data (the message where the last branch ended): application/json when its dataType is JSON, else text/plain',
  headers: runHeaders,
  content: { 'application/json': { schema: s.MessageData } },
};

const messageBody = {
  required: false,
  description: 'msg.data, as sent (no Content-Type or a non-JSON one: a TEXT message)',
  // Not a zod schema: any body is taken as it is, JSON or not.
  content: { 'application/json': { schema: { description: 'Any JSON value, or any text with another Content-Type' } } },
};

export function chainRoutes(deps: AppDeps) {
  const r = ruleGoRouter();

  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'The tenant’s rule chains (RuleGo’s summary items)',
      middleware: guard(...P.ruleRead),
      request: { query: s.ChainListQuery },
      responses: { 200: rawJson(s.sizePage(s.ChainSummary)) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      const page = await chains.listChains(em(c), c.get('principal').tenantId, {
        ...q,
        root: flag(q.root),
        disabled: flag(q.disabled),
      });
      return c.json(page, 200);
    },
  );

  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'The deployed document of a chain (`ruleChain.disabled` says whether it is stopped)',
      middleware: guard(...P.ruleRead),
      request: { params: s.IdParam },
      responses: { 200: rawJson(s.RuleChainDsl) },
    }),
    async (c) => c.json(await chains.getChain(em(c), c.get('principal').tenantId, c.req.valid('param').id), 200),
  );

  r.openapi(
    ruleGoRoute({
      method: 'post',
      path: '/{id}',
      tags,
      summary: 'Save and deploy a chain (a new version; a new chain starts unless ruleChain.disabled)',
      description:
        'Validated first: unknown node types, dangling connections, bad expressions and scripts, missing sub-chains, functions, processes or skills are 422 CHAIN_INVALID with `data.problems` naming node and field, and nothing is stored. A started chain’s triggers follow the new version.',
      middleware: guard(...P.ruleWrite),
      request: {
        params: s.IdParam,
        body: { required: true, content: { 'application/json': { schema: s.RuleChainDsl } } },
      },
      responses: { 200: rawJson(s.RuleChainDsl, 'Saved and deployed: the document as stored') },
    }),
    async (c) => {
      const p = c.get('principal');
      const saved = await chains.saveChain(
        chainDeps(deps, c),
        p.tenantId,
        p.userId,
        c.req.valid('param').id,
        c.req.valid('json'),
      );
      return c.json(saved, 200);
    },
  );

  r.openapi(
    ruleGoRoute({
      method: 'delete',
      path: '/{id}',
      tags,
      summary: 'Delete a chain, its versions and its schedules (its runs stay in the log)',
      middleware: guard(...P.ruleWrite),
      request: { params: s.IdParam },
      responses: { 204: noContent('Deleted') },
    }),
    async (c) => {
      await chains.deleteChain(chainDeps(deps, c), c.get('principal').tenantId, c.req.valid('param').id);
      return c.body(null, 204);
    },
  );

  r.openapi(
    ruleGoRoute({
      method: 'post',
      path: '/{id}/operate/{type}',
      tags,
      summary: 'Start or stop a chain',
      description:
        'stop: its schedules are removed, its hooks answer 409 CHAIN_STOPPED, process events are not delivered, execute and notify are refused; start: all of them live again. `set-to-main` (RuleGo’s main chain) answers 400: not supported.',
      middleware: guard(...P.ruleWrite),
      request: { params: s.OperateParams },
      responses: { 200: rawJson(s.ChainSummary, 'The chain’s summary after the operation') },
    }),
    async (c) => {
      const p = c.get('principal');
      const { id, type } = c.req.valid('param');
      return c.json(await chains.operateChain(chainDeps(deps, c), p.tenantId, p.userId, id, type), 200);
    },
  );

  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/{id}/versions',
      tags,
      summary: 'Every saved version of a chain, newest first (ours)',
      middleware: guard(...P.ruleRead),
      request: { params: s.IdParam, query: s.PageSizeQuery },
      responses: { 200: rawJson(s.sizePage(s.ChainVersion)) },
    }),
    async (c) => {
      const { page, size } = c.req.valid('query');
      return c.json(
        await chains.chainVersions(em(c), c.get('principal').tenantId, c.req.valid('param').id, page, size),
        200,
      );
    },
  );

  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/{id}/hook-secret',
      tags,
      summary: 'The key that signs the chain’s HTTP triggers (ours; definition:write)',
      description: 'Never part of the document’s answers. Rotate it with POST /rules/{id}/hook-secret/rotate.',
      middleware: guard(...P.ruleWrite),
      request: { params: s.IdParam },
      responses: { 200: rawJson(s.HookSecret) },
    }),
    async (c) => c.json(await chains.hookSecret(em(c), c.get('principal').tenantId, c.req.valid('param').id), 200),
  );

  r.openapi(
    ruleGoRoute({
      method: 'post',
      path: '/{id}/hook-secret/rotate',
      tags,
      summary: 'A new hook key; the old one stops working at once (ours)',
      middleware: guard(...P.ruleWrite),
      request: { params: s.IdParam },
      responses: { 200: rawJson(s.HookSecret, 'The new key') },
    }),
    async (c) =>
      c.json(await chains.rotateHookSecret(em(c), c.get('principal').tenantId, c.req.valid('param').id), 200),
  );

  const runRequest = async (c: Context<AppEnv>, kind: 'execute' | 'notify'): Promise<RunRequest> => {
    const p = c.get('principal');
    const { id, msgType } = c.req.param() as { id: string; msgType: string };
    const q = (c.req as any).valid('query') as z.infer<typeof s.RunQuery>;
    const metadata: Record<string, string> =
      q._headersToMetadata === 'true' ? headersToMetadata(c.req.raw.headers) : {};
    // RuleGo puts the other query parameters into the metadata.
    for (const [k, v] of Object.entries(c.req.query())) if (!k.startsWith('_')) metadata[k] = v;
    return {
      tenantId: p.tenantId,
      chainId: id,
      msgType,
      data: await c.req.text(),
      dataType: dataTypeOf(c.req.header('content-type')),
      metadata,
      msgId: q._msgId,
      fromNodeId: q._fromNodeId,
      onlyNodeId: q._onlyNodeId,
      trigger: { kind, userId: p.userId },
    };
  };

  r.openapi(
    ruleGoRoute({
      method: 'post',
      path: '/{id}/execute/{msgType}',
      tags,
      summary: 'Run the chain on a message and answer its output (synchronous)',
      description:
        'A run that fails answers 400 CHAIN_RUN_FAILED with `data` {runId, nodeId, reason}; a stopped chain 409 CHAIN_STOPPED.',
      middleware: guard(...P.ruleExecute),
      request: { params: s.RunParams, query: s.RunQuery, body: messageBody },
      responses: { 200: outputResponse },
    }),
    (async (c: Context<AppEnv>) => {
      const { runId, msg } = await executeChain(chainDeps(deps, c), await runRequest(c, 'execute'));
      return outputAnswer(c, runId, msg);
    }) as never,
  );

  r.openapi(
    ruleGoRoute({
      method: 'post',
      path: '/{id}/notify/{msgType}',
      tags,
      summary: 'Start a run of the chain on a message and answer its run id at once (asynchronous)',
      middleware: guard(...P.ruleExecute),
      request: { params: s.RunParams, query: s.RunQuery, body: messageBody },
      responses: { 200: rawJson(s.RunStarted, 'Started: the run’s log is GET /logs/runs/{runId}') },
    }),
    (async (c: Context<AppEnv>) =>
      c.json(await notifyChain(chainDeps(deps, c), await runRequest(c, 'notify')), 200)) as never,
  );

  return r;
}
