// Edits of a chain document. Each returns a new document made from the one it got: the parts it does
// not touch are the same objects, so fields this page does not know (RuleGo's and anyone's) and the
// nodes' layoutX/layoutY stay as they were on a round trip.
import type { NodeConnection, RuleChainDsl, RuleNode } from '@chains/types.js';
import type { ComponentField, ComponentForm } from './types';

export const nodesOf = (dsl: RuleChainDsl): RuleNode[] =>
  Array.isArray(dsl.metadata?.nodes) ? dsl.metadata.nodes : [];
export const connsOf = (dsl: RuleChainDsl): NodeConnection[] =>
  Array.isArray(dsl.metadata?.connections) ? dsl.metadata.connections : [];

const withMetadata = (dsl: RuleChainDsl, fields: Partial<RuleChainDsl['metadata']>): RuleChainDsl => ({
  ...dsl,
  metadata: { ...dsl.metadata, ...fields },
});

/** A new chain as RuleGo's editor makes one: no nodes yet, started once saved. */
export function emptyChain(id: string, name: string): RuleChainDsl {
  return {
    ruleChain: { id, name, root: true, debugMode: false, additionalInfo: {} },
    metadata: { firstNodeIndex: 0, endpoints: [], nodes: [], connections: [], ruleChainConnections: [] },
  };
}

/** A chain id the API accepts: letters, digits, `_` and `-`. */
export const validChainId = (id: string) => /^[A-Za-z0-9_-]{1,64}$/.test(id);

/** A field's default, as RuleGo's editor fills a new node's configuration. */
const defaultOf = (f: ComponentField): unknown => {
  if (f.defaultValue !== undefined && f.defaultValue !== null) return f.defaultValue;
  if (f.fields?.length) return Object.fromEntries(f.fields.map((s) => [s.name, defaultOf(s)]));
  return undefined;
};

export function defaultConfiguration(form: ComponentForm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of form.fields ?? []) {
    const v = defaultOf(f);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

/** The next free id for a node of `type`: `jsFilter1`, `jsFilter2` … */
export function newNodeId(dsl: RuleChainDsl, type: string): string {
  const taken = new Set(nodesOf(dsl).map((n) => n.id));
  const base = type.replace(/[^A-Za-z0-9]/g, '') || 'node';
  for (let i = 1; ; i++) if (!taken.has(`${base}${i}`)) return `${base}${i}`;
}

const placed = (n: RuleNode) =>
  typeof n.additionalInfo?.layoutX === 'number' && typeof n.additionalInfo?.layoutY === 'number';

/**
 * Adds a node of `form`'s type with its defaults. When every node already has layout coordinates,
 * the new one gets some below the others (so the graph stays where it was put); else the graph is
 * laid out automatically with it.
 */
export function addNode(dsl: RuleChainDsl, form: ComponentForm, name: string): { dsl: RuleChainDsl; id: string } {
  const nodes = nodesOf(dsl);
  const id = newNodeId(dsl, form.type);
  const node: RuleNode = { id, type: form.type, name, debugMode: false, configuration: defaultConfiguration(form) };
  if (nodes.length && nodes.every(placed)) {
    const x = Math.min(...nodes.map((n) => n.additionalInfo!.layoutX!));
    const y = Math.max(...nodes.map((n) => n.additionalInfo!.layoutY!));
    node.additionalInfo = { layoutX: x, layoutY: y + 100 };
  }
  return { dsl: withMetadata(dsl, { nodes: [...nodes, node] }), id };
}

/** Removes a node and its connections; the first node stays the same node (or the first one left). */
export function removeNode(dsl: RuleChainDsl, id: string): RuleChainDsl {
  const nodes = nodesOf(dsl);
  const index = nodes.findIndex((n) => n.id === id);
  if (index < 0) return dsl;
  const first = dsl.metadata.firstNodeIndex ?? 0;
  const fields: Partial<RuleChainDsl['metadata']> = {
    nodes: nodes.filter((n) => n.id !== id),
    connections: connsOf(dsl).filter((c) => c.fromId !== id && c.toId !== id),
  };
  if (dsl.metadata.firstNodeIndex !== undefined || index < first)
    fields.firstNodeIndex = index < first ? first - 1 : index === first ? 0 : first;
  return withMetadata(dsl, fields);
}

/** Replaces node `id` by what `change` makes of it. */
export function updateNode(dsl: RuleChainDsl, id: string, change: (n: RuleNode) => RuleNode): RuleChainDsl {
  return withMetadata(dsl, { nodes: nodesOf(dsl).map((n) => (n.id === id ? change(n) : n)) });
}

/** Sets one configuration key of node `id` (undefined removes it). */
export function setConfig(dsl: RuleChainDsl, id: string, key: string, value: unknown): RuleChainDsl {
  return updateNode(dsl, id, (n) => {
    const configuration = { ...n.configuration };
    if (value === undefined) delete configuration[key];
    else configuration[key] = value;
    return { ...n, configuration };
  });
}

/** Makes node `id` the chain's first node (the one a message enters). */
export function setFirst(dsl: RuleChainDsl, id: string): RuleChainDsl {
  const index = nodesOf(dsl).findIndex((n) => n.id === id);
  return index < 0 ? dsl : withMetadata(dsl, { firstNodeIndex: index });
}

/** Adds the connection from → to with relation `type` (none when the same one exists). */
export function connect(dsl: RuleChainDsl, fromId: string, toId: string, type: string): RuleChainDsl {
  const conns = connsOf(dsl);
  if (conns.some((c) => c.fromId === fromId && c.toId === toId && c.type === type)) return dsl;
  return withMetadata(dsl, { connections: [...conns, { fromId, toId, type }] });
}

export function disconnect(dsl: RuleChainDsl, index: number): RuleChainDsl {
  return withMetadata(dsl, { connections: connsOf(dsl).filter((_, i) => i !== index) });
}

/** Moves node `id` to (x, y): its top-left corner, kept in additionalInfo.layoutX/Y. */
export function placeNode(dsl: RuleChainDsl, id: string, x: number, y: number): RuleChainDsl {
  return updateNode(dsl, id, (n) => ({
    ...n,
    additionalInfo: { ...n.additionalInfo, layoutX: Math.round(x), layoutY: Math.round(y) },
  }));
}

/** The relations a node of `form` offers (RuleGo's defaults when the form names none). */
export function relationsOf(form: ComponentForm | undefined, dsl: RuleChainDsl, nodeId: string): string[] {
  if (form?.relationTypes?.length) return form.relationTypes;
  // A switch names its relations: its cases' `then` (RuleGo's `switch`), else the custom names used so far.
  const node = nodesOf(dsl).find((n) => n.id === nodeId);
  const cases = node?.configuration?.cases;
  const named = Array.isArray(cases)
    ? cases.map((c: any) => c?.then).filter((v: unknown) => typeof v === 'string')
    : [];
  const used = connsOf(dsl)
    .filter((c) => c.fromId === nodeId)
    .map((c) => c.type);
  return [...new Set(['Success', 'Failure', ...named, ...used, 'Default'])];
}

/** A connection's words: its relation, and RuleGo's display label when it says more. */
export const relationText = (c: NodeConnection) => (c.label && c.label !== c.type ? `${c.type} (${c.label})` : c.type);

/** A problem of a save (a 422's `data.problems`). */
export interface ChainProblem {
  nodeId?: string | null;
  field?: string | null;
  code?: string;
  message: string;
}

export function problemsOf(data: unknown): ChainProblem[] {
  const list = (data as { problems?: unknown } | null)?.problems;
  return Array.isArray(list) ? list.filter((p): p is ChainProblem => !!p && typeof p.message === 'string') : [];
}

/** The problems by the node they name ('' for the chain's own). */
export function problemsByNode(problems: readonly ChainProblem[]): Map<string, ChainProblem[]> {
  const out = new Map<string, ChainProblem[]>();
  for (const p of problems) {
    const key = p.nodeId ?? '';
    out.set(key, [...(out.get(key) ?? []), p]);
  }
  return out;
}
