// Loops that never wait (docs/definitions.md "Loops"): a cycle of the graph that
// passes through no waiting node would run forever inside one workflow activation.
import { graphIndex } from './graph.js';
import { finding } from './problems.js';
import { problemAt, type NodeType, type Problem, type ProcessDocument } from './types.js';

/**
 * Node types that always wait for a person or for time before the flow moves on, so a loop
 * through one of them advances at most once per wait: userTask (a person decides) and delay (a
 * timer). Every other type can pass straight through — switch/inclusive/fork/join, ccTask,
 * serviceTask, httpCall (a remote call is not a wait: the loop would call it without pause),
 * subProcess (its child may end at once) and startTask (it waits only when returned to).
 * A userTask that passes by itself (auto-approve policies) or a zero delay is left to the
 * engine's step budget (docs/engine.md).
 */
export const WAITING_NODE_TYPES: readonly NodeType[] = ['userTask', 'delay'];

/** Every cycle (over all connections) made only of non-waiting nodes, as problems on its nodes. */
export function cycleProblems(doc: ProcessDocument): Problem[] {
  const index = graphIndex(doc);
  const free = (id: string) => {
    const node = index.byId.get(id);
    return node !== undefined && !WAITING_NODE_TYPES.includes(node.type as NodeType);
  };
  const next = (id: string) => (index.out.get(id) ?? []).map((c) => c.toId).filter(free);

  // Tarjan's strongly connected components over the non-waiting nodes (iterative: no deep recursion).
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const root of index.byId.keys()) {
    if (!free(root) || order.has(root)) continue;
    const work: Array<{ id: string; succ: string[]; i: number }> = [];
    const enter = (id: string) => {
      order.set(id, counter);
      low.set(id, counter++);
      stack.push(id);
      onStack.add(id);
      work.push({ id, succ: next(id), i: 0 });
    };
    enter(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.i < frame.succ.length) {
        const to = frame.succ[frame.i++];
        if (!order.has(to)) enter(to);
        else if (onStack.has(to)) low.set(frame.id, Math.min(low.get(frame.id)!, order.get(to)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].id;
        low.set(parent, Math.min(low.get(parent)!, low.get(frame.id)!));
      }
      if (low.get(frame.id) === order.get(frame.id)) {
        const component: string[] = [];
        for (;;) {
          const id = stack.pop()!;
          onStack.delete(id);
          component.push(id);
          if (id === frame.id) break;
        }
        const selfLoop = component.length === 1 && next(component[0]).includes(component[0]);
        if (component.length > 1 || selfLoop) components.push(component.reverse());
      }
    }
  }

  const problems: Problem[] = [];
  for (const component of components) {
    const loop = finding('graph.loopNeverWaits', { nodeIds: component, waitingTypes: [...WAITING_NODE_TYPES] });
    for (const nodeId of component) problems.push(problemAt(nodeId, 'connections', loop));
  }
  return problems;
}
