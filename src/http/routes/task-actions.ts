// The approver's toolbox (docs/contract.md#action-rules, docs/task-actions.md): every task action beyond approve/reject/complete,
// plus candidates, task variables, comments and deleting closed tasks. Mounted at
// /api/v1/workflow/tasks beside the task queries router.
import type { z } from '@hono/zod-openapi';
import * as m from '../../../workflows/messages.js';
import * as tasks from '../../services/tasks.js';
import * as toolbox from '../../services/task-toolbox.js';
import { Permissions } from '../../services/permissions.js';
import { json, jsonBody, ok, page, PageQuery } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { need } from '../middleware/auth.js';
import { ActionResult, IdParam } from './tasks.schemas.js';
import * as s from './task-actions.schemas.js';
import { idempotency, IdempotencyHeaders } from '../idempotency.js';
import type { AppDeps } from '../context.js';

const tags = ['tasks'];
const optionalBody = <T>(schema: T) => ({ required: false, content: { 'application/json': { schema } } }) as any;

export function taskActionRoutes(deps: AppDeps) {
  const r = createRouter();
  const bodyOf = <T>(c: any): Partial<T> => (c.req.valid('json') ?? {}) as Partial<T>;
  const idOf = (c: any) => c.req.valid('param').id as string;

  // Registered before the /{id}/... routes.
  r.openapi(
    defineRoute({ method: 'post', path: '/urge/{id}', tags, summary: 'Urge: notify the current handlers (initiator or workflow:monitor; once per task per 10 minutes)', request: { params: IdParam, headers: IdempotencyHeaders, body: optionalBody(s.UrgeBody) }, responses: { 200: json(ActionResult) } }),
    async (c) => {
      const p = need(c, Permissions.OPERATE, Permissions.MONITOR);
      return c.json(ok(await tasks.taskAction(deps, p, idOf(c), m.urge, bodyOf<z.infer<typeof s.UrgeBody>>(c), await idempotency(c, bodyOf(c)))), 200);
    },
  );

  // Actions whose body goes to the workflow as it is.
  const plain = [
    ['claim', m.claim, s.EmptyBody, 'Claim a pending task (a candidate)', [Permissions.OPERATE]],
    ['unclaim', m.unclaim, s.EmptyBody, 'Unclaim: back to the pool (the claimer)', [Permissions.OPERATE]],
    ['resolve', m.resolve, s.EmptyBody, 'Resolve a delegation: the task returns to the owner (delegatee or owner)', [Permissions.OPERATE]],
    ['withdraw', m.withdrawTask, s.ReasonBody, 'Withdraw the application this task belongs to (initiator)', [Permissions.OPERATE]],
    ['suspend', m.suspendTask, s.ReasonBody, 'Suspend the task (initiator with switch suspend, or workflow:instance:manage)', [Permissions.OPERATE, Permissions.INSTANCE_MANAGE]],
    ['activate', m.activateTask, s.ReasonBody, 'Resume a suspended task', [Permissions.OPERATE, Permissions.INSTANCE_MANAGE]],
  ] as const;
  for (const [path, def, schema, summary, perms] of plain) {
    r.openapi(
      defineRoute({ method: 'post', path: `/{id}/${path}`, tags, summary, request: { params: IdParam, headers: IdempotencyHeaders, body: optionalBody(schema) }, responses: { 200: json(ActionResult) } }),
      async (c) => {
        const p = need(c, ...perms);
        return c.json(ok(await tasks.taskAction(deps, p, idOf(c), def, bodyOf<m.TaskActionInput>(c), await idempotency(c, bodyOf(c)))), 200);
      },
    );
  }

  r.openapi(
    defineRoute({ method: 'post', path: '/{id}/return', tags, summary: 'Return to the most recently completed approval node before this one', request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.ReturnBody) }, responses: { 200: json(ActionResult) } }),
    async (c) => {
      const p = need(c, Permissions.OPERATE);
      return c.json(ok(await tasks.taskAction(deps, p, idOf(c), m.returnTask, c.req.valid('json'), await idempotency(c, bodyOf(c)))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/{id}/reduce-sign', tags, summary: 'Remove signers who have not acted (answer lists removed and kept)', request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.ReduceSignBody) }, responses: { 200: json(ActionResult) } }),
    async (c) => {
      const p = need(c, Permissions.OPERATE);
      return c.json(ok(await tasks.taskAction(deps, p, idOf(c), m.reduceSign, c.req.valid('json'), await idempotency(c, bodyOf(c)))), 200);
    },
  );

  // Actions that name people: they must exist in the directory.
  for (const [path, def, summary] of [
    ['transfer', m.transfer, 'Transfer the task to another user for good'],
    ['delegate', m.delegate, 'Delegate: the same task goes to the delegatee and returns to you after they decide'],
  ] as const) {
    r.openapi(
      defineRoute({ method: 'post', path: `/{id}/${path}`, tags, summary, request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.AssigneeBody) }, responses: { 200: json(ActionResult) } }),
      async (c) => {
        const p = need(c, Permissions.OPERATE);
        return c.json(ok(await toolbox.actWithPeople(deps, p, idOf(c), def, c.req.valid('json'), await idempotency(c, bodyOf(c)))), 200);
      },
    );
  }
  r.openapi(
    defineRoute({ method: 'post', path: '/{id}/add-sign', tags, summary: 'Add signers (position before (default), after or parallel)', request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.AddSignBody) }, responses: { 200: json(ActionResult) } }),
    async (c) => {
      const p = need(c, Permissions.OPERATE);
      return c.json(ok(await toolbox.actWithPeople(deps, p, idOf(c), m.addSign, c.req.valid('json'), await idempotency(c, bodyOf(c)))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/{id}/reassign', tags, summary: 'Reassign an active or pending task (workflow:admin)', request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.AssigneeBody) }, responses: { 200: json(ActionResult) } }),
    async (c) => {
      const p = need(c, Permissions.ADMIN);
      return c.json(ok(await toolbox.reassign(deps, p, idOf(c), c.req.valid('json'), await idempotency(c, bodyOf(c)))), 200);
    },
  );

  // Candidates
  r.openapi(
    defineRoute({ method: 'get', path: '/{id}/candidates', tags, summary: 'Candidates of the task (users, roles, departments)', request: { params: IdParam, query: PageQuery }, responses: { 200: json(page(s.Candidate)) } }),
    async (c) => c.json(ok(await toolbox.listCandidates(deps, c.get('principal'), idOf(c), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/{id}/candidates', tags, summary: 'Add candidates to a pending pool (workflow:admin)', request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.CandidatesBody) }, responses: { 200: json(ActionResult) } }),
    async (c) => {
      const p = need(c, Permissions.ADMIN);
      return c.json(ok(await toolbox.changeCandidates(deps, p, idOf(c), 'add', c.req.valid('json'), await idempotency(c, bodyOf(c)))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/{id}/candidates/remove', tags, summary: 'Remove candidates from a pending pool (workflow:admin or the initiator)', request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.CandidatesBody) }, responses: { 200: json(ActionResult) } }),
    async (c) => {
      const p = need(c, Permissions.ADMIN, Permissions.OPERATE);
      return c.json(ok(await toolbox.changeCandidates(deps, p, idOf(c), 'remove', c.req.valid('json'), await idempotency(c, bodyOf(c)))), 200);
    },
  );

  // Task variables
  r.openapi(
    defineRoute({ method: 'get', path: '/{id}/variables', tags, summary: 'Task variables (hidden fields left out)', request: { params: IdParam }, responses: { 200: json(s.TaskVariables) } }),
    async (c) => c.json(ok(await toolbox.listTaskVariables(deps, c.get('principal'), idOf(c))), 200),
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/{id}/variables', tags, summary: 'Set several task variables (merge; the node\'s formPermissions apply)', request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.SetVariablesBody) }, responses: { 200: json(s.TaskVariables) } }),
    async (c) => {
      const p = need(c, Permissions.OPERATE);
      return c.json(ok(await toolbox.writeTaskVariables(deps, p, idOf(c), { set: c.req.valid('json').variables }, await idempotency(c, bodyOf(c)))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'put', path: '/{id}/variables/{variableName}', tags, summary: 'Update one task variable', request: { params: s.VariableParam, headers: IdempotencyHeaders, body: jsonBody(s.ValueBody) }, responses: { 200: json(s.TaskVariables) } }),
    async (c) => {
      const p = need(c, Permissions.OPERATE);
      const { id, variableName } = c.req.valid('param');
      return c.json(ok(await toolbox.writeTaskVariables(deps, p, id, { set: { [variableName]: c.req.valid('json').value ?? null } }, await idempotency(c, bodyOf(c)))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'delete', path: '/{id}/variables/{variableName}', tags, summary: 'Delete one task variable', request: { params: s.VariableParam, headers: IdempotencyHeaders }, responses: { 200: json(s.TaskVariables) } }),
    async (c) => {
      const p = need(c, Permissions.OPERATE);
      const { id, variableName } = c.req.valid('param');
      return c.json(ok(await toolbox.writeTaskVariables(deps, p, id, { delete: [variableName] }, await idempotency(c, bodyOf(c)))), 200);
    },
  );

  // Comments
  r.openapi(
    defineRoute({ method: 'get', path: '/{id}/comments', tags, summary: 'Comments on the task, oldest first', request: { params: IdParam, query: PageQuery }, responses: { 200: json(page(s.Comment)) } }),
    async (c) => c.json(ok(await toolbox.listComments(deps, c.get('principal'), idOf(c), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/{id}/comments', tags, summary: 'Add a comment (participants; node switch addComment)', request: { params: IdParam, headers: IdempotencyHeaders, body: jsonBody(s.CommentBody) }, responses: { 201: json(s.Comment, 'Created') } }),
    async (c) => {
      const p = need(c, Permissions.OPERATE);
      return c.json(ok(await toolbox.addComment(deps, p, idOf(c), c.req.valid('json').comment, await idempotency(c, bodyOf(c)))), 201);
    },
  );

  r.openapi(
    defineRoute({ method: 'delete', path: '/{id}', tags, summary: 'Delete a closed task (workflow:admin); a live task is 409', request: { params: IdParam }, responses: { 200: json(s.Deleted) } }),
    async (c) => {
      const p = need(c, Permissions.ADMIN);
      return c.json(ok(await toolbox.deleteTask(deps, p, idOf(c))), 200);
    },
  );
  return r;
}
