// `${RULE_ENGINE_PREFIX}/api/v1/hooks/{tenantId}/{chainId}/{path}`: a chain's HTTP triggers. Not
// behind the login (like /api/v1/approve-links): the chain's hook secret signs the request, or the
// caller sends a JWT of that tenant with workflow:instance:start. Order of the answers: unknown
// chain or route 404, then a bad or missing credential 401 (and no run), then a stopped chain 409.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppDeps } from '../context.js';
import type { AppEnv } from '../http/context.js';
import { em } from '../http/middleware/auth.js';
import { AppError } from '../errors.js';
import { holds, Permissions } from '../permissions.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../infra/outbound/signing.js';
import { findChain, hookSecret } from './chains.js';
import { dataTypeOf, executeChain, notifyChain, type RunRequest } from './executions.js';
import { matchHookRoute, verifyHookSignature } from './hooks.js';
import { outputAnswer, outputResponse } from './chains.routes.js';
import { RunStarted } from './chains.schemas.js';
import { rawJson, RuleGoError, ruleGoRouter } from './rulego-http.js';

const HOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Who may run the hook: the signature, else a bearer token of the hook's tenant with execute permission. */
async function authorize(c: Context<AppEnv>, tenantId: string, chainId: string, rawBody: string) {
  const ts = c.req.header(TIMESTAMP_HEADER);
  const sig = c.req.header(SIGNATURE_HEADER);
  const bearer = c.req.header('Authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!sig && bearer) {
    const { tokens, principals } = c.get('deps');
    const claims = await tokens.verify(bearer).catch(() => null);
    if (claims && claims.tid === tenantId) {
      const principal = await principals.load(claims.tid, claims.sub).catch(() => null);
      if (principal && holds(principal.permissions, Permissions.INSTANCE_START)) return principal.userId;
    }
    throw new AppError(
      'HOOK_SIGNATURE_INVALID',
      'The token is not one of this tenant’s users with workflow:instance:start',
    );
  }
  const { secret } = await hookSecret(em(c), tenantId, chainId);
  verifyHookSignature(secret, ts, sig, rawBody);
  return undefined;
}

export function hookRoutes(deps: AppDeps, mountedAt: string) {
  const r = ruleGoRouter({ secured: false });
  const depth = mountedAt.split('/').filter(Boolean).length;

  r.on([...HOOK_METHODS], '/:tenantId/:chainId/*', async (c) => {
    const { tenantId, chainId } = c.req.param() as { tenantId: string; chainId: string };
    const path =
      '/' +
      c.req.path
        .split('/')
        .filter(Boolean)
        .slice(depth + 2)
        .join('/');
    const chain = await findChain(em(c), tenantId, chainId);
    const route = matchHookRoute(chain.dsl, c.req.method, path);
    if (!route) throw new AppError('NOT_FOUND', `The rule chain ${chainId} has no ${c.req.method} hook at ${path}`);
    const rawBody = c.req.method === 'GET' ? '' : await c.req.text();
    const userId = await authorize(c, tenantId, chainId, rawBody);
    // RuleGo's HTTP endpoint: a GET's message is its query as JSON; path and query parameters go into the metadata.
    const query = c.req.query();
    const req: RunRequest = {
      tenantId,
      chainId,
      msgType: path,
      data: c.req.method === 'GET' ? JSON.stringify(query) : rawBody,
      dataType: c.req.method === 'GET' ? 'JSON' : dataTypeOf(c.req.header('content-type')),
      metadata: { ...query, ...route.params },
      fromNodeId: route.fromNodeId,
      trigger: {
        kind: 'http',
        endpointId: route.endpoint.id,
        path: route.router.from.path,
        ...(userId ? { userId } : {}),
      },
    };
    const runDeps = { em: em(c), temporal: deps.temporal, taskQueue: deps.config.TEMPORAL_TASK_QUEUE };
    if (route.wait) {
      const { runId, msg } = await executeChain(runDeps, req);
      return outputAnswer(c, runId, msg);
    }
    return c.json(await notifyChain(runDeps, req), 202);
  });

  const Params = z.object({
    tenantId: z
      .string()
      .min(1)
      .max(200)
      .openapi({ param: { name: 'tenantId', in: 'path' } }),
    chainId: z
      .string()
      .min(1)
      .max(256)
      .openapi({ param: { name: 'chainId', in: 'path' } }),
    path: z
      .string()
      .min(1)
      .max(1000)
      .openapi({
        param: { name: 'path', in: 'path' },
        description: 'The router’s `from.path` (one or more segments; `:name` segments of it go into msg.metadata)',
      }),
  });
  const error = (description: string) => ({ description, content: { 'application/json': { schema: RuleGoError } } });
  for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const)
    r.openAPIRegistry.registerPath({
      method,
      path: '/{tenantId}/{chainId}/{path}',
      tags: ['rule chain hooks'],
      summary: `A chain’s HTTP trigger (${method.toUpperCase()} routers)`,
      description:
        'No login. Sign with the chain’s hook secret (GET /rules/{id}/hook-secret): `x-gflow-timestamp` (unix seconds, within 300 s) and `x-gflow-signature: sha256=<hex HMAC-SHA256(secret, `${timestamp}.${raw body}`)>`; or send `Authorization: Bearer <JWT>` of a user of that tenant holding workflow:instance:start. A router with `to.wait` true answers the output message’s data (like execute); otherwise 202 with the run id. The message: type = the path below the chain, data = the body (a GET: its query as JSON), metadata = query and path parameters.',
      security: [{}, { bearerAuth: [] }],
      request: {
        params: Params,
        ...(method === 'get' || method === 'delete'
          ? {}
          : {
              body: {
                required: false,
                content: { 'application/json': { schema: { description: 'msg.data (any other Content-Type: TEXT)' } } },
              },
            }),
      },
      responses: {
        200: outputResponse,
        202: rawJson(RunStarted, 'Started (the router does not wait): the run id'),
        400: error('CHAIN_RUN_FAILED: the run failed (`data`: runId, nodeId, reason), or malformed input'),
        401: error('HOOK_SIGNATURE_INVALID: no, an expired or a wrong signature (and no run)'),
        404: error('No such chain in the tenant, or no router for this method and path'),
        409: error('CHAIN_STOPPED: the chain is stopped'),
        413: error('Body too large'),
      },
    });
  return r;
}
