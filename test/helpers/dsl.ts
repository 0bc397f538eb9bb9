// Process documents (GFlow rule-chain format, docs/dsl.md) built from the parts a test cares
// about. Pure: used by the integration tests, the workflow tests (test/workflow/support/dsl.ts)
// and the bench.

export interface StepNode {
  id: string;
  configuration: Record<string, unknown>;
  additionalInfo?: Record<string, unknown>;
}

/** `[fromId, toId, type]`; the type defaults to `Success`. */
export type Edge = [fromId: string, toId: string, type?: string];

/** The ruleChain header the tests use: a root process in category Test. */
export const testChain = (key: string, processInfo: Record<string, unknown> = {}, name = `Process ${key}`) => ({
  id: key,
  name,
  root: true,
  additionalInfo: { category: 'Test', ...processInfo },
});

/** start → `nodes` → end, wired by `edges`. */
export function processDoc(ruleChain: Record<string, unknown>, nodes: unknown[], edges: Edge[]) {
  return {
    ruleChain,
    metadata: {
      firstNodeIndex: 0,
      nodes: [{ id: 'start', type: 'startTask', name: 'Start' }, ...nodes, { id: 'end', type: 'end', name: 'End' }],
      connections: edges.map(([fromId, toId, type = 'Success']) => ({ fromId, toId, type })),
    },
  };
}

/** userTasks n1, n2, … with these configurations, for `linear`. */
export const steps = (...configurations: Array<Record<string, unknown>>): StepNode[] =>
  configurations.map((configuration, i) => ({ id: `n${i + 1}`, configuration }));

/** Success edges through `ids` in order. */
export const chainEdges = (ids: string[]): Edge[] => ids.slice(1).map((to, i) => [ids[i], to]);

/** start → userTasks in order → end. */
export function linear(key: string, nodes: StepNode[], processInfo: Record<string, unknown> = {}) {
  return processDoc(
    testChain(key, processInfo),
    nodes.map((n) => ({
      id: n.id,
      type: 'userTask',
      name: `Node ${n.id}`,
      configuration: n.configuration,
      ...(n.additionalInfo ? { additionalInfo: n.additionalInfo } : {}),
    })),
    chainEdges(['start', ...nodes.map((n) => n.id), 'end']),
  );
}

/** `tasks` userTasks t0 … (named Step i, all bob's) in a row: for documents of a given size. */
export function userChain(tasks: number, ruleChain: Record<string, unknown>) {
  const ids = Array.from({ length: tasks }, (_, i) => `t${i}`);
  return processDoc(
    ruleChain,
    ids.map((id, i) => ({ id, type: 'userTask', name: `Step ${i}`, configuration: users('bob') })),
    chainEdges(['start', ...ids, 'end']),
  );
}

export const users = (...userIds: string[]) => ({ approver: { type: 'user', userIds } });

/** A node of any type, named by its id unless `name` is given. */
export const node = (id: string, type: string, configuration?: Record<string, unknown>, name = id) => ({
  id,
  type,
  name,
  ...(configuration ? { configuration } : {}),
});
export const conn = (fromId: string, toId: string, type = 'Success') => ({ fromId, toId, type });
/** Edges from one line: `'s>f f>x j>late:Failure'` (the type defaults to Success). */
export const edges = (line: string): Edge[] =>
  line
    .split(/\s+/)
    .filter(Boolean)
    .map((edge) => {
      const [path, type] = edge.split(':');
      const [fromId, toId] = path.split('>');
      return [fromId, toId, type];
    });
/** Connections from one line, as `edges`. */
export const wire = (line: string) => edges(line).map(([fromId, toId, type]) => conn(fromId, toId, type));
/** A userTask for the listed users. */
export const user = (id: string, userIds: string[], extra: Record<string, unknown> = {}) =>
  node(id, 'userTask', { ...users(...userIds), ...extra });
/** A process of these nodes and connections (nothing added): for graphs `processDoc` cannot describe. */
export const graphDoc = (id: string, nodes: unknown[], connections: unknown[], info: Record<string, unknown> = {}) => ({
  ruleChain: testChain(id, info, id),
  metadata: { firstNodeIndex: 0, nodes, connections },
});

/** Stuck on purpose (the repair tests): a switch with no Default, so amount <= 100 fails. */
export const pickyProcess = graphDoc(
  'picky',
  [
    node('s', 'startTask'),
    node('sw', 'switch', { cases: [{ case: 'msg.amount > 100', then: 'big' }] }),
    user('big', ['carol']),
    node('end', 'end'),
  ],
  wire('s>sw sw>big:big big>end'),
);

/** fork → (ta: bob) and (switch → tb: carol) → join → after: dave. With go = false the switch branch fails. */
export const parallelProcess = graphDoc(
  'parallel',
  [
    node('s', 'startTask'),
    node('f', 'fork'),
    user('ta', ['bob']),
    node('sw', 'switch', { cases: [{ case: 'msg.go == true', then: 'yes' }] }),
    user('tb', ['carol']),
    node('j', 'join', { timeout: 0 }),
    user('after', ['dave']),
    node('end', 'end'),
  ],
  wire('s>f f>ta f>sw sw>tb:yes ta>j tb>j j>after after>end'),
);
