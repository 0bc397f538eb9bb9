// Edits of the graph view (a process the column cannot show: a return route, a loop): a step
// inserted on a connection, and a node moved. Positions live where the round trip already keeps
// them, each node's `additionalInfo.layoutX/layoutY` (its top-left corner); the graph is drawn at
// them once every node has them (components/Diagram.tsx), else laid out automatically.
import type { Doc, Node } from './doc.js';
import { connsOf, nodesOf, setIn, withGraph } from './doc.js';
import type { AddKind, KindNames } from './kinds.js';
import { insertAt } from './structure.js';

export interface Point {
  x: number;
  y: number;
}

/** Kinds the graph view offers on a connection (an End there would cut the rest of the route). */
export const graphKinds = (kinds: readonly AddKind[]): AddKind[] => kinds.filter((k) => k !== 'end');

const at = (n: Node): Point | null => {
  const x = n.additionalInfo?.layoutX;
  const y = n.additionalInfo?.layoutY;
  return typeof x === 'number' && typeof y === 'number' ? { x, y } : null;
};

/** Whether every node has layout coordinates, so the graph is drawn at them. */
export const isPlaced = (doc: Doc): boolean => nodesOf(doc).length > 0 && nodesOf(doc).every((n) => at(n) !== null);

const placedAt = (n: Node, p: Point): Node =>
  setIn(setIn(n, ['additionalInfo', 'layoutX'], Math.round(p.x)), ['additionalInfo', 'layoutY'], Math.round(p.y));

/** Rows and columns of a fragment placed on a connection: split, its branches side by side, its join. */
const ROW = 80;
const COLUMN = 190;

/**
 * Inserts `kind` on connection `index`: the connection leads to the new step, which leads on to the
 * connection's end. When the graph is drawn at its coordinates, the new nodes get coordinates
 * between the connection's ends (so the others stay where they were put); else the graph is laid
 * out again with them.
 */
export function insertOnConnection(
  doc: Doc,
  index: number,
  kind: AddKind,
  names: KindNames,
): { doc: Doc; id: string | null } {
  const conn = connsOf(doc)[index];
  if (!conn || kind === 'end') return { doc, id: null };
  const placed = isPlaced(doc);
  const out = insertAt(doc, [index], kind, names);
  if (!placed || out.id === null) return out;
  const byId = new Map(nodesOf(doc).map((n) => [n.id, n]));
  const a = at(byId.get(conn.fromId)!)!;
  const b = at(byId.get(conn.toId)!)!;
  const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  const added = nodesOf(out.doc).slice(nodesOf(doc).length);
  const inner = added.filter((n) => n.id !== out.id && n.type !== 'join');
  const place = (n: Node): Point => {
    if (n.id === out.id) return mid;
    if (n.type === 'join') return { x: mid.x, y: mid.y + 2 * ROW };
    const k = inner.indexOf(n);
    return { x: mid.x + (k - (inner.length - 1) / 2) * COLUMN, y: mid.y + ROW };
  };
  const nodes = [...nodesOf(doc), ...added.map((n) => placedAt(n, place(n)))];
  return { doc: withGraph(out.doc, nodes, connsOf(out.doc)), id: out.id };
}

/**
 * Moves node `id` by (dx, dy). When the graph is drawn at its coordinates only that node changes;
 * else every node is first pinned where the automatic layout drew it (`drawn`: top-left corners),
 * so the moved one can stay where it was put.
 */
export function moveNode(doc: Doc, id: string, dx: number, dy: number, drawn: ReadonlyMap<string, Point>): Doc {
  const nodes = nodesOf(doc);
  if (!nodes.some((n) => n.id === id) || (Math.round(dx) === 0 && Math.round(dy) === 0)) return doc;
  if (isPlaced(doc)) {
    return withGraph(
      doc,
      nodes.map((n) => (n.id === id ? placedAt(n, { x: at(n)!.x + dx, y: at(n)!.y + dy }) : n)),
      connsOf(doc),
    );
  }
  if (!nodes.every((n) => drawn.has(n.id))) return doc;
  return withGraph(
    doc,
    nodes.map((n) => {
      const p = drawn.get(n.id)!;
      return placedAt(n, n.id === id ? { x: p.x + dx, y: p.y + dy } : p);
    }),
    connsOf(doc),
  );
}
