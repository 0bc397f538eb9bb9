// Column helpers shared by the entities. The migrations define the schema; these only describe it.
import { defineEntity, p } from '@mikro-orm/core';

/** created_at, set by the ORM on insert. */
export const createdAt = () => p.datetime().onCreate(() => new Date());

/** created_at and updated_at, set by the ORM on insert and update. */
export const timestamps = () => ({
  createdAt: createdAt(),
  updatedAt: p
    .datetime()
    .onCreate(() => new Date())
    .onUpdate(() => new Date()),
});

/**
 * An entity of a tenant's directory: keyed by (tenant_id, its own `properties`' primary key), with
 * created_at and updated_at.
 */
export function tenantEntity<
  const TName extends string,
  const TTableName extends string,
  const TProperties extends Record<string, any>,
>(name: TName, tableName: TTableName, properties: TProperties) {
  return defineEntity({
    name,
    tableName,
    properties: { tenantId: p.string().primary(), ...properties, ...timestamps() },
  });
}

/** A keyed, versioned document of a tenant (definitions, forms); `version` stays null while a draft. */
export const versionedColumns = <S extends string>() => ({
  id: p.string().primary(),
  tenantId: p.string(),
  key: p.string(),
  name: p.string(),
  version: p.integer().nullable(),
  status: p.string().$type<S>(),
  category: p.string().nullable(),
  description: p.string().nullable(),
});
