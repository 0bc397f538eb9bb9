// Paging, shared by the list routes (query and response) and the services that page.
import { z } from '@hono/zod-openapi';

/** The page size when a request names none, and the largest a request may ask for. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 200;

export const PageQuery = z.object({
  // .int() already refuses unsafe integers; .max() publishes that bound in the OpenAPI document.
  page: z.coerce
    .number()
    .int()
    .min(1)
    .max(Number.MAX_SAFE_INTEGER)
    .default(1)
    .openapi({ param: { name: 'page', in: 'query' } }),
  pageSize: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE)
    .openapi({ param: { name: 'pageSize', in: 'query' } }),
});

/** Which page of a list: 1-based page number and its size. */
export type PageOpts = z.infer<typeof PageQuery>;

export interface Page<T> extends PageOpts {
  items: T[];
  total: number;
}
