// GFlow's automation node (docs/rule-chains.md "Approvals and chains"): the process runs a rule
// chain as a child workflow `chainRun`, with the variables as the message's JSON data. Waiting
// (wait, the default), the output message's data merges into the variables as httpCall's answer
// does; not waiting, the run is started, abandoned by this instance, and the path goes on. A
// missing or stopped chain, or a failed run, takes Failure when connected, else fails the instance
// like a failed serviceTask (an admin's re-drive runs the node again, as a new run).
import {
  CancellationScope,
  ParentClosePolicy,
  proxyLocalActivities,
  sleep,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { AutomationConfig, DslNode } from '../../dsl/index.js';
import { said } from '../../dsl/history.js';
import {
  CHAIN_RUN_WORKFLOW,
  chainRunWorkflowId,
  type ChainRunInput,
  type ChainRunResult,
  type RuleMsg,
} from '../../chains/types.js';
import { msgData } from '../../chains/msg.js';
import type { createChainStartProcessActivities } from '../../activities/chain-start-process.js';
import { type Engine, Halt, type Token } from './engine.js';
import { causeMessage, hasEdge, NodeFailure, type Step } from './flow.js';
import { nodeName } from './details.js';
import { mergeOutput } from './output-merge.js';

type ChainActivities = ReturnType<typeof createChainStartProcessActivities>;

/** The chain's head: one indexed PostgreSQL read beside the workflow. */
const chains = proxyLocalActivities<ChainActivities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '200ms', maximumInterval: '10s', backoffCoefficient: 2 },
});

const configOf = (node: DslNode) => (node.configuration ?? {}) as AutomationConfig;

/** The message the chain gets: the variables as JSON, the instance in the metadata (tenant_id as GFlow passes it). */
function messageOf(engine: Engine, node: DslNode, runId: string): RuleMsg {
  return {
    id: runId,
    ts: Date.now(),
    type: 'automation',
    dataType: 'JSON',
    data: JSON.stringify(engine.variables),
    metadata: {
      instanceId: engine.info.id,
      processKey: engine.info.processKey,
      businessKey: engine.info.businessKey ?? '',
      nodeId: node.id,
      initiator: engine.info.initiatorId,
      tenant_id: engine.info.tenantId,
    },
  };
}

/** Failure edge, else the instance fails at the node (trail entry either way). */
function failed(engine: Engine, node: DslNode, message: string): Step {
  const targetId = configOf(node).targetId;
  engine.trail('system', { activityId: node.id, ...said('automation.failed', { targetId, message }) });
  if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
  throw new NodeFailure(`automation ${targetId} failed: ${message}`);
}

export async function automation(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  const cfg = configOf(node);
  const wait = cfg.wait ?? true;
  // One run per visit of the node: the change counter when the path arrived makes it unique and
  // the same on replay; a re-drive comes back with another counter, so it is a new run.
  const runId = `auto:${engine.info.id}:${node.id}:${engine.seq}`;
  const chain = await chains.loadChainForAutomation.executeWithOptions(
    { summary: `rule chain ${cfg.targetId} at ${nodeName(node)}` },
    [{ tenantId: engine.info.tenantId, chainId: cfg.targetId }],
  );
  if (chain.status === 'missing') return failed(engine, node, `rule chain ${cfg.targetId} does not exist`);
  if (chain.status === 'stopped') return failed(engine, node, `rule chain ${cfg.targetId} is stopped`);
  const input: ChainRunInput = {
    runId,
    tenantId: engine.info.tenantId,
    chainId: cfg.targetId,
    chainVersion: chain.version,
    chain: chain.dsl,
    msg: messageOf(engine, node, runId),
    trigger: { kind: 'automation', instanceId: engine.info.id, nodeId: node.id },
  };
  token.parked = true;
  engine.touch();
  // The child in a scope of its own: a run past its time limit is cancelled (it logs itself failed).
  const runScope = new CancellationScope();
  let result: ChainRunResult | null;
  try {
    const child = await engine.paths.parkOn(
      runScope.run(() =>
        startChild<(input: ChainRunInput) => Promise<ChainRunResult>>(CHAIN_RUN_WORKFLOW, {
          workflowId: chainRunWorkflowId(engine.info.tenantId, runId),
          args: [input],
          taskQueue: workflowInfo().taskQueue,
          // Not waiting: the run outlives the instance. Waiting: an ending instance asks it to stop.
          parentClosePolicy: wait ? ParentClosePolicy.REQUEST_CANCEL : ParentClosePolicy.ABANDON,
          staticSummary: `rule chain ${cfg.targetId} from ${engine.info.processKey} at ${nodeName(node)}`,
        }),
      ),
    );
    engine.trail('system', {
      activityId: node.id,
      ...said('automation.started', { targetId: cfg.targetId, runId }),
      detail: { runId, wait },
    });
    if (!wait) {
      token.parked = false;
      engine.touch();
      return { follow: 'Success' };
    }
    result = await engine.paths.parkOn(withinLimit(child.result(), cfg.timeoutMs, `rule chain ${cfg.targetId}`));
  } catch (err) {
    if (err instanceof Halt) throw err;
    token.parked = false;
    return failed(engine, node, causeMessage(err));
  }
  if (result === null) {
    runScope.cancel();
    token.parked = false;
    return failed(engine, node, `the run took longer than ${cfg.timeoutMs} ms and was cancelled`);
  }
  token.parked = false;
  if (!result.success) {
    const where = result.error?.nodeId ? ` at node ${result.error.nodeId}` : '';
    return failed(engine, node, `${result.error?.message ?? 'the run failed'}${where}`);
  }
  mergeOutput(engine.variables, msgData(result.msg), {
    reservedKey: cfg.reservedKey ?? '_automation',
    flatten: cfg.flattenOutput ?? true,
    mappings: cfg.outputMappings,
  });
  engine.touch();
  return { follow: 'Success' };
}

/** The run's result, or null once `limitMs` passed first (no limit: the result). */
async function withinLimit<T>(result: Promise<T>, limitMs: number | undefined, what: string): Promise<T | null> {
  if (!limitMs) return result;
  const timer = new CancellationScope();
  const elapsed = timer
    .run(() => sleep(limitMs, { summary: `time limit of ${what}` }))
    .then(
      () => null,
      () => null, // cancelled below once the result came first
    );
  try {
    return await Promise.race([result, elapsed]);
  } finally {
    timer.cancel();
  }
}
