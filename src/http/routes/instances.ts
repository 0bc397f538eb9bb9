import { z } from '@hono/zod-openapi';
import * as instances from '../../services/instances.js';
import * as lifecycle from '../../services/instance-actions.js';
import { Permissions } from '../../services/permissions.js';
import { AppError } from '../../errors.js';
import { json, jsonBody, ok, optionalBody, page } from '../envelope.js';
import { PageQuery } from '../../paging.js';
import { createRouter, defineRoute } from '../router.js';
import { requirePermission } from '../middleware/auth.js';
import { Task } from './tasks.schemas.js';
import * as s from './instances.schemas.js';
import { IdempotencyHeaders } from '../idempotency.js';
import { actionInput } from '../request.js';
import type { AppDeps } from '../../context.js';

const tags = ['process-instances'];

export function instanceRoutes(deps: AppDeps) {
  const r = createRouter();

  r.openapi(
    defineRoute({
      middleware: [requirePermission(Permissions.INSTANCE_START, Permissions.CREATE)],
      method: 'post',
      path: '/start',
      tags,
      summary: 'Start an instance (or create a draft with draft: true)',
      request: { body: jsonBody(s.StartBody) },
      responses: { 201: json(s.Started, 'Started') },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(await instances.startInstance(deps, p, c.req.valid('json'))), 201);
    },
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Instances (runtime and archive merged)',
      request: { query: s.InstanceQuery },
      responses: { 200: json(page(s.Instance)) },
    }),
    async (c) => c.json(ok(await instances.listInstances(deps, c.get('principal'), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/todo',
      tags,
      summary: 'My to-do: active tasks assigned to me and pending tasks I may claim',
      request: { query: s.ProcessKeyQuery },
      responses: { 200: json(page(Task)) },
    }),
    async (c) => c.json(ok(await instances.todo(deps, c.get('principal'), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/done',
      tags,
      summary: 'Tasks I closed',
      request: { query: s.ProcessKeyQuery },
      responses: { 200: json(page(Task)) },
    }),
    async (c) => c.json(ok(await instances.done(deps, c.get('principal'), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/cc',
      tags,
      summary: 'Instances copied to me',
      request: { query: PageQuery },
      responses: { 200: json(page(s.CcRecord)) },
    }),
    async (c) => c.json(ok(await instances.ccList(deps, c.get('principal'), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/applications',
      tags,
      summary: 'Instances I started',
      request: { query: s.ApplicationsQuery },
      responses: { 200: json(page(s.Instance)) },
    }),
    async (c) => c.json(ok(await instances.applications(deps, c.get('principal'), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'An instance with its trail and upcoming nodes',
      request: { params: s.IdParam },
      responses: { 200: json(s.InstanceWithTrail) },
    }),
    async (c) => c.json(ok(await instances.getInstance(deps, c.get('principal'), c.req.valid('param').id)), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/{id}/detail',
      tags,
      summary: 'Approval detail: trail, form with my field permissions, my allowed actions, upcoming',
      request: { params: s.IdParam },
      responses: { 200: json(s.InstanceDetail) },
    }),
    async (c) => c.json(ok(await instances.getDetail(deps, c.get('principal'), c.req.valid('param').id)), 200),
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(Permissions.INSTANCE_START, Permissions.CREATE)],
      method: 'post',
      path: '/{id}/submit-draft',
      tags,
      summary: 'Submit a draft (initiator only)',
      request: { params: s.IdParam },
      responses: { 200: json(s.Instance) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(await instances.submitDraft(deps, p, c.req.valid('param').id)), 200);
    },
  );

  // Lifecycle actions (who may is decided by the service: the initiator or workflow:instance:manage)
  for (const [action, summary] of [
    ['withdraw', 'Withdraw (initiator): the instance is terminated'],
    ['terminate', 'Terminate (workflow:instance:manage); a no-op on an ended instance'],
    ['complete', 'Complete (workflow:instance:manage)'],
    [
      'suspend',
      'Suspend: open tasks become suspended and every task action is refused until activation; a draft is 409',
    ],
    ['activate', 'Activate a suspended instance: its tasks get back the status they had'],
  ] as const) {
    r.openapi(
      defineRoute({
        method: 'post',
        path: `/{id}/${action}`,
        tags,
        summary,
        request: { params: s.IdParam, headers: IdempotencyHeaders, body: optionalBody(s.ActionBody) },
        responses: { 200: json(s.InstanceStatus) },
      }),
      async (c) => {
        const { id, body, key } = await actionInput(c);
        return c.json(ok(await lifecycle.instanceAction(deps, c.get('principal'), id, action, body, key)), 200);
      },
    );
  }

  // Variables
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/{id}/variables',
      tags,
      summary: 'Process variables',
      request: { params: s.IdParam },
      responses: { 200: json(s.Variables) },
    }),
    async (c) => c.json(ok(await instances.getVariables(deps, c.get('principal'), c.req.valid('param').id)), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/{id}/variables/{variableName}',
      tags,
      summary: 'One process variable',
      request: { params: s.VariableParam },
      responses: { 200: json(z.object({ name: z.string(), value: z.unknown() })) },
    }),
    async (c) => {
      const { id, variableName } = c.req.valid('param');
      const vars = await instances.getVariables(deps, c.get('principal'), id);
      if (!Object.hasOwn(vars, variableName)) throw new AppError('NOT_FOUND', `No variable ${variableName}`);
      return c.json(ok({ name: variableName, value: vars[variableName] }), 200);
    },
  );
  r.openapi(
    defineRoute({
      method: 'post',
      path: '/{id}/variables',
      tags,
      summary: 'Set several process variables (merge)',
      request: { params: s.IdParam, headers: IdempotencyHeaders, body: jsonBody(s.SetVariablesBody) },
      responses: { 200: json(s.Variables) },
    }),
    async (c) => {
      const { id, body, key } = await actionInput(c);
      return c.json(
        ok(await instances.writeVariables(deps, c.get('principal'), id, { set: body.variables }, key)),
        200,
      );
    },
  );
  r.openapi(
    defineRoute({
      method: 'put',
      path: '/{id}/variables/{variableName}',
      tags,
      summary: 'Update one process variable',
      request: { params: s.VariableParam, headers: IdempotencyHeaders, body: jsonBody(s.UpdateVariableBody) },
      responses: { 200: json(s.Variables) },
    }),
    async (c) => {
      const { id, body, key } = await actionInput(c);
      return c.json(
        ok(
          await instances.writeVariables(
            deps,
            c.get('principal'),
            id,
            { set: { [c.req.valid('param').variableName]: body.value ?? null } },
            key,
          ),
        ),
        200,
      );
    },
  );
  r.openapi(
    defineRoute({
      method: 'delete',
      path: '/{id}/variables/{variableName}',
      tags,
      summary: 'Delete one process variable',
      request: { params: s.VariableParam, headers: IdempotencyHeaders },
      responses: { 200: json(s.Variables) },
    }),
    async (c) => {
      const { id, key } = await actionInput(c);
      return c.json(
        ok(
          await instances.writeVariables(
            deps,
            c.get('principal'),
            id,
            { delete: [c.req.valid('param').variableName] },
            key,
          ),
        ),
        200,
      );
    },
  );
  return r;
}
