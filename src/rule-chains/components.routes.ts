// `${RULE_ENGINE_PREFIX}/api/v1/components`: the nodes and endpoints a chain may hold, each as
// RuleGo's ComponentForm (fields, types, defaults, labels in the caller's language).
import { z } from '@hono/zod-openapi';
import { componentForms } from '../../chains/index.js';
import { requestLocale } from '../http/locale.js';
import { rawJson, ruleGoRoute, ruleGoRouter } from './rulego-http.js';

const ComponentForm = z
  .object({
    type: z.string(),
    category: z.string().optional(),
    label: z.string().optional(),
    desc: z.string().optional(),
    relationTypes: z.array(z.string()).nullable().optional(),
    fields: z.array(z.record(z.string(), z.unknown())),
  })
  .catchall(z.unknown())
  .openapi('RuleGoComponentForm');

const Components = z
  .object({
    endpoints: z.array(ComponentForm),
    nodes: z.array(ComponentForm),
    tools: z.null(),
    builtins: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'RuleGo’s processors, node pool and globals: none here' }),
  })
  .openapi('RuleGoComponents');

/** component:read → any signed-in user. */
export function ruleGoComponentRoutes() {
  const r = ruleGoRouter();
  r.openapi(
    ruleGoRoute({
      method: 'get',
      path: '/',
      tags: ['rule chains'],
      summary: 'The chain components (RuleGo’s ComponentForm), in the caller’s language',
      responses: { 200: rawJson(Components) },
    }),
    (c) => {
      const forms = componentForms(requestLocale(c));
      return c.json({ endpoints: forms.endpoints, nodes: forms.nodes, tools: null, builtins: {} } as never, 200);
    },
  );
  return r;
}
