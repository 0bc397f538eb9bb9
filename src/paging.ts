// Paging, shared by the list routes (query and response) and the services that page.
import { z } from '@hono/zod-openapi';

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
    .max(200)
    .default(20)
    .openapi({ param: { name: 'pageSize', in: 'query' } }),
});

/** Which page of a list: 1-based page number and its size. */
export type PageOpts = z.infer<typeof PageQuery>;

export interface Page<T> extends PageOpts {
  items: T[];
  total: number;
}
