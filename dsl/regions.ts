// Parallel regions: the nodes between a fork/inclusive and the join where its branches meet.
// Nested regions are not supported (validation refuses them), so a node has at most one region.
import { graphIndex, isFlowEdge, walk } from './graph.js';
import type { DslConnection, DslNode, ProcessDocument } from './types.js';

export interface Branch {
  /** First node of the branch (may be the join itself for an empty branch). */
  startId: string;
  /** Nodes of the branch, join excluded. */
  nodeIds: Set<string>;
  /** Joins the branch reaches first. */
  joinIds: Set<string>;
}

export interface Region {
  splitId: string;
  branches: Branch[];
  /** Every branch node, join excluded. */
  nodeIds: Set<string>;
  /** The join every branch reaches, or null when there is none or several. */
  joinId: string | null;
  /** Forks/inclusives found inside the region. */
  nestedIds: string[];
}

const regions = new WeakMap<ProcessDocument, Map<string, Region>>();

/** Outgoing connections that start a parallel branch (an inclusive's Default/Failure run alone). */
export function branchConnections(doc: ProcessDocument, splitId: string): DslConnection[] {
  const split = graphIndex(doc).byId.get(splitId);
  return (graphIndex(doc).out.get(splitId) ?? []).filter(
    (c) => isFlowEdge(c) && c.type !== 'Failure' && !(split?.type === 'inclusive' && c.type === 'Default'),
  );
}

export function regionOf(doc: ProcessDocument, splitId: string): Region {
  let cache = regions.get(doc);
  if (!cache) regions.set(doc, (cache = new Map()));
  let region = cache.get(splitId);
  if (!region) cache.set(splitId, (region = computeRegion(doc, splitId)));
  return region;
}

function computeRegion(doc: ProcessDocument, splitId: string): Region {
  const index = graphIndex(doc);
  const typeOf = (id: string) => index.byId.get(id)?.type;
  const nested = new Set<string>();
  const branches = branchConnections(doc, splitId).map((c): Branch => {
    const nodeIds = new Set<string>();
    const joinIds = new Set<string>();
    const visit = (id: string): boolean => {
      const type = typeOf(id);
      if (id === splitId) return false;
      if (type === 'join') {
        joinIds.add(id);
        return false;
      }
      if (type === 'fork' || type === 'inclusive') nested.add(id);
      nodeIds.add(id);
      return type !== 'fork' && type !== 'inclusive';
    };
    if (visit(c.toId)) walk(doc, [c.toId], 'forward', isFlowEdge, visit);
    return { startId: c.toId, nodeIds, joinIds };
  });
  const nodeIds = new Set(branches.flatMap((b) => [...b.nodeIds]));
  const allJoins = new Set(branches.flatMap((b) => [...b.joinIds]));
  const [only] = allJoins;
  const joinId = allJoins.size === 1 && branches.every((b) => b.joinIds.has(only)) ? only : null;
  return { splitId, branches, nodeIds, joinId, nestedIds: [...nested] };
}

/** The join where the branches of a fork/inclusive meet, or null. */
export function matchingJoin(doc: ProcessDocument, splitId: string): DslNode | null {
  const type = graphIndex(doc).byId.get(splitId)?.type;
  if (type !== 'fork' && type !== 'inclusive') return null;
  const { joinId } = regionOf(doc, splitId);
  return joinId ? (graphIndex(doc).byId.get(joinId) ?? null) : null;
}

/** The fork/inclusive whose region contains the node, or null. */
export function enclosingRegion(doc: ProcessDocument, nodeId: string): DslNode | null {
  for (const node of doc.metadata.nodes) {
    if (node.type !== 'fork' && node.type !== 'inclusive') continue;
    if (regionOf(doc, node.id).nodeIds.has(nodeId)) return node;
  }
  return null;
}

/** The fork/inclusive a join closes, or null. */
export function splitOfJoin(doc: ProcessDocument, joinId: string): DslNode | null {
  for (const node of doc.metadata.nodes) {
    if ((node.type === 'fork' || node.type === 'inclusive') && regionOf(doc, node.id).joinId === joinId) return node;
  }
  return null;
}
