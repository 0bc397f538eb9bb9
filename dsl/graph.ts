// Graph helpers over a process document, shared by validation and the engine.
// "Flow" edges are every connection except Reject: Reject routes lead back or out and would
// otherwise make every node upstream of every other.
import type { DslConnection, DslNode, ProcessDocument } from './types.js';

export interface GraphIndex {
  byId: Map<string, DslNode>;
  out: Map<string, DslConnection[]>;
  in: Map<string, DslConnection[]>;
}

// Documents are treated as immutable once parsed, so the index is cached per document.
const indexes = new WeakMap<ProcessDocument, GraphIndex>();

export function graphIndex(doc: ProcessDocument): GraphIndex {
  let index = indexes.get(doc);
  if (!index) {
    index = { byId: new Map(), out: new Map(), in: new Map() };
    for (const node of doc.metadata.nodes) if (!index.byId.has(node.id)) index.byId.set(node.id, node);
    for (const c of doc.metadata.connections) {
      push(index.out, c.fromId, c);
      push(index.in, c.toId, c);
    }
    indexes.set(doc, index);
  }
  return index;
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export const isFlowEdge = (c: DslConnection): boolean => c.type !== 'Reject';
export const isParallelNode = (node: DslNode | undefined): boolean =>
  node?.type === 'fork' || node?.type === 'join' || node?.type === 'inclusive';

export function nodeById(doc: ProcessDocument, id: string): DslNode | undefined {
  return graphIndex(doc).byId.get(id);
}

export function firstNode(doc: ProcessDocument): DslNode | undefined {
  return doc.metadata.nodes[doc.metadata.firstNodeIndex];
}

export function outgoing(doc: ProcessDocument, id: string): DslConnection[] {
  return graphIndex(doc).out.get(id) ?? [];
}

export function incoming(doc: ProcessDocument, id: string): DslConnection[] {
  return graphIndex(doc).in.get(id) ?? [];
}

/** Nodes reached from `id` by connections of type `relation`. */
export function successors(doc: ProcessDocument, id: string, relation: string): DslNode[] {
  const index = graphIndex(doc);
  return outgoing(doc, id)
    .filter((c) => c.type === relation)
    .map((c) => index.byId.get(c.toId))
    .filter((n): n is DslNode => n !== undefined);
}

/**
 * Breadth-first walk from `starts` (not included unless reached again).
 * `edge` filters connections; `expand` says whether to continue past a reached node.
 */
export function walk(
  doc: ProcessDocument,
  starts: Iterable<string>,
  direction: 'forward' | 'backward',
  edge: (c: DslConnection) => boolean = isFlowEdge,
  expand: (id: string) => boolean = () => true,
): string[] {
  const index = graphIndex(doc);
  const map = direction === 'forward' ? index.out : index.in;
  const seen = new Set<string>();
  const order: string[] = [];
  const queue = [...starts];
  for (let i = 0; i < queue.length; i++) {
    for (const c of map.get(queue[i]) ?? []) {
      if (!edge(c)) continue;
      const next = direction === 'forward' ? c.toId : c.fromId;
      if (seen.has(next) || !index.byId.has(next)) continue;
      seen.add(next);
      order.push(next);
      if (expand(next)) queue.push(next);
    }
  }
  return order;
}

/** Ids of every node that can reach `id` over flow edges (transitive). */
export function upstream(doc: ProcessDocument, id: string): Set<string> {
  return new Set(walk(doc, [id], 'backward'));
}

/** Ids of every node reachable from `id` over flow edges (transitive). */
export function downstream(doc: ProcessDocument, id: string): Set<string> {
  return new Set(walk(doc, [id], 'forward'));
}

/**
 * Whether going back from `fromId` to its upstream node `toId` crosses a fork, join or
 * inclusive (any such node on a flow path between them). False when `toId` is not upstream.
 */
export function pathCrossesParallel(doc: ProcessDocument, fromId: string, toId: string): boolean {
  const up = upstream(doc, fromId);
  if (!up.has(toId)) return false;
  const down = downstream(doc, toId);
  const index = graphIndex(doc);
  for (const id of up) {
    if (id === fromId || id === toId || !down.has(id)) continue;
    if (isParallelNode(index.byId.get(id))) return true;
  }
  return false;
}

/**
 * The most recently completed userTask upstream of `nodeId` whose path back does not cross a
 * fork/join/inclusive. `completedNodeIds` is in completion order (last = most recent).
 */
export function previousApprovalNode(
  doc: ProcessDocument,
  nodeId: string,
  completedNodeIds: readonly string[],
): DslNode | null {
  const index = graphIndex(doc);
  const reachable = walk(doc, [nodeId], 'backward', isFlowEdge, (id) => !isParallelNode(index.byId.get(id)));
  const candidates = new Set(reachable.filter((id) => id !== nodeId && index.byId.get(id)?.type === 'userTask'));
  for (let i = completedNodeIds.length - 1; i >= 0; i--) {
    if (candidates.has(completedNodeIds[i])) return index.byId.get(completedNodeIds[i]) ?? null;
  }
  return null;
}
