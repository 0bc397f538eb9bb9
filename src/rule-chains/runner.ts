// Starting a chain run: one Temporal workflow per run (workflows/chain-run.workflow.ts). Every
// trigger (execute, notify, HTTP hooks, process events, the console) goes through here; schedules
// start the same workflow from a Temporal Schedule, and `flow` nodes as a child workflow.
import type { Client } from '@temporalio/client';
import { CHAIN_RUN_WORKFLOW, chainRunWorkflowId, type ChainRunInput, type ChainRunResult } from '../../chains/types.js';

export interface RunTarget {
  temporal: Client;
  taskQueue: string;
}

/** Starts the run and answers at once (RuleGo's notify). A run id already started is not started twice. */
export async function startChainRun(
  target: RunTarget,
  input: ChainRunInput,
): Promise<{ runId: string; workflowId: string }> {
  const workflowId = chainRunWorkflowId(input.tenantId, input.runId);
  await target.temporal.workflow.start(CHAIN_RUN_WORKFLOW, {
    workflowId,
    taskQueue: target.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return { runId: input.runId, workflowId };
}

/** Runs the chain and waits for its output (RuleGo's execute, a waiting HTTP route). */
export async function executeChainRun(target: RunTarget, input: ChainRunInput): Promise<ChainRunResult> {
  return target.temporal.workflow.execute(CHAIN_RUN_WORKFLOW, {
    workflowId: chainRunWorkflowId(input.tenantId, input.runId),
    taskQueue: target.taskQueue,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
  }) as Promise<ChainRunResult>;
}
