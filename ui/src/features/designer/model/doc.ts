// The designer's state is the DSL JSON document itself, as it was opened: nothing is parsed
// into another shape, so unknown fields, layout data and older keys survive a save. Edits
// replace only the objects on the path they change (structural sharing).
import type { DslConnection, DslNode, ProcessDocument } from '@dsl/types.js';

export type Doc = ProcessDocument & Record<string, unknown>;
export type Node = DslNode;
export type Conn = DslConnection;
type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const nodesOf = (doc: Doc): Node[] => doc.metadata?.nodes ?? [];
export const connsOf = (doc: Doc): Conn[] => doc.metadata?.connections ?? [];

export function withGraph(doc: Doc, nodes: Node[], connections: Conn[]): Doc {
  return { ...doc, metadata: { ...doc.metadata, nodes, connections } };
}

/** `value` at `path` inside `obj`, copying each object on the way; undefined removes the key. */
export function setIn<T>(obj: T, path: readonly (string | number)[], value: unknown): T {
  if (path.length === 0) return value as T;
  const [key, ...rest] = path;
  const base: any = Array.isArray(obj) ? [...obj] : isObj(obj) ? { ...obj } : typeof key === 'number' ? [] : {};
  const next = setIn(base[key as any], rest, value);
  if (next === undefined && !Array.isArray(base)) delete base[key as any];
  else base[key as any] = next;
  return base as T;
}

export function getIn(obj: unknown, path: readonly (string | number)[]): unknown {
  let v: any = obj;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = v[key];
  }
  return v;
}

/** The node with `id` replaced by `update(node)`; the other nodes stay the same objects. */
export function updateNode(doc: Doc, id: string, update: (n: Node) => Node): Doc {
  return withGraph(
    doc,
    nodesOf(doc).map((n) => (n.id === id ? update(n) : n)),
    connsOf(doc),
  );
}

/** A node id not yet used: `${prefix}_1`, `${prefix}_2`, … */
export function freshId(doc: Doc, prefix: string, taken: ReadonlySet<string> = new Set()): string {
  const used = new Set(nodesOf(doc).map((n) => n.id));
  for (let i = 1; ; i++) {
    const id = `${prefix}_${i}`;
    if (!used.has(id) && !taken.has(id)) return id;
  }
}

/** An empty process: a start and an end. */
export function emptyDoc(key: string, name: string, startName: string, endName: string): Doc {
  return {
    ruleChain: { id: key, name, root: true, additionalInfo: { formType: 'design', form: { fields: [] } } },
    metadata: {
      firstNodeIndex: 0,
      nodes: [
        { id: 'start', type: 'startTask', name: startName },
        { id: 'end', type: 'end', name: endName },
      ],
      connections: [{ fromId: 'start', toId: 'end', type: 'Success' }],
    },
  } as Doc;
}
