// One rule-chain run (docs/rule-chains.md): a durable interpretation of the chain snapshot it was
// started with. Its row in rule_chain_runs is begun and finished from the workflow's own record.
import { CancellationScope, isCancellation, setHandler, workflowInfo } from '@temporalio/workflow';
import { chainRunWorkflowId, type ChainRunInput, type ChainRunResult } from '../chains/types.js';
import { chainLocal } from './chain/activities.js';
import { chainRunState } from './chain/messages.js';
import { ChainRun } from './chain/run.js';

export async function chainRun(given: ChainRunInput): Promise<ChainRunResult> {
  const input = scheduledRun(given);
  const run = new ChainRun(input);
  let done = false;
  setHandler(chainRunState, () => run.state(done));
  const begun = {
    runId: input.runId,
    tenantId: input.tenantId,
    chainId: input.chainId,
    chainVersion: input.chainVersion,
    chainName: input.chain.ruleChain?.name || input.chainId,
    workflowId: workflowInfo().workflowId,
    trigger: input.trigger,
    inMsg: input.msg,
    startedAt: Date.now(),
  };
  await chainLocal.beginChainRun(begun);
  let cancelled: unknown = null;
  try {
    await run.execute();
  } catch (err) {
    if (!isCancellation(err)) throw err;
    cancelled = err;
    run.cancelled('the run was cancelled');
  }
  done = true;
  const result = run.result();
  // Written even when the run was cancelled from outside.
  await CancellationScope.nonCancellable(() =>
    chainLocal.finishChainRun({
      ...begun,
      success: result.success,
      errorNode: result.error?.nodeId ?? null,
      errorMsg: result.error?.message ?? null,
      outMsg: result.msg,
      logs: result.logs,
      endedAt: Date.now(),
    }),
  );
  if (cancelled) throw cancelled;
  return result;
}

/**
 * A Schedule's fire (src/rule-chains/schedules.ts) carries the run id `scheduled`: its run id is its
 * own workflow id's tail (Temporal appends the fire time to the schedule's id), unique per fire.
 */
function scheduledRun(input: ChainRunInput): ChainRunInput {
  if (input.runId !== 'scheduled') return input;
  const runId = workflowInfo().workflowId.slice(chainRunWorkflowId(input.tenantId, '').length);
  return { ...input, runId, msg: { ...input.msg, id: input.msg.id || runId, ts: input.msg.ts || Date.now() } };
}
