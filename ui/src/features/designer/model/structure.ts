// Structural edits: add on a connection, delete, move up/down, copy. Each answers a new document
// that shares every node and connection it did not touch with the old one (or the same document
// when the edit does not apply here).
import type { Conn, Doc, Node } from './doc.js';
import { connsOf, freshId, nodesOf, withGraph } from './doc.js';
import { fragmentOf, type AddKind, type KindNames } from './kinds.js';
import { idsIn, isSplitType, locate, slotBefore, type Item, type Tree } from './tree.js';

/** Keeps the first node where it is when nodes before it go. */
export function withoutNodes(doc: Doc, ids: ReadonlySet<string>, conns: Conn[]): Doc {
  const nodes = nodesOf(doc);
  const first = nodes[doc.metadata.firstNodeIndex ?? 0];
  const kept = nodes.filter((n) => !ids.has(n.id));
  const next = withGraph(
    doc,
    kept,
    conns.filter((c) => !ids.has(c.fromId) && !ids.has(c.toId)),
  );
  const index = first ? kept.indexOf(first) : -1;
  if (index >= 0 && index !== (doc.metadata.firstNodeIndex ?? 0))
    next.metadata = { ...next.metadata, firstNodeIndex: index };
  return next;
}

/**
 * Adds a `kind` on the connections `slot` (indices, all leading to one node): they lead to the
 * new node(s), which lead on to that node. Answers the document and the new entry node's id.
 */
export function insertAt(doc: Doc, slot: number[], kind: AddKind, names: KindNames): { doc: Doc; id: string | null } {
  const conns = connsOf(doc);
  const target = conns[slot[0]!]?.toId;
  if (target === undefined) return { doc, id: null };
  const frag = fragmentOf(doc, kind, names);
  const inSlot = new Set(slot);
  const next = [
    ...conns.map((c, i) => (inSlot.has(i) ? { ...c, toId: frag.entry } : c)),
    ...frag.conns,
    ...frag.exits.map((e) => ({ fromId: e.from, toId: target, type: e.type })),
  ];
  return { doc: withGraph(doc, [...nodesOf(doc), ...frag.nodes], next), id: frag.entry };
}

const fixed = (n: Node | undefined) => !n || n.type === 'startTask' || n.type === 'end' || n.type === 'join';

/** Whether node `id` is a plain step: one Success route out, not a start, end, split or join. */
export function isPlainStep(doc: Doc, id: string): boolean {
  const node = nodesOf(doc).find((n) => n.id === id);
  if (fixed(node) || isSplitType(node!.type)) return false;
  const out = connsOf(doc).filter((c) => c.fromId === id);
  return out.filter((c) => c.type === 'Success').length === 1;
}

const isFirst = (doc: Doc, id: string) => nodesOf(doc)[doc.metadata.firstNodeIndex ?? 0]?.id === id;

/** Removes a plain step; what led to it leads to its successor. Works on any graph. */
export function deleteStep(doc: Doc, id: string): Doc {
  if (!isPlainStep(doc, id) || isFirst(doc, id)) return doc;
  const conns = connsOf(doc);
  const next = conns.find((c) => c.fromId === id && c.type === 'Success')!.toId;
  return withoutNodes(
    doc,
    new Set([id]),
    conns.map((c) => (c.toId === id && c.fromId !== id ? { ...c, toId: next } : c)),
  );
}

/** Removes a split with all its branches and join; what led to it leads to where they met. */
export function deleteBlock(doc: Doc, tree: Tree, id: string): Doc {
  const at = locate(tree, id);
  const item = at?.items[at.index];
  if (!item || item.kind !== 'split' || item.exits.length === 0 || isFirst(doc, id)) return doc;
  const conns = connsOf(doc);
  const next = conns[item.exits[0]!]!.toId;
  const gone = new Set(idsIn([item]));
  return withoutNodes(
    doc,
    gone,
    conns.map((c) => (c.toId === id && !gone.has(c.fromId) ? { ...c, toId: next } : c)),
  );
}

/** Deletes what the column shows at `id`: a step, or a whole branch block. */
export function deleteItem(doc: Doc, tree: Tree | null, id: string): Doc {
  if (tree && locate(tree, id)?.items[locate(tree, id)!.index]?.kind === 'split') return deleteBlock(doc, tree, id);
  return deleteStep(doc, id);
}

/** Moves a plain step past its neighbour in the same column (a step or a whole block). */
export function moveItem(doc: Doc, tree: Tree, id: string, dir: -1 | 1): Doc {
  const at = locate(tree, id);
  if (!at || !isPlainStep(doc, id) || at.items[at.index]!.kind !== 'node') return doc;
  const conns = connsOf(doc);
  const item = at.items[at.index]!;
  const own = conns[item.exits[0]!]!; // id → X
  const into = new Set(conns.filter((c) => c.toId === id));
  if (dir === -1) {
    const prev = at.items[at.index - 1];
    const before = slotBefore(at.items, at.index - 1, at.head);
    if (!prev || !before || before.length === 0) return doc;
    const toPrev = new Set(before.map((i) => conns[i]!));
    const mapped = conns.map((c) => {
      if (c === own) return { ...c, toId: prev.id };
      if (into.has(c)) return { ...c, toId: own.toId };
      if (toPrev.has(c)) return { ...c, toId: id };
      return c;
    });
    return withGraph(doc, nodesOf(doc), mapped);
  }
  const next: Item | undefined = at.items[at.index + 1];
  if (!next || next.exits.length === 0) return doc;
  const after = new Set(next.exits.map((i) => conns[i]!));
  const beyond = conns[next.exits[0]!]!.toId;
  const mapped = conns.map((c) => {
    if (c === own) return { ...c, toId: beyond };
    if (into.has(c)) return { ...c, toId: next.id };
    if (after.has(c)) return { ...c, toId: id };
    return c;
  });
  return withGraph(doc, nodesOf(doc), mapped);
}

/**
 * A copy of a whole branch block (split, every step of its branches, its join) right after it:
 * the same settings under new ids, the block's exits now lead into the copy, the copy's exits to
 * where the block led. A reject target naming a step inside the block names its copy.
 */
export function copyBlock(doc: Doc, tree: Tree, id: string): { doc: Doc; id: string | null } {
  const at = locate(tree, id);
  const item = at?.items[at.index];
  if (!item || item.kind !== 'split' || item.id !== id || item.exits.length === 0) return { doc, id: null };
  const conns = connsOf(doc);
  const inside = new Set(idsIn([item]));
  const renamed = new Map<string, string>();
  for (const old of inside) renamed.set(old, freshId(doc, old.replace(/_\d+$/, ''), new Set(renamed.values())));
  const rename = (v: unknown): unknown =>
    typeof v === 'string' ? (renamed.get(v) ?? v) : Array.isArray(v) ? v.map(rename) : v;
  const copies = nodesOf(doc)
    .filter((n) => inside.has(n.id))
    .map((n) => {
      const copy = JSON.parse(JSON.stringify(n)) as Node;
      const cfg = copy.configuration as { reject?: Record<string, unknown>; rejectTargetNode?: unknown } | undefined;
      if (cfg?.reject && 'target' in cfg.reject) cfg.reject.target = rename(cfg.reject.target);
      if (cfg && 'rejectTargetNode' in cfg) cfg.rejectTargetNode = rename(cfg.rejectTargetNode);
      return { ...copy, id: renamed.get(n.id)! };
    });
  const exits = new Set(item.exits.map((i) => conns[i]!));
  const beyond = conns[item.exits[0]!]!.toId;
  const next = [
    ...conns.map((c) => (exits.has(c) ? { ...c, toId: renamed.get(id)! } : c)),
    ...conns
      .filter((c) => inside.has(c.fromId) && inside.has(c.toId))
      .map((c) => ({ ...c, fromId: renamed.get(c.fromId)!, toId: renamed.get(c.toId)! })),
    ...[...exits].map((c) => ({ ...c, fromId: renamed.get(c.fromId)!, toId: beyond })),
  ];
  return { doc: withGraph(doc, [...nodesOf(doc), ...copies], next), id: renamed.get(id)! };
}

/** Copies what the column shows at `id`: a step, or a whole branch block. */
export function copyItem(doc: Doc, tree: Tree | null, id: string): { doc: Doc; id: string | null } {
  if (tree && locate(tree, id)?.items[locate(tree, id)!.index]?.kind === 'split') return copyBlock(doc, tree, id);
  return copyStep(doc, id);
}

/** A copy of a plain step right after it (same settings, a new id). */
export function copyStep(doc: Doc, id: string): { doc: Doc; id: string | null } {
  if (!isPlainStep(doc, id)) return { doc, id: null };
  const node = nodesOf(doc).find((n) => n.id === id)!;
  const copyId = freshId(doc, id.replace(/_\d+$/, ''));
  const copy: Node = { ...(JSON.parse(JSON.stringify(node)) as Node), id: copyId };
  const conns = connsOf(doc);
  const own = conns.find((c) => c.fromId === id && c.type === 'Success')!;
  const next = [
    ...conns.map((c) => (c === own ? { ...c, toId: copyId } : c)),
    { fromId: copyId, toId: own.toId, type: 'Success' },
  ];
  return { doc: withGraph(doc, [...nodesOf(doc), copy], next), id: copyId };
}
