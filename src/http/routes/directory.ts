// The directory (docs/contract.md): users, departments and roles are the same five CRUD routes
// over a table of schemas and service functions; tenants have only a create.
import { z } from '@hono/zod-openapi';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from '../../paging.js';
import * as directory from '../../services/directory.js';
import { handover } from '../../services/handover.js';
import { Permissions, SYSTEM_TENANT } from '../../services/permissions.js';
import { AppError } from '../../errors.js';
import { json, jsonBody, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { em, requirePermission } from '../middleware/auth.js';
import * as s from './directory.schemas.js';

const tags = ['directory'];
const Deleted = z.object({ deleted: z.literal(true) });

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
  const middleware = [requirePermission(Permissions.DIRECTORY_MANAGE)];
  const path = `/{${res.key}}`;
  const params = z.object({ [res.key]: z.string().openapi({ param: { name: res.key, in: 'path' } }) });
  const a = `a ${res.noun}`;
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/',
      tags,
      middleware,
      summary: `List ${res.noun}s`,
      request: { query: res.query },
      responses: { 200: json(page(res.view)) },
    }),
    async (c) => c.json(ok(await res.list(em(c), c.get('principal').tenantId, c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'get',
      path,
      tags,
      middleware,
      summary: `Get ${a}`,
      request: { params },
      responses: { 200: json(res.view) },
    }),
    async (c) =>
      c.json(ok(res.toView(await res.get(em(c), c.get('principal').tenantId, c.req.valid('param')[res.key]))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'post',
      path: '/',
      tags,
      middleware,
      summary: `Create ${a}`,
      request: { body: jsonBody(res.create) },
      responses: { 201: json(res.view, 'Created') },
    }),
    async (c) => c.json(ok(res.toView(await res.add(em(c), c.get('principal').tenantId, c.req.valid('json')))), 201),
  );
  r.openapi(
    defineRoute({
      method: 'patch',
      path,
      tags,
      middleware,
      summary: `Update ${a} (partial)`,
      request: { params, body: jsonBody(res.patch) },
      responses: { 200: json(res.view) },
    }),
    async (c) => {
      const p = c.get('principal');
      return c.json(
        ok(
          res.toView(await res.change(em(c), p.tenantId, c.req.valid('param')[res.key], c.req.valid('json'), p.userId)),
        ),
        200,
      );
    },
  );
  r.openapi(
    defineRoute({
      method: 'delete',
      path,
      tags,
      middleware,
      summary: `Delete ${a}${res.deleteNote ? ` (${res.deleteNote})` : ''}`,
      request: { params },
      responses: { 200: json(Deleted) },
    }),
    async (c) => {
      const p = c.get('principal');
      await res.remove(em(c), p.tenantId, c.req.valid('param')[res.key], p.userId);
      return c.json(ok({ deleted: true as const }), 200);
    },
  );
  return r;
}

/** The user routes, plus the handover of a leaver's work (workflow:admin; docs/task-actions.md#handing-over-a-leavers-work). */
export function userRoutes() {
  const r = resourceRoutes(users);
  r.openapi(
    defineRoute({
      method: 'post',
      path: '/{id}/handover',
      tags,
      middleware: [requirePermission(Permissions.ADMIN)],
      summary: "Hand over a user's open tasks, pool places and (optionally) started instances to another user",
      request: {
        params: z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) }),
        body: jsonBody(s.HandoverBody),
      },
      responses: { 200: json(s.HandoverResult) },
    }),
    async (c) =>
      c.json(ok(await handover(c.get('deps'), c.get('principal'), c.req.valid('param').id, c.req.valid('json'))), 200),
  );
  return r;
}
export const departmentRoutes = () => resourceRoutes(departments);
export const roleRoutes = () => resourceRoutes(roles);

export function tenantRoutes() {
  const r = createRouter();
  r.openapi(
    defineRoute({
      method: 'post',
      path: '/',
      tags: ['tenants'],
      middleware: [requirePermission(Permissions.ALL)],
      summary: 'Create a tenant with its admin role and first admin (needs * in the system tenant)',
      request: { body: jsonBody(s.TenantCreate) },
      responses: { 201: json(s.TenantCreated, 'Created') },
    }),
    async (c) => {
      if (c.get('principal').tenantId !== SYSTEM_TENANT)
        throw new AppError('FORBIDDEN', 'Only administrators of the system tenant create tenants');
      return c.json(ok(await directory.createTenant(em(c), c.req.valid('json'))), 201);
    },
  );
  return r;
}
