import { z } from '@hono/zod-openapi';
import { componentCatalogue } from '../../dsl/index.js';
import { json, ok } from '../http/envelope.js';
import { createRouter, defineRoute } from '../http/router.js';

const ComponentQuery = z.object({
  scope: z.enum(['bpm', 'rulechain']).openapi({
    param: { name: 'scope', in: 'query' },
    description: '`bpm`: process node types; `rulechain`: rule-chain components',
  }),
});

const Component = z
  .object({ type: z.string(), name: z.string(), description: z.string(), configSchema: z.unknown() })
  .openapi('Component');

/** `/api/v1/components`: the node types a designer may place, with their configuration schema. */
export function componentRoutes() {
  const r = createRouter();
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/',
      tags: ['components'],
      summary: 'Component listing for a scope',
      request: { query: ComponentQuery },
      responses: { 200: json(Component.array()) },
    }),
    (c) => c.json(ok(componentCatalogue(c.req.valid('query').scope)), 200),
  );
  return r;
}
