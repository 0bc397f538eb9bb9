import { z } from '@hono/zod-openapi';
import { IsoDate } from '../../shapes.js';
import { PageQuery } from '../../paging.js';

const Id = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.@-]+$/, 'letters, digits, _ . @ - only');

export const User = z
  .object({
    id: z.string(),
    username: z.string(),
    displayName: z.string(),
    deptId: z.string().nullable(),
    managerId: z.string().nullable(),
    roles: z.array(z.string()),
    active: z.boolean(),
    createdAt: IsoDate,
    updatedAt: IsoDate,
  })
  .openapi('User');

export const UserCreate = z
  .object({
    id: Id.optional(),
    username: z.string().min(1).max(200),
    displayName: z.string().min(1).max(200).optional(),
    password: z.string().min(4).max(1000),
    deptId: z.string().nullable().optional(),
    managerId: z.string().nullable().optional(),
    roles: z.array(z.string()).max(100).optional(),
    active: z.boolean().optional(),
  })
  .strict()
  .openapi('UserCreate');

export const UserPatch = UserCreate.omit({ id: true })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' })
  .openapi('UserPatch');

export const UserQuery = PageQuery.extend({
  deptId: z.string().optional(),
  role: z.string().optional(),
  q: z.string().optional(),
});

export const Department = z
  .object({ id: z.string(), name: z.string(), parentId: z.string().nullable(), leaderId: z.string().nullable() })
  .openapi('Department');

export const DepartmentCreate = z
  .object({
    id: Id.optional(),
    name: z.string().min(1).max(200),
    parentId: z.string().nullable().optional(),
    leaderId: z.string().nullable().optional(),
  })
  .strict()
  .openapi('DepartmentCreate');

export const DepartmentPatch = DepartmentCreate.omit({ id: true })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' })
  .openapi('DepartmentPatch');

export const DepartmentQuery = PageQuery.extend({ parentId: z.string().optional() });

export const Role = z.object({ code: z.string(), name: z.string(), permissions: z.array(z.string()) }).openapi('Role');

export const RoleCreate = z
  .object({
    code: Id,
    name: z.string().min(1).max(200).optional(),
    permissions: z.array(z.string().min(1)).max(200).optional(),
  })
  .strict()
  .openapi('RoleCreate');

export const RolePatch = RoleCreate.omit({ code: true })
  .partial()
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: 'send at least one field to change' })
  .openapi('RolePatch');

export const TenantCreate = z
  .object({
    id: Id,
    name: z.string().min(1).max(200),
    admin: z
      .object({
        username: z.string().min(1).max(200),
        password: z.string().min(4).max(1000),
        displayName: z.string().max(200).optional(),
      })
      .strict(),
  })
  .strict()
  .openapi('TenantCreate');

export const TenantCreated = z.object({ id: z.string(), name: z.string(), admin: User }).openapi('Tenant');

export const IdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
export const CodeParam = z.object({ code: z.string().openapi({ param: { name: 'code', in: 'path' } }) });
export const RoleQuery = PageQuery;
