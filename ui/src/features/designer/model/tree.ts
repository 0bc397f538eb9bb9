// Graph → tree for the vertical editor: a column of items, where a split (switch, inclusive,
// fork) holds side-by-side branches that meet again. A graph that is not such a tree (a loop,
// a return edge, a Failure route, a node reached twice) gives null, and the designer draws it as
// the graph instead. `treeEdges` turns a tree back into connections; `toTree` only answers a
// tree whose edges are exactly the document's, so nothing is hidden by the column view.
import type { Conn, Doc, Node } from './doc.js';
import { connsOf, nodesOf } from './doc.js';

export type Item = NodeItem | SplitItem;

export interface NodeItem {
  kind: 'node';
  id: string;
  /** Connection indices leaving the item toward the next one (empty after an end). */
  exits: number[];
}

export interface SplitItem {
  kind: 'split';
  id: string;
  /** The join closing a fork/inclusive; null when the branches meet at the next item or never. */
  joinId: string | null;
  branches: Branch[];
  exits: number[];
}

export interface Branch {
  /** The connection's type: a case's `then`, Default, or Success (fork). */
  relation: string;
  /** Index of the connection from the split into the branch. */
  entry: number;
  /** Index into the switch's cases; null for Default and fork branches. */
  caseIndex: number | null;
  items: Item[];
}

export interface Tree {
  items: Item[];
}

export const isSplitType = (type: string) => type === 'switch' || type === 'inclusive' || type === 'fork';

class NotATree extends Error {}

interface Index {
  byId: Map<string, Node>;
  out: Map<string, number[]>;
  conns: Conn[];
  topo: Map<string, number>;
}

function indexOf(doc: Doc): Index | null {
  const byId = new Map<string, Node>();
  for (const n of nodesOf(doc)) {
    if (byId.has(n.id)) return null;
    byId.set(n.id, n);
  }
  const conns = connsOf(doc);
  const out = new Map<string, number[]>();
  const indegree = new Map<string, number>([...byId.keys()].map((id) => [id, 0]));
  for (let i = 0; i < conns.length; i++) {
    const c = conns[i]!;
    if (!byId.has(c.fromId) || !byId.has(c.toId)) return null;
    out.set(c.fromId, [...(out.get(c.fromId) ?? []), i]);
    indegree.set(c.toId, indegree.get(c.toId)! + 1);
  }
  // Topological order (Kahn); a cycle means no tree.
  const topo = new Map<string, number>();
  const queue = [...byId.keys()].filter((id) => indegree.get(id) === 0);
  while (queue.length) {
    const id = queue.shift()!;
    topo.set(id, topo.size);
    for (const i of out.get(id) ?? []) {
      const to = conns[i]!.toId;
      indegree.set(to, indegree.get(to)! - 1);
      if (indegree.get(to) === 0) queue.push(to);
    }
  }
  if (topo.size !== byId.size) return null;
  return { byId, out, conns, topo };
}

/**
 * The first node every branch reaches (earliest in topological order), or null. Walks forward
 * from the branches in topological order, so it visits only the block up to where they meet.
 */
function mergeOf(ix: Index, entries: number[]): string | null {
  const reachedBy = new Map<string, Set<number>>();
  const frontier: string[] = [];
  const reach = (id: string, branch: number) => {
    let set = reachedBy.get(id);
    if (!set) {
      set = new Set();
      reachedBy.set(id, set);
      frontier.push(id);
    }
    set.add(branch);
  };
  entries.forEach((i, branch) => reach(ix.conns[i]!.toId, branch));
  while (frontier.length) {
    // The earliest node in topological order: every branch that can reach it already has.
    let k = 0;
    for (let j = 1; j < frontier.length; j++) if (ix.topo.get(frontier[j]!)! < ix.topo.get(frontier[k]!)!) k = j;
    const id = frontier.splice(k, 1)[0]!;
    const set = reachedBy.get(id)!;
    if (set.size === entries.length) return id;
    for (const i of ix.out.get(id) ?? []) for (const b of set) reach(ix.conns[i]!.toId, b);
  }
  return null;
}

function branchOrder(node: Node, ix: Index, entries: number[]): Branch[] {
  if (node.type === 'fork') return entries.map((entry) => ({ relation: 'Success', entry, caseIndex: null, items: [] }));
  const cases: Array<{ then?: unknown }> = Array.isArray((node.configuration as any)?.cases)
    ? (node.configuration as any).cases
    : [];
  const relations = entries.map((i) => ix.conns[i]!.type);
  if (new Set(relations).size !== relations.length) throw new NotATree('a relation with two connections');
  const rank = (rel: string) => {
    const k = cases.findIndex((c) => c?.then === rel);
    return k >= 0 ? k : rel === 'Default' ? cases.length + 1 : cases.length;
  };
  return entries
    .map((entry) => {
      const relation = ix.conns[entry]!.type;
      const k = cases.findIndex((c) => c?.then === relation);
      return { relation, entry, caseIndex: k >= 0 ? k : null, items: [] as Item[] };
    })
    .sort((a, b) => rank(a.relation) - rank(b.relation));
}

/** The tree of `doc`, or null when the graph is not one the column view can show faithfully. */
export function toTree(doc: Doc): Tree | null {
  const ix = indexOf(doc);
  const first = nodesOf(doc)[doc.metadata?.firstNodeIndex ?? 0];
  if (!ix || !first) return null;
  const placed = new Set<string>();

  // Items from `start` up to (not including) `stop`; a branch must arrive at `stop`.
  const sequence = (start: string, stop: string | null): Item[] => {
    const items: Item[] = [];
    let cur: string | null = start;
    while (cur !== null && cur !== stop) {
      if (placed.has(cur)) throw new NotATree(`${cur} reached twice`);
      placed.add(cur);
      const node: Node = ix.byId.get(cur)!;
      const outs: number[] = ix.out.get(cur) ?? [];
      if (isSplitType(node.type) && outs.length > 0) {
        const merge = mergeOf(ix, outs);
        const closes = merge !== null && node.type !== 'switch' && ix.byId.get(merge)!.type === 'join';
        const branches = branchOrder(node, ix, outs);
        for (const b of branches) b.items = sequence(ix.conns[b.entry]!.toId, merge);
        let exits: number[] = [];
        let next: string | null = merge;
        if (closes) {
          placed.add(merge);
          exits = ix.out.get(merge) ?? [];
          if (exits.length > 1) throw new NotATree('a join with several exits');
          next = exits.length ? ix.conns[exits[0]!]!.toId : null;
        } else if (merge !== null) {
          exits = branches.flatMap((b) => (b.items.length ? b.items[b.items.length - 1]!.exits : [b.entry]));
        }
        items.push({ kind: 'split', id: cur, joinId: closes ? merge : null, branches, exits });
        cur = next;
      } else if (outs.length === 0) {
        items.push({ kind: 'node', id: cur, exits: [] });
        cur = null;
      } else if (outs.length === 1 && ix.conns[outs[0]!]!.type === 'Success') {
        items.push({ kind: 'node', id: cur, exits: outs });
        cur = ix.conns[outs[0]!]!.toId;
      } else throw new NotATree(`${cur} has other routes than Success`);
    }
    if (cur !== stop) throw new NotATree('a branch ends before its branches meet');
    return items;
  };

  try {
    const tree = { items: sequence(first.id, null) };
    if (placed.size !== ix.byId.size) return null;
    return sameEdges(treeEdges(tree), ix.conns) ? tree : null;
  } catch (err) {
    if (err instanceof NotATree) return null;
    throw err;
  }
}

/** The connections a tree stands for, rebuilt from its structure alone. */
export function treeEdges(tree: Tree): Conn[] {
  const edges: Conn[] = [];
  type Loose = { from: string; type: string };
  // Walks a sequence; answers its loose ends, which lead to whatever follows it.
  const walk = (items: Item[]): Loose[] => {
    let loose: Loose[] = [];
    for (const item of items) {
      for (const l of loose) edges.push({ fromId: l.from, toId: item.id, type: l.type });
      if (item.kind === 'node') {
        loose = item.exits.length ? [{ from: item.id, type: 'Success' }] : [];
        continue;
      }
      const ends: Loose[] = [];
      for (const b of item.branches) {
        if (b.items.length === 0) ends.push({ from: item.id, type: b.relation });
        else {
          edges.push({ fromId: item.id, toId: b.items[0]!.id, type: b.relation });
          ends.push(...walk(b.items));
        }
      }
      if (item.joinId) {
        for (const e of ends) edges.push({ fromId: e.from, toId: item.joinId, type: e.type });
        loose = item.exits.length ? [{ from: item.joinId, type: 'Success' }] : [];
      } else loose = ends;
    }
    return loose;
  };
  walk(tree.items);
  return edges;
}

function sameEdges(a: Conn[], b: Conn[]): boolean {
  if (a.length !== b.length) return false;
  const key = (c: Conn) => `${c.fromId}\u0000${c.toId}\u0000${c.type}`;
  const counts = new Map<string, number>();
  for (const c of a) counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
  for (const c of b) {
    const n = counts.get(key(c));
    if (!n) return false;
    counts.set(key(c), n - 1);
  }
  return true;
}

/** Every node id inside `items`, nested branches and joins included. */
export function idsIn(items: Item[]): string[] {
  return items.flatMap((item) =>
    item.kind === 'node'
      ? [item.id]
      : [item.id, ...item.branches.flatMap((b) => idsIn(b.items)), ...(item.joinId ? [item.joinId] : [])],
  );
}

/** Where `id` sits: its sequence, position and the sequence's head slot (a branch's entry; null at the top). */
export function locate(tree: Tree, id: string): { items: Item[]; index: number; head: number[] | null } | null {
  const search = (items: Item[], head: number[] | null): ReturnType<typeof locate> => {
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      if (item.id === id || (item.kind === 'split' && item.joinId === id)) return { items, index: i, head };
      if (item.kind === 'split') {
        for (const b of item.branches) {
          const found = search(b.items, [b.entry]);
          if (found) return found;
        }
      }
    }
    return null;
  };
  return search(tree.items, null);
}

/** The connections leading into item `index` of a located sequence (null: nothing leads there). */
export function slotBefore(items: Item[], index: number, head: number[] | null): number[] | null {
  return index === 0 ? head : (items[index - 1]?.exits ?? null);
}
