import { z } from '@hono/zod-openapi';
import * as directory from '../../services/directory.js';
import { Permissions, SYSTEM_TENANT } from '../../services/permissions.js';
import { AppError } from '../../errors.js';
import { json, jsonBody, ok, page } from '../envelope.js';
import { createRouter, defineRoute } from '../router.js';
import { em, need } from '../middleware/auth.js';
import * as s from './directory.schemas.js';

const tags = ['directory'];
const Deleted = z.object({ deleted: z.literal(true) });

export function userRoutes() {
  const r = createRouter();
  r.openapi(
    defineRoute({ method: 'get', path: '/', tags, summary: 'List users', request: { query: s.UserQuery }, responses: { 200: json(page(s.User)) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(await directory.listUsers(em(c), p.tenantId, c.req.valid('query'))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'get', path: '/{id}', tags, summary: 'Get a user', request: { params: s.IdParam }, responses: { 200: json(s.User) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.userView(await directory.getUser(em(c), p.tenantId, c.req.valid('param').id))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/', tags, summary: 'Create a user', request: { body: jsonBody(s.UserCreate) }, responses: { 201: json(s.User, 'Created') } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.userView(await directory.createUser(em(c), p.tenantId, c.req.valid('json')))), 201);
    },
  );
  r.openapi(
    defineRoute({ method: 'patch', path: '/{id}', tags, summary: 'Update a user (partial)', request: { params: s.IdParam, body: jsonBody(s.UserPatch) }, responses: { 200: json(s.User) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.userView(await directory.updateUser(em(c), p.tenantId, c.req.valid('param').id, c.req.valid('json'), p.userId))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'delete', path: '/{id}', tags, summary: 'Delete a user', request: { params: s.IdParam }, responses: { 200: json(Deleted) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      await directory.deleteUser(em(c), p.tenantId, c.req.valid('param').id, p.userId);
      return c.json(ok({ deleted: true as const }), 200);
    },
  );
  return r;
}

export function departmentRoutes() {
  const r = createRouter();
  r.openapi(
    defineRoute({ method: 'get', path: '/', tags, summary: 'List departments', request: { query: s.DepartmentQuery }, responses: { 200: json(page(s.Department)) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(await directory.listDepartments(em(c), p.tenantId, c.req.valid('query'))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'get', path: '/{id}', tags, summary: 'Get a department', request: { params: s.IdParam }, responses: { 200: json(s.Department) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.departmentView(await directory.getDepartment(em(c), p.tenantId, c.req.valid('param').id))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/', tags, summary: 'Create a department', request: { body: jsonBody(s.DepartmentCreate) }, responses: { 201: json(s.Department, 'Created') } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.departmentView(await directory.createDepartment(em(c), p.tenantId, c.req.valid('json')))), 201);
    },
  );
  r.openapi(
    defineRoute({ method: 'patch', path: '/{id}', tags, summary: 'Update a department (partial)', request: { params: s.IdParam, body: jsonBody(s.DepartmentPatch) }, responses: { 200: json(s.Department) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.departmentView(await directory.updateDepartment(em(c), p.tenantId, c.req.valid('param').id, c.req.valid('json')))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'delete', path: '/{id}', tags, summary: 'Delete a department (409 while it has members or sub-departments)', request: { params: s.IdParam }, responses: { 200: json(Deleted) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      await directory.deleteDepartment(em(c), p.tenantId, c.req.valid('param').id);
      return c.json(ok({ deleted: true as const }), 200);
    },
  );
  return r;
}

export function roleRoutes() {
  const r = createRouter();
  r.openapi(
    defineRoute({ method: 'get', path: '/', tags, summary: 'List roles', request: { query: s.DepartmentQuery.pick({ page: true, pageSize: true }) }, responses: { 200: json(page(s.Role)) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(await directory.listRoles(em(c), p.tenantId, c.req.valid('query'))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'get', path: '/{code}', tags, summary: 'Get a role', request: { params: s.CodeParam }, responses: { 200: json(s.Role) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.roleView(await directory.getRole(em(c), p.tenantId, c.req.valid('param').code))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'post', path: '/', tags, summary: 'Create a role', request: { body: jsonBody(s.RoleCreate) }, responses: { 201: json(s.Role, 'Created') } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.roleView(await directory.createRole(em(c), p.tenantId, c.req.valid('json')))), 201);
    },
  );
  r.openapi(
    defineRoute({ method: 'patch', path: '/{code}', tags, summary: 'Update a role (partial)', request: { params: s.CodeParam, body: jsonBody(s.RolePatch) }, responses: { 200: json(s.Role) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      return c.json(ok(directory.roleView(await directory.updateRole(em(c), p.tenantId, c.req.valid('param').code, c.req.valid('json')))), 200);
    },
  );
  r.openapi(
    defineRoute({ method: 'delete', path: '/{code}', tags, summary: 'Delete a role (409 while users hold it)', request: { params: s.CodeParam }, responses: { 200: json(Deleted) } }),
    async (c) => {
      const p = need(c, Permissions.DIRECTORY_MANAGE);
      await directory.deleteRole(em(c), p.tenantId, c.req.valid('param').code);
      return c.json(ok({ deleted: true as const }), 200);
    },
  );
  return r;
}

export function tenantRoutes() {
  const r = createRouter();
  r.openapi(
    defineRoute({ method: 'post', path: '/', tags: ['tenants'], summary: 'Create a tenant with its admin role and first admin (needs * in the system tenant)', request: { body: jsonBody(s.TenantCreate) }, responses: { 201: json(s.TenantCreated, 'Created') } }),
    async (c) => {
      const p = need(c, Permissions.ALL);
      if (p.tenantId !== SYSTEM_TENANT) throw new AppError('FORBIDDEN', 'Only administrators of the system tenant create tenants');
      return c.json(ok(await directory.createTenant(em(c), c.req.valid('json'))), 201);
    },
  );
  return r;
}
