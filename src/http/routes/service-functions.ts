import * as functions from '../../services/service-functions.js';
import { Permissions } from '../../services/permissions.js';
import { PageQuery } from '../../paging.js';
import { json, jsonBody, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { em, requirePermission } from '../middleware/auth.js';
import * as s from './service-functions.schemas.js';

const tags = ['service-functions'];
const { ADMIN } = Permissions;
/** Designers read the catalogue to name functions; only workflow:admin changes it. */
const READERS = [Permissions.ADMIN, Permissions.DEFINITION_READ, Permissions.DEFINITION_WRITE];

/** `/api/v1/service-functions` — the tenant's catalogue plus the read-only built-ins. */
export function serviceFunctionRoutes() {
  const r = createRouter();
  r.openapi(
    defineRoute({
      middleware: [requirePermission(...READERS)],
      method: 'get',
      path: '/',
      tags,
      summary: 'The built-ins (read-only) and the tenant’s service functions',
      request: { query: PageQuery },
      responses: { 200: json(page(s.ServiceFunction)) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(await functions.listFunctions(em(c), p.tenantId, c.req.valid('query'))), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(...READERS)],
      method: 'get',
      path: '/{name}',
      tags,
      summary: 'One service function by name',
      request: { params: s.NameParam },
      responses: { 200: json(s.ServiceFunction) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(await functions.getFunction(em(c), p.tenantId, c.req.valid('param').name)), 200);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(ADMIN)],
      method: 'post',
      path: '/',
      tags,
      summary: 'Register a service function (a Temporal activity or a signed webhook)',
      request: { body: jsonBody(s.FunctionBody) },
      responses: { 201: json(s.ServiceFunction, 'Created') },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(ok(await functions.createFunction(em(c), p.tenantId, p.userId, c.req.valid('json'))), 201);
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(ADMIN)],
      method: 'put',
      path: '/{name}',
      tags,
      summary: 'Replace a service function (deployed definitions keep what they pinned)',
      request: { params: s.NameParam, body: jsonBody(s.FunctionUpdateBody) },
      responses: { 200: json(s.ServiceFunction) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(
        ok(await functions.updateFunction(em(c), p.tenantId, p.userId, c.req.valid('param').name, c.req.valid('json'))),
        200,
      );
    },
  );
  r.openapi(
    defineRoute({
      middleware: [requirePermission(ADMIN)],
      method: 'delete',
      path: '/{name}',
      tags,
      summary: 'Remove a service function (409 while an active definition uses it)',
      request: { params: s.NameParam },
      responses: { 200: json(s.Deleted) },
    }),
    async (c) => {
      const p = c.get('principal');
      await functions.deleteFunction(em(c), p.tenantId, c.req.valid('param').name);
      return c.json(ok({ deleted: true as const }), 200);
    },
  );
  return r;
}
