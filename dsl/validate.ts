// Deploy validation (docs/dsl.md#what-deploy-validates): every problem at once — document structure, reachability,
// parallel regions, loops that never wait (cycles.ts), and the per-node rules in validate-nodes.ts.
import { cycleProblems } from './cycles.js';
import { firstNode, graphIndex, walk } from './graph.js';
import { parseProcess } from './parse.js';
import { regionOf } from './regions.js';
import { finding, type Finding } from './problems.js';
import { problemAt, type Problem, type ProcessDocument } from './types.js';
import { nodeProblems, type ValidateOptions } from './validate-nodes.js';

export type { ValidateOptions } from './validate-nodes.js';

export type CompileProcessResult = { ok: true; doc: ProcessDocument } | { ok: false; problems: Problem[] };

export function validateProcess(doc: ProcessDocument, opts: ValidateOptions = {}): Problem[] {
  return [
    ...structureProblems(doc),
    ...doc.metadata.nodes.flatMap((node) => nodeProblems(doc, node, opts)),
    ...reachabilityProblems(doc),
    ...regionProblems(doc),
    ...cycleProblems(doc),
  ];
}

/** parseProcess + validateProcess: the document when it deploys, else every problem. */
export function compileProcess(input: unknown, opts: ValidateOptions = {}): CompileProcessResult {
  const parsed = parseProcess(input);
  if (!parsed.doc) return { ok: false, problems: parsed.problems };
  const problems = [...parsed.problems, ...validateProcess(parsed.doc, opts)];
  return problems.length > 0 ? { ok: false, problems } : { ok: true, doc: parsed.doc };
}

function structureProblems(doc: ProcessDocument): Problem[] {
  const problems: Problem[] = [];
  const { nodes, connections, firstNodeIndex } = doc.metadata;
  const seen = new Set<string>();
  const reported = new Set<string>();
  for (const node of nodes) {
    if (seen.has(node.id) && !reported.has(node.id)) {
      reported.add(node.id);
      problems.push(problemAt(node.id, 'id', finding('graph.duplicateNodeId', { id: node.id })));
    }
    seen.add(node.id);
  }
  connections.forEach((c, i) => {
    for (const key of ['fromId', 'toId'] as const) {
      if (!seen.has(c[key])) {
        problems.push(
          problemAt(null, `metadata.connections[${i}].${key}`, finding('graph.unknownNode', { id: c[key] })),
        );
      }
    }
  });
  if (nodes.length === 0) problems.push(problemAt(null, 'metadata.nodes', finding('graph.noNodes')));
  else if (!Number.isInteger(firstNodeIndex) || firstNodeIndex < 0 || firstNodeIndex >= nodes.length) {
    problems.push(
      problemAt(
        null,
        'metadata.firstNodeIndex',
        finding('graph.firstNodeOutOfRange', { index: firstNodeIndex, max: nodes.length - 1 }),
      ),
    );
  }
  return problems;
}

/** Reachability over every connection, failure and reject routes included. */
function reachabilityProblems(doc: ProcessDocument): Problem[] {
  const first = firstNode(doc);
  if (!first) return [];
  const any = () => true;
  const problems: Problem[] = [];
  const reached = new Set([first.id, ...walk(doc, [first.id], 'forward', any)]);
  const ends = doc.metadata.nodes.filter((n) => n.type === 'end').map((n) => n.id);
  const leadsToEnd = new Set([...ends, ...walk(doc, ends, 'backward', any)]);
  for (const node of graphIndex(doc).byId.values()) {
    if (!reached.has(node.id)) {
      problems.push(problemAt(node.id, 'connections', finding('graph.unreachable')));
    }
    if (ends.length > 0 && !leadsToEnd.has(node.id)) {
      problems.push(problemAt(node.id, 'connections', finding('graph.noWayToEnd')));
    }
  }
  if (ends.length === 0) problems.push(problemAt(null, 'metadata.nodes', finding('graph.noEnd')));
  return problems;
}

/** Fork/inclusive branches must meet at one join; nested regions are refused. */
function regionProblems(doc: ProcessDocument): Problem[] {
  const problems: Problem[] = [];
  const closedJoins = new Set<string>();
  for (const split of doc.metadata.nodes) {
    if (split.type !== 'fork' && split.type !== 'inclusive') continue;
    const region = regionOf(doc, split.id);
    region.branches.forEach((b) => b.joinIds.forEach((j) => closedJoins.add(j)));
    const report = (f: Finding) => problems.push(problemAt(split.id, 'connections', f));
    if (region.nestedIds.length > 0) {
      for (const nested of region.nestedIds) {
        const type = graphIndex(doc).byId.get(nested)?.type;
        problems.push(problemAt(nested, 'type', finding('region.nested', { type: String(type), splitId: split.id })));
      }
      continue;
    }
    if (region.joinId || region.branches.length === 0) continue;
    const joins = new Set(region.branches.flatMap((b) => [...b.joinIds]));
    if (joins.size === 0) report(finding('region.noJoin', { type: split.type }));
    else if (joins.size > 1) report(finding('region.severalJoins', { type: split.type, joinIds: [...joins] }));
    else {
      const [join] = joins;
      for (const b of region.branches.filter((br) => !br.joinIds.has(join))) {
        report(finding('region.branchMissesJoin', { startId: b.startId, joinId: join }));
      }
    }
  }
  for (const node of doc.metadata.nodes) {
    if (node.type === 'join' && !closedJoins.has(node.id)) {
      problems.push(problemAt(node.id, 'connections', finding('region.joinWithoutSplit')));
    }
  }
  return problems;
}
