import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const Tenant = defineEntity({
  name: 'Tenant',
  tableName: 'tenants',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export const Role = defineEntity({
  name: 'Role',
  tableName: 'roles',
  properties: {
    tenantId: p.string().primary(),
    code: p.string().primary(),
    name: p.string(),
    permissions: p.json<string[]>(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export const Department = defineEntity({
  name: 'Department',
  tableName: 'departments',
  properties: {
    tenantId: p.string().primary(),
    id: p.string().primary(),
    name: p.string(),
    parentId: p.string().nullable(),
    leaderId: p.string().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    tenantId: p.string().primary(),
    id: p.string().primary(),
    username: p.string(),
    displayName: p.string(),
    passwordHash: p.string().hidden().lazy(),
    deptId: p.string().nullable(),
    managerId: p.string().nullable(),
    roles: p.json<string[]>(),
    active: p.boolean().default(true),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});

export type ITenant = InferEntity<typeof Tenant>;
export type IRole = InferEntity<typeof Role>;
export type IDepartment = InferEntity<typeof Department>;
export type IUser = InferEntity<typeof User>;
