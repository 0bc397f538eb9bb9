// Pages of an entity's rows read through the ORM (the read model's SQL pages are read-model.ts's).
import type { EntityManager, EntityName } from '@mikro-orm/postgresql';
import type { Page, PageOpts } from '../paging.js';

/** A page reader for `entity`: the rows `where` selects in `orderBy` order, each answered by `view`. */
export function entityPages<E extends object, V>(entity: EntityName<E>, view: (row: E) => V) {
  return async (em: EntityManager, where: object, orderBy: object, opts: PageOpts): Promise<Page<V>> => {
    const [items, total] = await em.findAndCount(entity, where as any, {
      orderBy: orderBy as any,
      limit: opts.pageSize,
      offset: (opts.page - 1) * opts.pageSize,
    });
    return { items: items.map(view), total, page: opts.page, pageSize: opts.pageSize };
  };
}
