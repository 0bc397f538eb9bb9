import { p, type InferEntity } from '@mikro-orm/core';
import { versionedEntity } from './columns.js';

export const FormStatuses = ['draft', 'published', 'retired'] as const;

/** One version (or draft) of a stored form; a version is released when published. */
export const StoredForm = versionedEntity('StoredForm', 'forms', {
  statuses: FormStatuses,
  content: { schema: p.json<Record<string, unknown>>() },
  releasedAt: 'publishedAt',
});

export type IStoredForm = InferEntity<typeof StoredForm>;
