import * as functions from './service-functions.js';
import { Permissions } from '../permissions.js';
import { PageQuery } from '../paging.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import * as s from './service-functions.schemas.js';
import { deleteEndpoint } from '../http/shared-endpoints.js';

const tags = ['service-functions'];
const { ADMIN } = Permissions;
/** Designers read the catalogue to name functions; only workflow:admin changes it. */
const READERS = [Permissions.ADMIN, Permissions.DEFINITION_READ, Permissions.DEFINITION_WRITE];

/** `/api/v1/service-functions` — the tenant's catalogue plus the read-only built-ins. */
export function serviceFunctionRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: 'The built-ins (read-only) and the tenant’s service functions',
      permissions: READERS,
      query: PageQuery,
      response: page(s.ServiceFunction),
    },
    ({ principal, query, c }) => functions.listFunctions(em(c), principal.tenantId, query),
  );
  endpoint(
    r,
    {
      method: 'get',
      path: '/{name}',
      tags,
      summary: 'One service function by name',
      permissions: READERS,
      params: s.NameParam,
      response: s.ServiceFunction,
    },
    ({ principal, params, c }) => functions.getFunction(em(c), principal.tenantId, params.name),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/',
      tags,
      summary: 'Register a service function (a Temporal activity or a signed webhook)',
      permissions: [ADMIN],
      body: s.FunctionBody,
      status: 201,
      response: s.ServiceFunction,
      responseDescription: 'Created',
    },
    ({ principal: p, body, c }) => functions.createFunction(em(c), p.tenantId, p.userId, body),
  );
  endpoint(
    r,
    {
      method: 'put',
      path: '/{name}',
      tags,
      summary: 'Replace a service function (deployed definitions keep what they pinned)',
      permissions: [ADMIN],
      params: s.NameParam,
      body: s.FunctionUpdateBody,
      response: s.ServiceFunction,
    },
    ({ principal: p, params, body, c }) => functions.updateFunction(em(c), p.tenantId, p.userId, params.name, body),
  );
  deleteEndpoint(
    r,
    {
      path: '/{name}',
      tags,
      summary: 'Remove a service function (409 while an active definition uses it)',
      permissions: [ADMIN],
      params: s.NameParam,
    },
    ({ principal, params, c }) => functions.deleteFunction(em(c), principal.tenantId, params.name),
  );
  return r;
}
