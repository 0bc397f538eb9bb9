// Small process documents for the workflow tests (same shapes as the HTTP suites use).
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const example = (name: string) => JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../examples', name), 'utf8'));

export interface StepNode {
  id: string;
  configuration: Record<string, unknown>;
  additionalInfo?: Record<string, unknown>;
}

/** start → userTasks in order → end. */
export function linear(key: string, nodes: StepNode[], processInfo: Record<string, unknown> = {}) {
  const ids = ['start', ...nodes.map((n) => n.id), 'end'];
  return {
    ruleChain: { id: key, name: `Process ${key}`, root: true, additionalInfo: { category: 'Test', ...processInfo } },
    metadata: {
      firstNodeIndex: 0,
      nodes: [
        { id: 'start', type: 'startTask', name: 'Start' },
        ...nodes.map((n) => ({ id: n.id, type: 'userTask', name: `Node ${n.id}`, configuration: n.configuration, ...(n.additionalInfo ? { additionalInfo: n.additionalInfo } : {}) })),
        { id: 'end', type: 'end', name: 'End' },
      ],
      connections: ids.slice(1).map((to, i) => ({ fromId: ids[i], toId: to, type: 'Success' })),
    },
  };
}

/** One userTask between start and end. */
export const oneStep = (key: string, configuration: Record<string, unknown>, additionalInfo?: Record<string, unknown>) =>
  linear(key, [{ id: 'approve', configuration, ...(additionalInfo ? { additionalInfo } : {}) }]);

export const users = (...userIds: string[]) => ({ approver: { type: 'user', userIds } });
