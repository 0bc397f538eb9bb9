// What process definitions and stored forms share: a tenant's catalogue of keyed documents with
// drafts and numbered versions, listed by key, name, category and status, newest first.
import { randomUUID } from 'node:crypto';
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import type { PageOpts } from '../paging.js';
import { entityPages } from '../db/entity-pages.js';

export interface CatalogueFilter {
  key?: string;
  name?: string;
  category?: string;
  status?: string;
  /** Words anywhere in the name, key, category or description (case-insensitive). */
  q?: string;
}

/** The columns every catalogue row answers, before and after its document (`dsl`, `schema`). */
export const catalogueColumns = {
  before: ['id', 'key', 'name', 'version?', 'status', 'category?', 'description?'],
  after: ['createdBy?', 'createdAt', 'updatedAt'],
} as const;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, '\\$&');

/**
 * One catalogue's queries: `noun` names it in 404s, `view` shapes each row, `published` is the
 * column of its publication date.
 */
export function versionedCatalogue<E extends object, V>(
  entity: EntityName<E>,
  noun: string,
  view: (row: E) => V,
  published: keyof E & string,
) {
  const paged = entityPages(entity, view);
  const versionsOf = (em: EntityManager, tenantId: string, key: string, opts: PageOpts) =>
    paged(em, { tenantId, key, version: { $ne: null } }, { version: 'desc' }, opts);
  return {
    /** Drafts and versions, newest first (the name matches anywhere in it, case-insensitively). */
    list(em: EntityManager, tenantId: string, opts: PageOpts & CatalogueFilter) {
      const where: Record<string, unknown> = { tenantId };
      if (opts.key) where.key = opts.key;
      if (opts.name) where.name = { $ilike: `%${likeEscape(opts.name)}%` };
      if (opts.category) where.category = opts.category;
      if (opts.status) where.status = opts.status;
      // Each word must appear in one of the columns: "leave hr" finds "HR leave request".
      const words = opts.q?.trim().split(/\s+/).filter(Boolean) ?? [];
      if (words.length)
        where.$and = words.map((w) => ({
          $or: ['name', 'key', 'category', 'description'].map((col) => ({ [col]: { $ilike: `%${likeEscape(w)}%` } })),
        }));
      return paged(em, where, { createdAt: 'desc', id: 'asc' }, opts);
    },
    /** The versions of a key, newest first (drafts have no version and are left out); 404 for an unknown key. */
    async versionsByKey(em: EntityManager, tenantId: string, key: string, opts: PageOpts) {
      if (!(await em.count(entity, { tenantId, key } as any))) throw new AppError('NOT_FOUND', `No ${noun} ${key}`);
      return versionsOf(em, tenantId, key, opts);
    },
    versionsOf,
    /** A new draft of `columns` (its key, names and document): no version until it is published. */
    async insertDraft(em: EntityManager, tenantId: string, userId: string, columns: object): Promise<E> {
      const row = em.create(entity, {
        id: randomUUID(),
        tenantId,
        ...columns,
        version: null,
        status: 'draft',
        createdBy: userId,
        updatedBy: userId,
        [published]: null,
      } as any);
      await em.flush();
      return row;
    },
  };
}
