// A versioned catalogue's row and list query (process definitions, stored forms): the columns and
// filters they share, with each one's statuses, document and publication date.
import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';
import { PageQuery } from '../paging.js';

type Statuses = readonly [string, ...string[]];

/** A row: the shared columns, `document` (after `description`) and `published`, its date, last. */
export function catalogueRow<const S extends Statuses, D extends z.ZodRawShape, P extends z.ZodRawShape>(
  statuses: S,
  document: D,
  published: P,
) {
  return z.object({
    id: z.string(),
    key: z.string(),
    name: z.string(),
    version: z.number().int().nullable().openapi({ description: 'null while a draft' }),
    status: z.enum(statuses),
    category: z.string().nullable(),
    description: z.string().nullable(),
    ...document,
    createdBy: z.string().nullable(),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    ...published,
  });
}

/** The list query: a page of rows filtered by key, name (a substring), category and status. */
export function catalogueQuery<const S extends Statuses>(statuses: S) {
  return PageQuery.extend({
    key: z.string().optional(),
    name: z.string().optional().openapi({ description: 'Case-insensitive substring' }),
    category: z.string().optional(),
    status: z.enum(statuses).optional(),
    q: z.string().max(200).optional().openapi({
      description:
        'Search text: every word (case-insensitive) in the name, key, category or description; the list search box sends it',
    }),
  });
}
