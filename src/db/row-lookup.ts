import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager, EntityName, FilterQuery } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';

/** How to read the row: `forUpdate` locks it (inside a transaction). */
export interface RowLock {
  forUpdate?: boolean;
}

/**
 * The row `where` names, or NOT_FOUND `No <what>`. `forUpdate`: read afresh and locked until the
 * transaction `em` belongs to ends.
 */
export async function requireRow<E extends object>(
  em: EntityManager,
  entity: EntityName<E>,
  where: FilterQuery<NoInfer<E>>,
  what: string,
  { forUpdate = false }: RowLock = {},
): Promise<E> {
  const row = await em.findOne(entity, where, forUpdate ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : {});
  if (!row) throw new AppError('NOT_FOUND', `No ${what}`);
  return row;
}

/**
 * Flushes `em`; a unique index refusing the write (two creations of one name that raced past the
 * count before it) is ALREADY_EXISTS with `message`.
 */
export async function flushUnique(em: EntityManager, message: string): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw new AppError('ALREADY_EXISTS', message);
    throw err;
  }
}
