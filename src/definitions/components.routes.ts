import { z } from '@hono/zod-openapi';
import { componentCatalogue } from '../../dsl/index.js';
import { chainComponentCatalogue } from '../../chains/index.js';
import { requestLocale } from '../http/locale.js';
import { json, ok } from '../http/envelope.js';
import { createRouter, defineRoute } from '../http/router.js';

const ComponentQuery = z.object({
  scope: z.enum(['bpm', 'rulechain']).openapi({
    param: { name: 'scope', in: 'query' },
    description:
      '`bpm`: process node types; `rulechain`: every rule-chain node and endpoint, its configuration form in RuleGo’s ComponentForm shape (labels in the caller’s language)',
  }),
});

const Component = z
  .object({
    type: z.string(),
    name: z.string(),
    description: z.string(),
    configSchema: z.unknown(),
    form: z
      .unknown()
      .optional()
      .openapi({ description: '`rulechain`: the node’s form in RuleGo’s ComponentForm shape' }),
  })
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
    (c) => {
      const { scope } = c.req.valid('query');
      const list = scope === 'rulechain' ? chainComponentCatalogue(requestLocale(c)) : componentCatalogue(scope);
      return c.json(ok(list as ReturnType<typeof componentCatalogue>), 200);
    },
  );
  return r;
}
