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
  // Nodes every path to an end passes (dominators of the ends, joins read as "any branch"):
  // decided for sure. Without joins that is exact; with them, waiting joins can only block
  // more paths, so the others get the exact (per-node) walk.
  const onEveryPath = ends.length > 0 ? endDominators(doc, starts, reach, ends) : new Set<string>();

  return order
    .filter((id) => !current.has(id) && index.byId.get(id)?.type === 'userTask')
    .map((id) => ({
      node: index.byId.get(id)!,
      undecided:
        ends.length > 0 && !onEveryPath.has(id) && (joins.size === 0 || reachesAnyEnd(doc, starts, id, ends, joins)),
    }));
}

/**
 * The nodes that lie on every predicted path from `starts` to any end: the dominators of a
 * virtual sink after every end, computed once for the whole graph (Cooper, Harvey & Kennedy,
 * "A Simple, Fast Dominance Algorithm"), iteratively so a long chain cannot overflow the stack.
 */
function endDominators(doc: ProcessDocument, starts: string[], reach: Set<string>, ends: string[]): Set<string> {
  const index = graphIndex(doc);
  const SOURCE = 0;
  const ids = [...reach];
  const num = new Map(ids.map((id, i) => [id, i + 1]));
  const SINK = ids.length + 1;
  const succ: number[][] = Array.from({ length: SINK + 1 }, () => []);
  succ[SOURCE] = starts.map((id) => num.get(id)!);
  for (const id of ids) {
    const from = num.get(id)!;
    for (const c of index.out.get(id) ?? []) {
      const to = num.get(c.toId);
      if (predicted(c) && to !== undefined) succ[from].push(to);
    }
  }
  for (const e of ends) succ[num.get(e)!].push(SINK);

  // Post-order by an explicit-stack depth-first search.
  const post = new Array<number>(SINK + 1).fill(-1);
  const order: number[] = [];
  const visited = new Uint8Array(SINK + 1);
  const stack: Array<[number, number]> = [[SOURCE, 0]];
  visited[SOURCE] = 1;
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const [v, i] = top;
    if (i < succ[v].length) {
      top[1]++;
      const w = succ[v][i];
      if (!visited[w]) {
        visited[w] = 1;
        stack.push([w, 0]);
      }
    } else {
      post[v] = order.length;
      order.push(v);
      stack.pop();
    }
  }
  if (!visited[SINK]) return new Set();
  const preds: number[][] = Array.from({ length: SINK + 1 }, () => []);
  for (let v = 0; v <= SINK; v++) if (visited[v]) for (const w of succ[v]) preds[w].push(v);

  const idom = new Array<number>(SINK + 1).fill(-1);
  idom[SOURCE] = SOURCE;
  const intersect = (a: number, b: number) => {
    while (a !== b) {
      while (post[a] < post[b]) a = idom[a];
      while (post[b] < post[a]) b = idom[b];
    }
    return a;
  };
  for (let changed = true; changed;) {
    changed = false;
    for (let k = order.length - 2; k >= 0; k--) {
      const v = order[k]; // reverse post-order, the source (last) left out
      let dom = -1;
      for (const p of preds[v]) if (idom[p] !== -1) dom = dom === -1 ? p : intersect(p, dom);
      if (dom !== idom[v]) {
        idom[v] = dom;
        changed = true;
      }
    }
  }
  const out = new Set<string>();
  for (let v = idom[SINK]; v !== SOURCE; v = idom[v]) out.add(ids[v - 1]);
  return out;
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
