// The difference between two process documents, node by node (GET /process-definitions/{id}/compare/{otherId}):
// nodes added, removed and changed (each changed field as a dotted path with its values before
// and after), connections added and removed, and the process settings that changed. Pure code.
import type { DslConnection, ProcessDocument } from './types.js';

/** One changed value; a side left out means the field was absent there. */
export interface FieldChange {
  /** Dotted path inside the node (`configuration.approver.userIds`, `configuration.cases[0].case`). */
  path: string;
  before?: unknown;
  after?: unknown;
}

export interface NodeSummary {
  id: string;
  type: string;
  name: string | null;
}

export interface NodeChange extends NodeSummary {
  changes: FieldChange[];
}

export interface DefinitionDiff {
  added: NodeSummary[];
  removed: NodeSummary[];
  changed: NodeChange[];
  connections: { added: DslConnection[]; removed: DslConnection[] };
  /** Changes outside the nodes: `ruleChain.*` (name, form, switches…), `functions.*` (pinned service functions) and `firstNodeId`. */
  process: FieldChange[];
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => v === null || typeof v !== 'object';

function childPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

/**
 * Every leaf that differs between `a` and `b`. Objects are compared key by key; lists of objects
 * of the same length element by element (`cases[1].then`); any other list is one value (a list
 * of ids reads better whole).
 */
export function fieldChanges(a: unknown, b: unknown, path = ''): FieldChange[] {
  if (a === undefined && b === undefined) return [];
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => fieldChanges(a[k], b[k], childPath(path, k)));
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length && !a.every(isScalar) && !b.every(isScalar))
    return a.flatMap((v, i) => fieldChanges(v, b[i], childPath(path, i)));
  if (same(a, b)) return [];
  return [{ path, ...(a !== undefined ? { before: a } : {}), ...(b !== undefined ? { after: b } : {}) }];
}

/** Deep equality of JSON values (key order does not matter). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => same(v, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

/** A document's nodes and connections, read defensively: a draft may be unfinished. */
function partsOf(doc: ProcessDocument) {
  const metadata: Obj = isObj(doc?.metadata) ? doc.metadata : {};
  const nodes = (Array.isArray(metadata.nodes) ? metadata.nodes : []).filter(
    (n): n is Obj & { id: string } => isObj(n) && typeof n.id === 'string',
  );
  const connections = (Array.isArray(metadata.connections) ? metadata.connections : []).filter(
    (c): c is DslConnection =>
      isObj(c) && typeof c.fromId === 'string' && typeof c.toId === 'string' && typeof c.type === 'string',
  );
  const byId = new Map<string, Obj & { id: string }>();
  for (const n of nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  const first = typeof metadata.firstNodeIndex === 'number' ? nodes[metadata.firstNodeIndex] : nodes[0];
  return {
    byId,
    connections,
    firstNodeId: first?.id ?? null,
    ruleChain: isObj(doc?.ruleChain) ? doc.ruleChain : {},
    functions: isObj(doc?.functions) ? doc.functions : {},
  };
}

const summary = (n: Obj & { id: string }): NodeSummary => ({
  id: n.id,
  type: String(n.type ?? ''),
  name: typeof n.name === 'string' ? n.name : null,
});

const connectionKey = (c: DslConnection) => JSON.stringify([c.fromId, c.toId, c.type]);

/** `before` → `after`: what a reader of `after` finds changed since `before`. */
export function compareDefinitions(before: ProcessDocument, after: ProcessDocument): DefinitionDiff {
  const a = partsOf(before);
  const b = partsOf(after);
  const diff: DefinitionDiff = {
    added: [...b.byId.values()].filter((n) => !a.byId.has(n.id)).map(summary),
    removed: [...a.byId.values()].filter((n) => !b.byId.has(n.id)).map(summary),
    changed: [],
    connections: { added: [], removed: [] },
    process: [
      ...fieldChanges(a.ruleChain, b.ruleChain, 'ruleChain'),
      ...fieldChanges(a.functions, b.functions, 'functions'),
    ],
  };
  for (const [id, node] of b.byId) {
    const old = a.byId.get(id);
    if (!old) continue;
    const changes = fieldChanges(old, node).filter((c) => c.path !== 'id');
    if (changes.length) diff.changed.push({ ...summary(node), changes });
  }
  // Connections as a multiset: the same connection twice counts twice.
  const count = (list: DslConnection[]) => {
    const m = new Map<string, number>();
    for (const c of list) m.set(connectionKey(c), (m.get(connectionKey(c)) ?? 0) + 1);
    return m;
  };
  const inA = count(a.connections);
  const inB = count(b.connections);
  const unmatched = (list: DslConnection[], other: Map<string, number>) =>
    list.filter((c) => {
      const k = connectionKey(c);
      const left = other.get(k) ?? 0;
      if (left > 0) {
        other.set(k, left - 1);
        return false;
      }
      return true;
    });
  diff.connections.added = unmatched(b.connections, inA).map(({ fromId, toId, type }) => ({ fromId, toId, type }));
  diff.connections.removed = unmatched(a.connections, inB).map(({ fromId, toId, type }) => ({ fromId, toId, type }));
  if (a.firstNodeId !== b.firstNodeId)
    diff.process.push({ path: 'firstNodeId', before: a.firstNodeId, after: b.firstNodeId });
  return diff;
}
