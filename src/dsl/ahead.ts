// "Upcoming" prediction: the userTasks ahead of the current nodes, assuming every approval
// succeeds. A node is undecided when some path to an end avoids it (it sits behind a
// switch/inclusive whose outcome depends on data not known yet).
import { graphIndex, walk } from './graph.js';
import { regionOf } from './regions.js';
import type { DslConnection, DslNode, ProcessDocument } from './types.js';

export interface AheadNode {
  node: DslNode;
  undecided: boolean;
}

const predicted = (c: DslConnection): boolean => c.type !== 'Reject' && c.type !== 'Failure';

export function approvalNodesAhead(doc: ProcessDocument, fromNodeIds: readonly string[]): AheadNode[] {
  const index = graphIndex(doc);
  const starts = fromNodeIds.filter((id) => index.byId.has(id));
  const order = walk(doc, starts, 'forward', predicted);
  const reach = new Set([...starts, ...order]);
  const ends = [...reach].filter((id) => index.byId.get(id)?.type === 'end');
  const joins = forkJoinRequirements(doc, reach);
  const current = new Set(starts);

  return order
    .filter((id) => !current.has(id) && index.byId.get(id)?.type === 'userTask')
    .map((id) => ({
      node: index.byId.get(id)!,
      undecided: ends.length > 0 && reachesAnyEnd(doc, starts, id, ends, joins),
    }));
}

/**
 * A fork's join fires only when every live branch arrives: per branch, the set of join
 * predecessors of which one must be reached. Branches already finished (not in reach) are not required.
 */
function forkJoinRequirements(doc: ProcessDocument, reach: Set<string>): Map<string, Set<string>[]> {
  const index = graphIndex(doc);
  const requirements = new Map<string, Set<string>[]>();
  for (const node of doc.metadata.nodes) {
    if (node.type !== 'fork') continue;
    const region = regionOf(doc, node.id);
    if (!region.joinId) continue;
    const preds = (index.in.get(region.joinId) ?? []).filter(predicted).map((c) => c.fromId);
    const live = region.branches.filter((b) =>
      b.nodeIds.size === 0 ? reach.has(node.id) : [...b.nodeIds].some((id) => reach.has(id)),
    );
    requirements.set(
      region.joinId,
      live.map((b) => new Set(preds.filter((p) => p === node.id || b.nodeIds.has(p)))),
    );
  }
  return requirements;
}

/** Whether an end is reachable from `starts` without passing `skipId`, joins waiting for their branches. */
function reachesAnyEnd(
  doc: ProcessDocument,
  starts: string[],
  skipId: string,
  ends: string[],
  joins: Map<string, Set<string>[]>,
): boolean {
  const index = graphIndex(doc);
  const reached = new Set(starts.filter((id) => id !== skipId));
  const waiting = new Set<string>();
  const ready = (joinId: string) => (joins.get(joinId) ?? []).every((preds) => [...preds].some((p) => reached.has(p)));
  const queue = [...reached];
  for (;;) {
    while (queue.length > 0) {
      for (const c of index.out.get(queue.pop()!) ?? []) {
        const next = c.toId;
        if (!predicted(c) || next === skipId || reached.has(next) || !index.byId.has(next)) continue;
        if (joins.has(next) && !ready(next)) {
          waiting.add(next);
          continue;
        }
        reached.add(next);
        queue.push(next);
      }
    }
    // A waiting join proceeds once its last live branch has arrived.
    const nowReady = [...waiting].filter((j) => !reached.has(j) && ready(j));
    if (nowReady.length === 0) break;
    for (const j of nowReady) reached.add(j);
    queue.push(...nowReady);
  }
  return ends.some((e) => reached.has(e));
}
