// The directory (docs/contract.md): users, departments and roles are the same five CRUD routes
// over a table of schemas and service functions; tenants have only a create.
import { z } from '@hono/zod-openapi';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../paging.js';
import * as directory from './directory.js';
import { handover } from './handover.js';
import { Permissions, SYSTEM_TENANT } from '../permissions.js';
import { AppError } from '../errors.js';
import { page } from '../http/envelope.js';
import { createRouter, endpoint } from '../http/router.js';
import { em } from '../http/middleware/auth.js';
import * as s from './directory.schemas.js';
import { deleteEndpoint } from '../http/shared-endpoints.js';

const tags = ['directory'];

/** One directory resource: its schemas, what its delete refuses, and the service behind each route. */
interface Resource<E, V extends z.ZodType, C extends z.ZodType, P extends z.ZodType, Q extends z.ZodObject> {
  noun: string;
  /** The path parameter naming one (`id`, or `code` for roles). */
  key: 'id' | 'code';
  view: V;
  create: C;
  patch: P;
  query: Q;
  deleteNote?: string;
  toView(entity: E): z.infer<V>;
  list(em: EntityManager, tenantId: string, q: z.infer<Q>): Promise<Page<z.infer<V>>>;
  get(em: EntityManager, tenantId: string, key: string): Promise<E>;
  add(em: EntityManager, tenantId: string, body: z.infer<C>): Promise<E>;
  /** `actorId`: the caller, for the services that keep them from locking themselves out. */
  change(em: EntityManager, tenantId: string, key: string, body: z.infer<P>, actorId: string): Promise<E>;
  remove(em: EntityManager, tenantId: string, key: string, actorId: string): Promise<void>;
}

/** A resource with its types checked (each service against its schemas), then erased for the one generic router. */
type AnyResource = Resource<unknown, z.ZodType, z.ZodType, z.ZodType, z.ZodObject>;
const resource = <E, V extends z.ZodType, C extends z.ZodType, P extends z.ZodType, Q extends z.ZodObject>(
  res: Resource<E, V, C, P, Q>,
) => res as unknown as AnyResource;

const users = resource({
  noun: 'user',
  key: 'id',
  view: s.User,
  create: s.UserCreate,
  patch: s.UserPatch,
  query: s.UserQuery,
  toView: directory.userView,
  list: directory.listUsers,
  get: directory.getUser,
  add: directory.createUser,
  change: directory.updateUser,
  remove: directory.deleteUser,
});
const departments = resource({
  noun: 'department',
  key: 'id',
  view: s.Department,
  create: s.DepartmentCreate,
  patch: s.DepartmentPatch,
  query: s.DepartmentQuery,
  toView: directory.departmentView,
  list: directory.listDepartments,
  get: directory.getDepartment,
  add: directory.createDepartment,
  change: directory.updateDepartment,
  remove: directory.deleteDepartment,
  deleteNote: '409 while it has members or sub-departments',
});
const roles = resource({
  noun: 'role',
  key: 'code',
  view: s.Role,
  create: s.RoleCreate,
  patch: s.RolePatch,
  query: s.RoleQuery,
  toView: directory.roleView,
  list: directory.listRoles,
  get: directory.getRole,
  add: directory.createRole,
  change: directory.updateRole,
  remove: directory.deleteRole,
  deleteNote: '409 while users hold it',
});

/** List, get, create, patch and delete of one resource; all need system:directory:manage. */
function resourceRoutes(res: AnyResource) {
  const r = createRouter();
  const permissions = [Permissions.DIRECTORY_MANAGE];
  const path = `/{${res.key}}`;
  const params = z.object({ [res.key]: z.string().openapi({ param: { name: res.key, in: 'path' } }) });
  const a = `a ${res.noun}`;
  const keyOf = (p: Record<string, string>) => p[res.key]!;
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: `List ${res.noun}s`,
      permissions,
      query: res.query,
      response: page(res.view),
    },
    ({ principal, query, c }) => res.list(em(c), principal.tenantId, query),
  );
  endpoint(r, { method: 'get', path, tags, summary: `Get ${a}`, permissions, params, response: res.view }, async (i) =>
    res.toView(await res.get(em(i.c), i.principal.tenantId, keyOf(i.params))),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/',
      tags,
      summary: `Create ${a}`,
      permissions,
      body: res.create,
      status: 201,
      response: res.view,
      responseDescription: 'Created',
    },
    async ({ principal, body, c }) => res.toView(await res.add(em(c), principal.tenantId, body)),
  );
  endpoint(
    r,
    {
      method: 'patch',
      path,
      tags,
      summary: `Update ${a} (partial)`,
      permissions,
      params,
      body: res.patch,
      response: res.view,
    },
    async ({ principal: p, params: key, body, c }) =>
      res.toView(await res.change(em(c), p.tenantId, keyOf(key), body, p.userId)),
  );
  deleteEndpoint(
    r,
    { path, tags, summary: `Delete ${a}${res.deleteNote ? ` (${res.deleteNote})` : ''}`, permissions, params },
    ({ principal: p, params: key, c }) => res.remove(em(c), p.tenantId, keyOf(key), p.userId),
  );
  return r;
}

/** The user routes, plus the handover of a leaver's work (workflow:admin; docs/task-actions.md#handing-over-a-leavers-work). */
export function userRoutes() {
  const r = resourceRoutes(users);
  // No route takes POST /users/{id}: `batch` cannot be mistaken for a user's id.
  endpoint(
    r,
    {
      method: 'post',
      path: '/batch',
      tags,
      summary: `Create up to ${directory.MAX_USER_BATCH} users at once, all or none (an HR import)`,
      description:
        'Each user as POST /users takes it, checked the same way (a problem names `users.<i>.<field>`); a manager may be another user of the same call. Nothing is created unless all are. Users of one call sharing a password share its hash.',
      permissions: [Permissions.DIRECTORY_MANAGE],
      body: s.UserBatchCreate,
      status: 201,
      response: s.UserBatchCreated,
      responseDescription: 'Created',
    },
    async ({ principal, body, c }) => ({ ids: await directory.createUsers(em(c), principal.tenantId, body.users) }),
  );

  endpoint(
    r,
    {
      method: 'post',
      path: '/{id}/handover',
      tags,
      summary: "Hand over a user's open tasks, pool places and (optionally) started instances to another user",
      permissions: [Permissions.ADMIN],
      params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) }),
      body: s.HandoverBody,
      response: s.HandoverResult,
    },
    ({ principal, params, body, c }) => handover(c.get('deps'), principal, params.id, body),
  );
  return r;
}
export const departmentRoutes = () => resourceRoutes(departments);
export const roleRoutes = () => resourceRoutes(roles);

export function tenantRoutes() {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'post',
      path: '/',
      tags: ['tenants'],
      summary: 'Create a tenant with its admin role and first admin (needs * in the system tenant)',
      permissions: [Permissions.ALL],
      body: s.TenantCreate,
      status: 201,
      response: s.TenantCreated,
      responseDescription: 'Created',
    },
    ({ principal, body, c }) => {
      if (principal.tenantId !== SYSTEM_TENANT)
        throw new AppError('FORBIDDEN', 'Only administrators of the system tenant create tenants');
      return directory.createTenant(em(c), body);
    },
  );
  return r;
}
