// toStarter with a startTask first: the initiator gets a resubmit task and the flow waits for it
// (a userTask's reject, interpreter.ts, and an AI review's reject, ai-agent.ts, both come here).
import type { DslNode } from '../../dsl/index.js';
import type { Engine, NodeRun, Token } from './engine.js';
import { assignWhy } from './user-task/assignment.js';
import { edges, NodeFailure, type Step } from './flow.js';

/** toStarter with a startTask first: the initiator resubmits (or withdraws). */
export async function resubmit(engine: Engine, token: Token, start: DslNode, rejected: NodeRun): Promise<Step> {
  const run = engine.newRun(start.id, token.id);
  const task = engine.createTask({
    activityId: start.id,
    name: `Resubmit: ${start.name ?? start.id}`,
    kind: 'resubmit',
    runId: run.id,
    status: 'active',
    assignee: engine.info.initiatorId,
  });
  run.taskIds.push(task.id);
  engine.trail('assign', {
    activityId: start.id,
    taskId: task.id,
    userId: engine.info.initiatorId,
    detail: {
      reason: `rejected at ${rejected.nodeId} with strategy toStarter: the initiator may resubmit`,
      why: assignWhy('resubmit', { ids: [rejected.nodeId] }),
    },
  });
  token.nodeId = start.id;
  engine.completedApprovals = [];
  return resubmitWait(engine, token, start, run, task);
}

export async function resubmitWait(
  engine: Engine,
  token: Token,
  start: DslNode,
  run: NodeRun,
  task: { id: string },
): Promise<Step> {
  token.parked = true;
  engine.touch();
  await engine.paths.park(() => run.outcome !== null);
  token.parked = false;
  engine.trail('submit', {
    activityId: start.id,
    taskId: task.id,
    userId: engine.info.initiatorId,
    detail: { resubmitted: true },
  });
  // The flow runs again: after a startTask from its successor, otherwise from the first node itself.
  if (start.type !== 'startTask') return { jump: start.id };
  const next = edges(engine, start.id, 'Success')[0];
  if (!next) throw new NodeFailure(`start node ${start.id} has no Success connection`);
  return { jump: next };
}
