// The directory (docs/contract.md): users, departments and roles are the same five CRUD routes
// over a table of schemas and service functions; tenants have only a create.
import { z } from '@hono/zod-openapi';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../context.js';
import type { Page } from '../../paging.js';
import * as directory from '../../services/directory.js';
import { Permissions, SYSTEM_TENANT } from '../../services/permissions.js';
import { AppError } from '../../errors.js';
import { json, jsonBody, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { em, requirePermission } from '../middleware/auth.js';
import * as s from './directory.schemas.js';

const tags = ['directory'];
const Deleted = z.object({ deleted: z.literal(true) });

/** One directory resource: its schemas, what its delete refuses, and the service behind each route. */
interface Resource<V extends z.ZodType, C extends z.ZodType, P extends z.ZodType, Q extends z.ZodType> {
  noun: string;
  /** The path parameter naming one (`id`, or `code` for roles). */
  key: 'id' | 'code';
  view: V;
  create: C;
  patch: P;
  query: Q;
  deleteNote?: string;
  list(em: EntityManager, p: Principal, q: z.infer<Q>): Promise<Page<z.infer<V>>>;
  get(em: EntityManager, p: Principal, key: string): Promise<z.infer<V>>;
  add(em: EntityManager, p: Principal, body: z.infer<C>): Promise<z.infer<V>>;
  change(em: EntityManager, p: Principal, key: string, body: z.infer<P>): Promise<z.infer<V>>;
  remove(em: EntityManager, p: Principal, key: string): Promise<void>;
}

/** A resource with its types checked (each service against its schemas), then erased for the one generic router. */
type AnyResource = Resource<z.ZodType, z.ZodType, z.ZodType, z.ZodObject>;
const resource = <V extends z.ZodType, C extends z.ZodType, P extends z.ZodType, Q extends z.ZodObject>(res: Resource<V, C, P, Q>) => res as unknown as AnyResource;

const users = resource({
  noun: 'user', key: 'id', view: s.User, create: s.UserCreate, patch: s.UserPatch, query: s.UserQuery,
  list: (em, p, q) => directory.listUsers(em, p.tenantId, q),
  get: async (em, p, id) => directory.userView(await directory.getUser(em, p.tenantId, id)),
  add: async (em, p, body) => directory.userView(await directory.createUser(em, p.tenantId, body)),
  change: async (em, p, id, body) => directory.userView(await directory.updateUser(em, p.tenantId, id, body, p.userId)),
  remove: (em, p, id) => directory.deleteUser(em, p.tenantId, id, p.userId),
});

const departments = resource({
  noun: 'department', key: 'id', view: s.Department, create: s.DepartmentCreate, patch: s.DepartmentPatch, query: s.DepartmentQuery,
  deleteNote: '409 while it has members or sub-departments',
  list: (em, p, q) => directory.listDepartments(em, p.tenantId, q),
  get: async (em, p, id) => directory.departmentView(await directory.getDepartment(em, p.tenantId, id)),
  add: async (em, p, body) => directory.departmentView(await directory.createDepartment(em, p.tenantId, body)),
  change: async (em, p, id, body) => directory.departmentView(await directory.updateDepartment(em, p.tenantId, id, body)),
  remove: (em, p, id) => directory.deleteDepartment(em, p.tenantId, id),
});

const roles = resource({
  noun: 'role', key: 'code', view: s.Role, create: s.RoleCreate, patch: s.RolePatch, query: s.RoleQuery,
  deleteNote: '409 while users hold it',
  list: (em, p, q) => directory.listRoles(em, p.tenantId, q),
  get: async (em, p, code) => directory.roleView(await directory.getRole(em, p.tenantId, code)),
  add: async (em, p, body) => directory.roleView(await directory.createRole(em, p.tenantId, body)),
  change: async (em, p, code, body) => directory.roleView(await directory.updateRole(em, p.tenantId, code, body)),
  remove: (em, p, code) => directory.deleteRole(em, p.tenantId, code),
});

/** List, get, create, patch and delete of one resource; all need system:directory:manage. */
function resourceRoutes(res: AnyResource) {
  const r = createRouter();
  const middleware = [requirePermission(Permissions.DIRECTORY_MANAGE)];
  const path = `/{${res.key}}`;
  const params = z.object({ [res.key]: z.string().openapi({ param: { name: res.key, in: 'path' } }) });
  const a = `a ${res.noun}`;
  r.openapi(
    defineRoute({ method: 'get', path: '/', tags, middleware, summary: `List ${res.noun}s`, request: { query: res.query }, responses: { 200: json(page(res.view)) } }),
    async (c) => c.json(ok(await res.list(em(c), c.get('principal'), c.req.valid('query'))), 200),
  );
  r.openapi(
    defineRoute({ method: 'get', path, tags, middleware, summary: `Get ${a}`, request: { params }, responses: { 200: json(res.view) } }),
    async (c) => c.json(ok(await res.get(em(c), c.get('principal'), c.req.valid('param')[res.key])), 200),
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/', tags, middleware, summary: `Create ${a}`, request: { body: jsonBody(res.create) }, responses: { 201: json(res.view, 'Created') } }),
    async (c) => c.json(ok(await res.add(em(c), c.get('principal'), c.req.valid('json'))), 201),
  );
  r.openapi(
    defineRoute({ method: 'patch', path, tags, middleware, summary: `Update ${a} (partial)`, request: { params, body: jsonBody(res.patch) }, responses: { 200: json(res.view) } }),
    async (c) => c.json(ok(await res.change(em(c), c.get('principal'), c.req.valid('param')[res.key], c.req.valid('json'))), 200),
  );
  r.openapi(
    defineRoute({ method: 'delete', path, tags, middleware, summary: `Delete ${a}${res.deleteNote ? ` (${res.deleteNote})` : ''}`, request: { params }, responses: { 200: json(Deleted) } }),
    async (c) => {
      await res.remove(em(c), c.get('principal'), c.req.valid('param')[res.key]);
      return c.json(ok({ deleted: true as const }), 200);
    },
  );
  return r;
}

export const userRoutes = () => resourceRoutes(users);
export const departmentRoutes = () => resourceRoutes(departments);
export const roleRoutes = () => resourceRoutes(roles);

export function tenantRoutes() {
  const r = createRouter();
  r.openapi(
    defineRoute({ method: 'post', path: '/', tags: ['tenants'], middleware: [requirePermission(Permissions.ALL)], summary: 'Create a tenant with its admin role and first admin (needs * in the system tenant)', request: { body: jsonBody(s.TenantCreate) }, responses: { 201: json(s.TenantCreated, 'Created') } }),
    async (c) => {
      if (c.get('principal').tenantId !== SYSTEM_TENANT) throw new AppError('FORBIDDEN', 'Only administrators of the system tenant create tenants');
      return c.json(ok(await directory.createTenant(em(c), c.req.valid('json'))), 201);
    },
  );
  return r;
}
