// One document store per open designer: the document (the command stack's current state), the
// selection and what was last saved. Problems are computed just after each edit, off the
// edit's own render, from the DSL package's validator.
import { Store } from '../../lib/store';
import { t } from './i18n';
import { addBranch, moveBranch, removeBranch, setCase } from './model/branches';
import type { Doc } from './model/doc';
import { setNodeField, setProcessField } from './model/edit';
import { execute, historyOf, redo, undo, type History } from './model/history';
import type { AddKind, KindNames } from './model/kinds';
import { insertOnConnection, moveNode, type Point } from './model/layout';
import { problemsOf, type DesignProblem } from './model/problems';
import { copyItem, deleteItem, insertAt, moveItem } from './model/structure';
import { toTree, type Tree } from './model/tree';

export interface DesignerState {
  history: History;
  selected: string | null;
  /** The document as last saved or opened: the page has unsaved changes while it differs. */
  saved: Doc;
}

const trees = new WeakMap<Doc, Tree | null>();
/** The column view of `doc` (null: draw it as a graph), computed once per document. */
export function treeOf(doc: Doc): Tree | null {
  if (!trees.has(doc)) trees.set(doc, toTree(doc));
  return trees.get(doc)!;
}

/** JSON with object keys sorted: two documents equal but for key order (a stored one comes back reordered) compare alike. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The same process, as deploy's duplicate filter compares them (docs/definitions.md "Publishing an unchanged document"). */
export const sameDocument = (a: Doc, b: Doc) => a === b || canonical(a) === canonical(b);

const names = (): KindNames => t.designer.kinds;
type Path = readonly (string | number)[];

export class DesignerStore extends Store<DesignerState> {
  readonly problems = new Store<DesignProblem[]>([]);
  private catalogue: { functions?: readonly string[]; agents?: readonly string[] } = {};
  private pending: ReturnType<typeof setTimeout> | undefined;

  constructor(doc: Doc) {
    super({ history: historyOf(doc), selected: null, saved: doc });
    this.recheck();
  }

  get doc(): Doc {
    return this.get().history.doc;
  }

  /** Runs an edit; `fn` may answer the id of a node to select. */
  run(name: string, fn: (doc: Doc) => Doc | { doc: Doc; id: string | null }, mergeKey?: string) {
    let select: string | null = null;
    const history = execute(this.get().history, {
      name,
      mergeKey,
      run: (doc) => {
        const out = fn(doc);
        if ('metadata' in out) return out;
        select = out.id;
        return out.doc;
      },
    });
    if (history === this.get().history) return;
    this.set({ ...this.get(), history, selected: select ?? this.get().selected });
    this.recheck();
  }

  undo = () => this.move(undo);
  redo = () => this.move(redo);
  private move(step: (h: History) => History) {
    const history = step(this.get().history);
    if (history === this.get().history) return;
    this.set({ ...this.get(), history });
    this.recheck();
  }

  select = (id: string | null) => this.set({ ...this.get(), selected: id });
  markSaved = (doc: Doc) => this.set({ ...this.get(), saved: doc });
  /** The tenant's function names (built-ins and catalogue): serviceTasks are checked against them. */
  setFunctions(list: readonly string[]) {
    this.catalogue = { ...this.catalogue, functions: list };
    this.recheck();
  }
  /** The tenant's agent ids: aiAgent nodes are checked against them. */
  setAgents(list: readonly string[]) {
    this.catalogue = { ...this.catalogue, agents: list };
    this.recheck();
  }

  // After the next paint: the edit shows first, its problems a moment later.
  private recheck() {
    clearTimeout(this.pending);
    requestAnimationFrame(() => {
      clearTimeout(this.pending);
      this.pending = setTimeout(() => this.problems.set(problemsOf(this.doc, this.catalogue)), 0);
    });
  }

  // ---- the commands the page offers ----
  insert = (slot: number[], kind: AddKind) => this.run('insert', (d) => insertAt(d, slot, kind, names()));
  remove = (id: string) => {
    this.run('delete', (d) => deleteItem(d, treeOf(d), id));
    if (!this.doc.metadata.nodes.some((n) => n.id === id)) this.select(null);
  };
  moveStep = (id: string, dir: -1 | 1) =>
    this.run('move', (d) => {
      const tree = treeOf(d);
      return tree ? moveItem(d, tree, id, dir) : d;
    });
  copy = (id: string) => this.run('copy', (d) => copyItem(d, treeOf(d), id));
  // The graph view's own: a step on connection `index`; a node moved (`drawn`: where it is drawn now).
  insertOnEdge = (index: number, kind: AddKind) =>
    this.run('insert', (d) => insertOnConnection(d, index, kind, names()));
  /** `mergeKey`: arrow-key steps on one node within a second make one undo entry. */
  moveNode = (id: string, dx: number, dy: number, drawn: ReadonlyMap<string, Point>, mergeKey?: string) =>
    this.run('moveNode', (d) => moveNode(d, id, dx, dy, drawn), mergeKey);
  branch = {
    add: (id: string) => this.run('addBranch', (d) => (treeOf(d) ? addBranch(d, treeOf(d)!, id, names()) : d)),
    remove: (id: string, index: number) =>
      this.run('removeBranch', (d) => (treeOf(d) ? removeBranch(d, treeOf(d)!, id, index) : d)),
    move: (id: string, index: number, dir: -1 | 1) =>
      this.run('moveBranch', (d) => (treeOf(d) ? moveBranch(d, treeOf(d)!, id, index, dir) : d)),
  };
  setCase = (id: string, index: number, expression: string) =>
    this.run('case', (d) => setCase(d, id, index, expression), `case:${id}:${index}`);
  setField = (id: string, path: Path, value: unknown) =>
    this.run('field', (d) => setNodeField(d, id, path, value), `node:${id}:${path.join('.')}`);
  setProcess = (path: Path, value: unknown) =>
    this.run('process', (d) => setProcessField(d, path, value), `process:${path.join('.')}`);
}
