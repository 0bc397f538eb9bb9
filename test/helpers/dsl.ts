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
