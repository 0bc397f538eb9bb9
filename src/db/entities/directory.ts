import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, tenantEntity } from './columns.js';

/**
 * What `q` on the row's list matches (src/directory/people-search.ts); null until a search fills it.
 * Not read with the row: only the search's SQL uses it.
 */
const searchText = () => p.string().nullable().hidden().lazy();

export const Tenant = defineEntity({
  name: 'Tenant',
  tableName: 'tenants',
  properties: {
    id: p.string().primary(),
    name: p.string(),
    /** The language of the tenant's messages when neither the reader nor their request names one (null: English). */
    defaultLocale: p.string().nullable(),
    createdAt: createdAt(),
  },
});

export const Role = tenantEntity('Role', 'roles', {
  code: p.string().primary(),
  name: p.string(),
  permissions: p.json<string[]>(),
  searchText: searchText(),
});

export const Department = tenantEntity('Department', 'departments', {
  id: p.string().primary(),
  name: p.string(),
  parentId: p.string().nullable(),
  leaderId: p.string().nullable(),
  searchText: searchText(),
});

export const User = tenantEntity('User', 'users', {
  id: p.string().primary(),
  username: p.string(),
  displayName: p.string(),
  /** Where the email channel sends (docs/channels.md). */
  email: p.string().nullable(),
  /** The language of the messages sent to them (`en`, `zh-CN`); the channel's when null. */
  locale: p.string().nullable(),
  passwordHash: p.string().hidden().lazy(),
  deptId: p.string().nullable(),
  managerId: p.string().nullable(),
  roles: p.json<string[]>(),
  active: p.boolean().default(true),
  searchText: searchText(),
});

export type ITenant = InferEntity<typeof Tenant>;
export type IRole = InferEntity<typeof Role>;
export type IDepartment = InferEntity<typeof Department>;
export type IUser = InferEntity<typeof User>;
