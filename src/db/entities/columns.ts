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

const releaseStamp = () => p.datetime().nullable();

/**
 * A keyed, versioned document of a tenant (definitions, forms); `version` stays null while a draft. `statuses` types
 * `status`, `content` is the document's own properties and `releasedAt` the one that stamps a version's release.
 */
export function versionedEntity<
  const TName extends string,
  const TTableName extends string,
  const TStatus extends string,
  const TContent extends Record<string, any>,
  const TReleasedAt extends string,
>(
  name: TName,
  tableName: TTableName,
  { content, releasedAt }: { statuses: readonly TStatus[]; content: TContent; releasedAt: TReleasedAt },
) {
  return defineEntity({
    name,
    tableName,
    properties: {
      id: p.string().primary(),
      tenantId: p.string(),
      key: p.string(),
      name: p.string(),
      version: p.integer().nullable(),
      status: p.string().$type<TStatus>(),
      category: p.string().nullable(),
      description: p.string().nullable(),
      ...content,
      createdBy: p.string().nullable(),
      updatedBy: p.string().nullable(),
      ...timestamps(),
      ...({ [releasedAt]: releaseStamp() } as Record<TReleasedAt, ReturnType<typeof releaseStamp>>),
    },
  });
}
