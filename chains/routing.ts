// Routing over a chain document, as RuleGo's RuleChainCtx does it: the first node is
// metadata.nodes[firstNodeIndex] (default 0); after a node, every connection from it whose `type`
// equals the relation exactly (case-sensitive, as RuleGo compares) is followed.
import type { NodeConnection, RuleChainDsl, RuleNode } from './types.js';

export function nodeById(chain: RuleChainDsl, id: string): RuleNode | undefined {
  return chain.metadata.nodes.find((n) => n.id === id);
}

/** Where a run starts: `fromNodeId` (RuleGo's `_fromNodeId`) when given and present, else the first node. */
export function firstNodeIds(chain: RuleChainDsl, fromNodeId?: string): string[] {
  if (fromNodeId !== undefined) return nodeById(chain, fromNodeId) ? [fromNodeId] : [];
  const node = chain.metadata.nodes[chain.metadata.firstNodeIndex ?? 0];
  return node ? [node.id] : [];
}

const connections = (chain: RuleChainDsl): NodeConnection[] => chain.metadata.connections ?? [];

/** The nodes `relation` leads to from `fromId`, in the document's order, each once, only existing nodes. */
export function nextNodeIds(chain: RuleChainDsl, fromId: string, relation: string): string[] {
  const out: string[] = [];
  for (const c of connections(chain))
    if (c.fromId === fromId && c.type === relation && !out.includes(c.toId) && nodeById(chain, c.toId))
      out.push(c.toId);
  return out;
}

/** The relations leaving a node (distinct, in order). */
export function outgoingRelations(chain: RuleChainDsl, fromId: string): string[] {
  const out: string[] = [];
  for (const c of connections(chain)) if (c.fromId === fromId && !out.includes(c.type)) out.push(c.type);
  return out;
}

/** The nodes with a connection into `joinNodeId` (each once): the branches a join waits for. */
export function joinPredecessors(chain: RuleChainDsl, joinNodeId: string): string[] {
  const out: string[] = [];
  for (const c of connections(chain)) if (c.toId === joinNodeId && !out.includes(c.fromId)) out.push(c.fromId);
  return out;
}
