// The chain document's shape (RuleGo's types.RuleChain) as zod schemas. Unknown fields are kept
// everywhere (loose objects) and nothing is defaulted, so a parsed document round-trips exactly
// (keys in their order):
// the editor's layout (additionalInfo), RuleGo fields we do not use, and our own extensions.
import { z } from 'zod';
import { problem, type ChainProblem } from './problems.js';
import type { RuleChainDsl } from './types.js';

const configuration = z.record(z.string(), z.unknown());

const routerSchema = z.looseObject({
  id: z.string().optional(),
  params: z.array(z.unknown()).optional(),
  from: z.looseObject({
    path: z.string(),
    configuration: configuration.optional(),
    processors: z.array(z.string()).optional(),
  }),
  to: z
    .looseObject({
      path: z.string().optional(),
      wait: z.boolean().optional(),
      configuration: configuration.optional(),
      processors: z.array(z.string()).optional(),
    })
    .optional(),
});

const nodeShape = {
  id: z.string().min(1),
  type: z.string().min(1),
  name: z.string().optional(),
  debugMode: z.boolean().optional(),
  configuration: configuration.optional(),
  additionalInfo: z.record(z.string(), z.unknown()).optional(),
};

export const ruleNodeSchema = z.looseObject(nodeShape);
export const endpointSchema = z.looseObject({
  ...nodeShape,
  processors: z.array(z.string()).optional(),
  routers: z.array(routerSchema).optional(),
});
export const connectionSchema = z.looseObject({
  fromId: z.string().min(1),
  toId: z.string().min(1),
  type: z.string().min(1),
  label: z.string().optional(),
});

export const ruleChainSchema = z.looseObject({
  ruleChain: z.looseObject({
    id: z.string().min(1).max(256),
    name: z.string().min(1).max(200),
    root: z.boolean().optional(),
    disabled: z.boolean().optional(),
    debugMode: z.boolean().optional(),
    configuration: configuration.optional(),
    additionalInfo: z.record(z.string(), z.unknown()).optional(),
  }),
  metadata: z.looseObject({
    firstNodeIndex: z.number().int().optional(),
    endpoints: z.array(endpointSchema).optional(),
    nodes: z.array(ruleNodeSchema),
    connections: z.array(connectionSchema).optional(),
    ruleChainConnections: z.array(z.unknown()).optional(),
  }),
});

/** `metadata.nodes.2.configuration` → `metadata.nodes[2].configuration`. */
const pathText = (path: readonly PropertyKey[]) =>
  path.reduce<string>((s, k) => (typeof k === 'number' ? `${s}[${k}]` : s ? `${s}.${String(k)}` : String(k)), '');

/** The node an issue's path points into, when that node carries an id. */
function nodeOf(input: unknown, path: readonly PropertyKey[]): string | null {
  if (path[0] !== 'metadata' || (path[1] !== 'nodes' && path[1] !== 'endpoints') || typeof path[2] !== 'number')
    return null;
  const list = (input as { metadata?: Record<string, unknown> })?.metadata?.[path[1]];
  const id = Array.isArray(list) ? (list[path[2]] as { id?: unknown } | undefined)?.id : undefined;
  return typeof id === 'string' && id ? id : null;
}

export type ParseChainResult =
  { ok: true; chain: RuleChainDsl; problems: [] } | { ok: false; chain: null; problems: ChainProblem[] };

/** Reads a chain document; every shape problem is listed (node and field where it can say). */
export function parseChain(json: unknown): ParseChainResult {
  const parsed = ruleChainSchema.safeParse(json);
  // The schemas neither default nor transform: the input itself (a copy) is the chain, so its
  // key order round-trips too.
  if (parsed.success) return { ok: true, chain: JSON.parse(JSON.stringify(json)) as RuleChainDsl, problems: [] };
  const problems = parsed.error.issues.map((issue) =>
    problem(nodeOf(json, issue.path), pathText(issue.path) || '(document)', 'document.invalid', issue.message, {
      issue: issue.code,
    }),
  );
  return { ok: false, chain: null, problems };
}
