// "Upcoming" prediction: the nodes ahead of the current ones, assuming every approval succeeds
// (an instance's upcoming steps list its userTasks; a simulation lists every node). With the
// instance's data, each switch/inclusive ahead is evaluated on the variables it reads, and only
// its outcome is followed. A gateway stays open (every branch possible) only
// when a variable one of its conditions needs is missing, or may be written before it by a system
// node that has not run yet (serviceTask, httpCall, aiAgent, subProcess, automation). A node is undecided when some
// path to an end avoids it; it names the open gateways' variables. What an approver may edit is
// not foreseen: the prediction takes today's variables as they are.
import { conditionVariables, evaluateCondition } from './expressions.js';
import { graphIndex, walk } from './graph.js';
import { branchConnections, regionOf } from './regions.js';
import type { DslConnection, DslNode, ProcessDocument } from './types.js';

/** Why a node is undecided: an open gateway, the variable it needs, the node that would set it (null: missing). */
export interface UndecidedBy {
  nodeId: string;
  variable: string;
  setBy: string | null;
}

export interface AheadNode {
  node: DslNode;
  undecided: boolean;
  undecidedBy: UndecidedBy[];
}

/** One case of a switch/inclusive as the prediction read it. */
export interface CaseOutcome {
  /** 1-based, as validate-conditions numbers cases. */
  caseIndex: number;
  expression: string;
  then: string;
  /**
   * Its value on the known data; null when it was not evaluated: `needs` names the data it waits
   * for, `error` why it failed, or (neither) an earlier case already decided the switch.
   */
  value: boolean | null;
  error: string | null;
  needs: UndecidedBy[];
}

/** What a switch/inclusive ahead does with the known data: the relations it takes for sure and those it may take. */
export interface GatewayOutcome {
  taken: string[];
  possible: string[];
  /** A case needs data not known yet (a missing variable, or one a system node ahead may write). */
  open: boolean;
  cases: CaseOutcome[];
}

export interface PathAhead {
  /** In walk order: the start nodes first when asked for, then what lies ahead. */
  steps: AheadNode[];
  /** Every switch/inclusive the path may reach, by id (empty without known data). */
  gateways: Map<string, GatewayOutcome>;
}

/** What the instance knows now: its variables and the condition metadata. */
export interface KnownData {
  msg: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

type Follow = (c: DslConnection) => boolean;

const predicted = (c: DslConnection): boolean => c.type !== 'Reject' && c.type !== 'Failure';

/** A gateway's predicted outcome: the relations it may take, and those it takes for sure. */
interface Gate {
  possible: Set<string>;
  certain: Set<string>;
  open: boolean;
  needs: UndecidedBy[];
  cases: CaseOutcome[];
}

/** The userTasks ahead of the current nodes (an instance's upcoming steps). */
export function approvalNodesAhead(
  doc: ProcessDocument,
  fromNodeIds: readonly string[],
  known?: KnownData,
): AheadNode[] {
  return pathAhead(doc, fromNodeIds, known, { include: (node) => node.type === 'userTask' }).steps;
}

/**
 * The nodes ahead of `fromNodeIds` that `include` selects (every one by default; the start nodes
 * themselves with `withStarts`), each decided or not, and what each gateway does with `known`.
 */
export function pathAhead(
  doc: ProcessDocument,
  fromNodeIds: readonly string[],
  known?: KnownData,
  opts: { include?: (node: DslNode) => boolean; withStarts?: boolean } = {},
): PathAhead {
  const include = opts.include ?? (() => true);
  const index = graphIndex(doc);
  const starts = fromNodeIds.filter((id) => index.byId.has(id));
  const gates = known ? decideGateways(doc, starts, known) : new Map<string, Gate>();
  const follow: Follow = (c) => predicted(c) && (gates.get(c.fromId)?.possible.has(c.type) ?? true);
  const order = walk(doc, starts, 'forward', follow);
  const reach = new Set([...starts, ...order]);
  const ends = [...reach].filter((id) => index.byId.get(id)?.type === 'end');
  const joins = joinRequirements(doc, reach, gates, follow);
  const current = new Set(starts);
  // Nodes every path to an end passes (dominators of the ends, joins read as "any branch"):
  // decided for sure. Without joins that is exact; with them, waiting joins can only block
  // more paths, so the others get the exact (per-node) walk.
  const onEveryPath = ends.length > 0 ? endDominators(doc, starts, reach, ends, follow) : new Set<string>();
  // What each open gateway leads to, for naming the variables an undecided node waits for.
  const openAhead = [...gates]
    .filter(([id, gate]) => gate.open && reach.has(id))
    .map(([id, gate]) => ({ reaches: new Set(walk(doc, [id], 'forward', follow)), needs: gate.needs }));

  const ahead = order
    .filter((id) => !current.has(id) && include(index.byId.get(id)!))
    .map((id) => {
      const undecided =
        ends.length > 0 &&
        !onEveryPath.has(id) &&
        (joins.size === 0 || reachesAnyEnd(doc, starts, id, ends, joins, follow));
      return {
        node: index.byId.get(id)!,
        undecided,
        undecidedBy: undecided ? distinct(openAhead.filter((g) => g.reaches.has(id)).flatMap((g) => g.needs)) : [],
      };
    });
  const fromHere = opts.withStarts
    ? starts
        .map((id) => index.byId.get(id)!)
        .filter(include)
        .map((node) => ({ node, undecided: false, undecidedBy: [] }))
    : [];
  const outcomes = new Map<string, GatewayOutcome>();
  for (const [id, gate] of gates)
    if (reach.has(id))
      outcomes.set(id, { taken: [...gate.certain], possible: [...gate.possible], open: gate.open, cases: gate.cases });
  return { steps: [...fromHere, ...ahead], gateways: outcomes };
}

const distinct = (list: UndecidedBy[]) =>
  list.filter((u, i) => list.findIndex((v) => v.nodeId === u.nodeId && v.variable === u.variable) === i);

/** Variables a system node writes when it runs: a set, 'any' (decided by data or a response), or none. */
function writes(node: DslNode): Set<string> | 'any' | null {
  const cfg = (node.configuration ?? {}) as Record<string, unknown>;
  if (node.type === 'subProcess') return 'any';
  if (node.type === 'httpCall') {
    if ((cfg.flattenOutput ?? true) !== false) return 'any';
    const mapped = Array.isArray(cfg.outputMappings)
      ? cfg.outputMappings.map((m: { to?: unknown }) => String(m?.to))
      : [];
    return new Set([String(cfg.reservedKey ?? '_http'), ...mapped]);
  }
  if (node.type === 'aiAgent') {
    // Asynchronous: nothing is merged. Otherwise the answer under reservedKey, the mappings, and
    // with flattenOutput whatever fields the answer has.
    if (cfg.async === true) return null;
    if (cfg.flattenOutput === true) return 'any';
    const mapped = Array.isArray(cfg.outputMappings)
      ? cfg.outputMappings.map((m: { to?: unknown }) => String(m?.to))
      : [];
    return new Set([String(cfg.reservedKey ?? '_ai'), ...mapped]);
  }
  if (node.type === 'automation') {
    // Not waiting: nothing is merged. Otherwise as httpCall: flattened, any field of the chain's output.
    if (cfg.wait === false) return null;
    if ((cfg.flattenOutput ?? true) !== false) return 'any';
    const mapped = Array.isArray(cfg.outputMappings)
      ? cfg.outputMappings.map((m: { to?: unknown }) => String(m?.to))
      : [];
    return new Set([String(cfg.reservedKey ?? '_automation'), ...mapped]);
  }
  if (node.type !== 'serviceTask') return null;
  let param: unknown = cfg.param;
  if (typeof param === 'string') {
    if (param.includes('${')) return 'any';
    try {
      param = JSON.parse(param);
    } catch {
      return 'any';
    }
  }
  if (!param || typeof param !== 'object' || Array.isArray(param)) return cfg.functionName === 'fail' ? null : 'any';
  const p = param as Record<string, unknown>;
  switch (cfg.functionName) {
    case 'setVariables':
      return new Set(Object.keys(p));
    case 'increment':
      return new Set([String(p.name)]);
    case 'sum':
      return new Set([String(p.target)]);
    case 'fail':
      return null;
    default:
      return 'any';
  }
}

/**
 * Evaluates every switch/inclusive reachable from `starts` as the engine would, on the known
 * variables minus those a not-yet-run system node upstream of it may still write.
 */
function decideGateways(doc: ProcessDocument, starts: string[], known: KnownData): Map<string, Gate> {
  const index = graphIndex(doc);
  const reach = new Set([...starts, ...walk(doc, starts, 'forward', predicted)]);
  const gates = new Map<string, Gate>();
  const writers = [...reach]
    .map((id) => ({ id, writes: writes(index.byId.get(id)!) }))
    .filter((w) => w.writes !== null);
  for (const id of reach) {
    const node = index.byId.get(id)!;
    if (node.type !== 'switch' && node.type !== 'inclusive') continue;
    const before = writers.length
      ? new Set(walk(doc, [id], 'backward', predicted, (n) => reach.has(n)).filter((n) => reach.has(n)))
      : new Set<string>();
    const pending = writers.filter((w) => before.has(w.id));
    const setterOf = (field: string) =>
      pending.find((w) => w.writes === 'any' || (w.writes as Set<string>).has(field))?.id;
    /** The variables a case cannot be evaluated without, or [] when it can be. */
    const needsOf = (expression: string): UndecidedBy[] => {
      const use = conditionVariables(expression);
      if (!use) return [];
      if (use.wholeMsg) return pending.length ? [{ nodeId: id, variable: 'msg', setBy: pending[0].id }] : [];
      return use.fields.flatMap((field): UndecidedBy[] => {
        const setBy = setterOf(field);
        if (setBy) return [{ nodeId: id, variable: field, setBy }];
        return Object.hasOwn(known.msg, field) ? [] : [{ nodeId: id, variable: field, setBy: null }];
      });
    };
    const outcome = (expression: string): boolean | { error: string } => {
      try {
        return evaluateCondition(expression, known);
      } catch (err) {
        return { error: err instanceof Error ? err.message : String(err) };
      }
    };
    const cases = ((node.configuration ?? {}) as { cases?: Array<{ case: string; then: string }> }).cases ?? [];
    const gate: Gate = { possible: new Set(), certain: new Set(), open: false, needs: [], cases: [] };
    // Every case as read, in order; those after the one that decides stay unevaluated.
    gate.cases = cases.map((c, i) => ({
      caseIndex: i + 1,
      expression: c.case,
      then: c.then,
      value: null,
      error: null,
      needs: [],
    }));
    let matched = false; // a switch case is true for sure
    let failed = false; // a condition errors on known data: the Failure edge, not predicted
    for (const [i, c] of cases.entries()) {
      const needs = needsOf(c.case);
      if (needs.length) {
        gate.open = true;
        gate.needs.push(...needs);
        gate.possible.add(c.then);
        gate.cases[i].needs = needs;
        continue;
      }
      const result = outcome(c.case);
      if (typeof result !== 'boolean') {
        gate.cases[i].error = result.error;
        failed = true;
        break;
      }
      gate.cases[i].value = result;
      if (!result) continue;
      gate.possible.add(c.then);
      if (node.type === 'inclusive') {
        gate.certain.add(c.then);
        continue;
      }
      if (!gate.open) gate.certain.add(c.then);
      matched = true;
      break;
    }
    if (failed) {
      // An inclusive evaluates every case, so one error decides it; a switch only if no open case came first.
      if (node.type === 'inclusive' || !gate.open) {
        gate.possible.clear();
        gate.open = false;
        gate.needs = [];
      }
      gate.certain.clear();
    } else if (!matched && gate.certain.size === 0) {
      gate.possible.add('Default');
      if (!gate.open) gate.certain.add('Default');
    }
    gates.set(id, gate);
  }
  return gates;
}

/**
 * The nodes that lie on every predicted path from `starts` to any end: the dominators of a
 * virtual sink after every end, computed once for the whole graph (Cooper, Harvey & Kennedy,
 * "A Simple, Fast Dominance Algorithm"), iteratively so a long chain cannot overflow the stack.
 */
function endDominators(
  doc: ProcessDocument,
  starts: string[],
  reach: Set<string>,
  ends: string[],
  follow: Follow,
): Set<string> {
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
      if (follow(c) && to !== undefined) succ[from].push(to);
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
 * predecessors of which one must be reached. Branches already finished (not in reach) are not
 * required. An evaluated inclusive is a fork of the branches it takes for sure.
 */
function joinRequirements(
  doc: ProcessDocument,
  reach: Set<string>,
  gates: Map<string, Gate>,
  follow: Follow,
): Map<string, Set<string>[]> {
  const index = graphIndex(doc);
  const requirements = new Map<string, Set<string>[]>();
  for (const node of doc.metadata.nodes) {
    const gate = gates.get(node.id);
    if (node.type !== 'fork' && !(node.type === 'inclusive' && gate)) continue;
    const region = regionOf(doc, node.id);
    if (!region.joinId) continue;
    const entries = branchConnections(doc, node.id);
    const preds = (index.in.get(region.joinId) ?? []).filter(follow).map((c) => c.fromId);
    const live = region.branches.filter(
      (b, i) =>
        (node.type === 'fork' || gate!.certain.has(entries[i].type)) &&
        (b.nodeIds.size === 0 ? reach.has(node.id) : [...b.nodeIds].some((id) => reach.has(id))),
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
  follow: Follow,
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
        if (!follow(c) || next === skipId || reached.has(next) || !index.byId.has(next)) continue;
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
