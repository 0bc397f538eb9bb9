// Branch edits of a split (switch, inclusive, fork): add, remove, reorder, and a case's expression.
// The order of a switch's cases is the order they are checked in; Default always comes last.
import type { Doc } from './doc.js';
import { connsOf, freshId, nodesOf, setIn, updateNode, withGraph } from './doc.js';
import { newApprover, type KindNames } from './kinds.js';
import { withoutNodes } from './structure.js';
import { idsIn, locate, type SplitItem, type Tree } from './tree.js';

function splitAt(tree: Tree, id: string): SplitItem | null {
  const at = locate(tree, id);
  const item = at?.items[at.index];
  return item?.kind === 'split' && item.id === id ? item : null;
}

const casesOf = (doc: Doc, id: string): Array<{ case: string; then: string }> => {
  const cases = (nodesOf(doc).find((n) => n.id === id)?.configuration as any)?.cases;
  return Array.isArray(cases) ? cases : [];
};

/** Adds a branch: an empty case for a switch or inclusive, an approver for a fork. */
export function addBranch(doc: Doc, tree: Tree, id: string, names: KindNames): Doc {
  const split = splitAt(tree, id);
  const node = nodesOf(doc).find((n) => n.id === id);
  if (!split || !node) return doc;
  const conns = connsOf(doc);
  let target = split.joinId ?? (split.exits.length ? conns[split.exits[0]!]!.toId : null);
  const nodes = [...nodesOf(doc)];
  if (target === null) {
    // Branches that never meet each end on their own: so does the new one.
    target = freshId(doc, 'end');
    nodes.push({ id: target, type: 'end', name: names.end });
  }
  if (node.type === 'fork') {
    const step = newApprover(freshId(doc, 'approver'), names.approver);
    return withGraph(
      doc,
      [...nodes, step],
      [...conns, { fromId: id, toId: step.id, type: 'Success' }, { fromId: step.id, toId: target, type: 'Success' }],
    );
  }
  const used = new Set([...casesOf(doc, id).map((c) => c.then), ...split.branches.map((b) => b.relation)]);
  let n = 1;
  while (used.has(`case${n}`)) n++;
  const relation = `case${n}`;
  const withCase = updateNode(
    withGraph(doc, nodes, [...conns, { fromId: id, toId: target, type: relation }]),
    id,
    (s) => setIn(s, ['configuration', 'cases'], [...casesOf(doc, id), { case: '', then: relation }]),
  );
  return withCase;
}

/** Removes branch `index` (as the column shows them) with every node on it. */
export function removeBranch(doc: Doc, tree: Tree, id: string, index: number): Doc {
  const split = splitAt(tree, id);
  const branch = split?.branches[index];
  if (!split || !branch || split.branches.length < 2) return doc;
  const conns = connsOf(doc);
  const entry = conns[branch.entry]!;
  const gone = new Set(idsIn(branch.items));
  let next = withoutNodes(
    doc,
    gone,
    conns.filter((c) => c !== entry),
  );
  if (branch.caseIndex !== null) {
    const cases = casesOf(doc, id).filter((_, k) => k !== branch.caseIndex);
    next = updateNode(next, id, (s) => setIn(s, ['configuration', 'cases'], cases));
  }
  return next;
}

/** Swaps branch `index` with its neighbour: a switch's cases, or a fork's connections. */
export function moveBranch(doc: Doc, tree: Tree, id: string, index: number, dir: -1 | 1): Doc {
  const split = splitAt(tree, id);
  const a = split?.branches[index];
  const b = split?.branches[index + dir];
  if (!a || !b) return doc;
  if (a.caseIndex !== null && b.caseIndex !== null) {
    const cases = [...casesOf(doc, id)];
    [cases[a.caseIndex], cases[b.caseIndex]] = [cases[b.caseIndex]!, cases[a.caseIndex]!];
    return updateNode(doc, id, (s) => setIn(s, ['configuration', 'cases'], cases));
  }
  if (nodesOf(doc).find((n) => n.id === id)?.type !== 'fork') return doc; // Default stays last
  const conns = [...connsOf(doc)];
  [conns[a.entry], conns[b.entry]] = [conns[b.entry]!, conns[a.entry]!];
  return withGraph(doc, nodesOf(doc), conns);
}

/** Sets the expression of case `caseIndex`. */
export function setCase(doc: Doc, id: string, caseIndex: number, expression: string): Doc {
  return updateNode(doc, id, (s) => setIn(s, ['configuration', 'cases', caseIndex, 'case'], expression));
}
