// GFlow's aiAgent node (docs/ai-review.md): the application goes to a catalogue AI agent as one
// chat message (form data, process facts, earlier comments, initiator, the node's own prompt, the
// verdict protocol); the verdict on the answer's last AI_DECISION line routes the path — pass on,
// reject (terminate or back to the initiator), or a person decides (failureHandler). Trail entries
// hold codes and parameters only (`ai_review`), the console puts them into words.
import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { AiAgentConfig, DslNode } from '../../dsl/index.js';
import { renderTemplate } from '../../dsl/templates.js';
import { said } from '../../dsl/history.js';
import { ending } from '../../dsl/ending.js';
import type { Activities } from '../../activities/index.js';
import type { AgentAnswer } from '../../activities/ai-agent.js';
import { type Engine, Halt, type NodeRun, type Token } from './engine.js';
import { causeMessage, hasEdge, NodeFailure, type Step } from './flow.js';
import { nodeName } from './details.js';
import { templateContext } from './user-task/config.js';
import { assignWhy } from './user-task/assignment.js';
import { DECISION_PROTOCOL, extractVerdict, summaryOf, type AiVerdict } from './ai-verdict.js';
import { mergeOutput } from './output-merge.js';
import { resubmit } from './resubmit.js';

/** The agent call: retried (a model server busy or restarting), each attempt within the node's timeout. */
function agentActivities(timeoutSec: number) {
  return proxyActivities<Activities>({
    startToCloseTimeout: `${timeoutSec + 5}s`,
    retry: { maximumAttempts: 3, initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '10s' },
  });
}

const DEFAULT_TIMEOUT_SEC = 120;

const configOf = (node: DslNode) => (node.configuration ?? {}) as AiAgentConfig;

/** The one user message, in GFlow's sections; the agent's system prompt comes from the catalogue. */
export function assemblePrompt(engine: Engine, node: DslNode): string {
  const cfg = configOf(node);
  const on = {
    formData: true,
    processInfo: true,
    prevComments: true,
    initiator: true,
    ...cfg.inputAssembly?.contextSources,
  };
  const parts: string[] = [];
  const reserved = cfg.reservedKey ?? '_ai';
  if (on.formData) {
    const form = Object.fromEntries(
      Object.entries(engine.variables).filter(([k]) => k !== reserved && !k.startsWith('__')),
    );
    if (Object.keys(form).length) parts.push(`## Form data\n${JSON.stringify(form)}`);
  }
  if (on.processInfo)
    parts.push(
      `## Process\n${JSON.stringify({
        processKey: engine.info.processKey,
        processName: engine.info.processName,
        instanceId: engine.info.id,
        businessKey: engine.info.businessKey,
      })}`,
    );
  if (on.prevComments) {
    const comments = Object.values(engine.tasks)
      .filter((t) => t.kind === 'approval' && t.comment && (t.result === 'approved' || t.result === 'rejected'))
      .sort((a, b) => (a.endTime ?? '').localeCompare(b.endTime ?? ''))
      .map((t) => ({ node: t.name, by: t.assignee, result: t.result, comment: t.comment }));
    if (comments.length) parts.push(`## Earlier comments\n${JSON.stringify(comments)}`);
  }
  if (on.initiator) parts.push(`## Initiator\n${JSON.stringify({ owner: engine.info.initiatorId })}`);
  let content = parts.join('\n\n');
  const custom = cfg.inputAssembly?.customPrompt
    ? renderTemplate(cfg.inputAssembly.customPrompt, templateContext(engine))
    : '';
  if (custom.trim()) content = content ? `${custom}\n\n---\n\n${content}` : custom;
  if (cfg.decision && !cfg.async) content = content ? `${content}\n\n---\n\n${DECISION_PROTOCOL}` : DECISION_PROTOCOL;
  return content.trim() ? content : 'Please review.';
}

type Outcome = AiVerdict | 'FAILED' | 'HUMAN_PASS' | 'HUMAN_REJECT' | 'ASYNC' | 'REFERENCE';

/** The trail entry of a review: codes and parameters, no sentence (the reader's language renders it). */
function record(
  engine: Engine,
  node: DslNode,
  outcome: Outcome,
  params: { summary?: string; error?: string; by?: string | null; model?: string; reused?: boolean } = {},
) {
  const cfg = configOf(node);
  const { model, reused, ...said_ } = params;
  engine.trail('ai_review', {
    activityId: node.id,
    ...said('ai.review', { verdict: outcome, agentId: cfg.agentId, ...said_ }),
    detail: {
      code: `ai.${outcome.toLowerCase()}`,
      verdict: outcome,
      agentId: cfg.agentId,
      ...params,
      ...(model === undefined ? {} : { model }),
      ...(reused === undefined ? {} : { reused }),
    },
  });
}

export async function aiAgent(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  const cfg = configOf(node);
  const timeoutSec = cfg.timeoutSec ?? DEFAULT_TIMEOUT_SEC;
  const call = {
    tenantId: engine.info.tenantId,
    agentId: cfg.agentId,
    workflowId: workflowInfo().workflowId,
    nodeId: node.id,
    prompt: assemblePrompt(engine, node),
    timeoutMs: timeoutSec * 1000,
    // Only when named: the calls of older nodes stay as they were.
    ...(cfg.skills?.length ? { skills: cfg.skills } : {}),
    // The activity reads the instance's files (never the workflow): only the instance id goes.
    ...(cfg.inputAssembly?.contextSources?.attachments ? { attachments: { instanceId: engine.info.id } } : {}),
  };
  const summary = `AI agent ${cfg.agentId} at ${nodeName(node)}`;
  const activity = agentActivities(timeoutSec).callAiAgent;
  if (cfg.async) {
    // Fire and forget, as in GFlow: the path does not wait and nothing routes on the answer.
    void activity.executeWithOptions({ summary }, [call]).catch(() => undefined);
    record(engine, node, 'ASYNC');
    return { follow: 'Success' };
  }
  token.parked = true;
  engine.touch();
  let answer: AgentAnswer;
  try {
    answer = await engine.paths.parkOn(activity.executeWithOptions({ summary }, [call]));
  } catch (err) {
    if (err instanceof Halt) throw err;
    token.parked = false;
    const error = causeMessage(err);
    record(engine, node, 'FAILED', { error });
    if (cfg.failureHandler?.length) return humanFallback(engine, token, node, 'failed');
    if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
    throw new NodeFailure(`AI agent ${cfg.agentId} failed: ${error}`);
  }
  token.parked = false;
  mergeOutput(engine.variables, answer.content, {
    reservedKey: cfg.reservedKey ?? '_ai',
    flatten: cfg.flattenOutput ?? false,
    mappings: cfg.outputMappings,
  });
  engine.touch();
  const verdict = cfg.decision ? extractVerdict(answer.content) : null;
  record(engine, node, verdict ?? 'REFERENCE', {
    summary: summaryOf(answer.content),
    model: answer.model,
    reused: answer.reused,
  });
  if (verdict === 'REJECT') return reject(engine, token, node);
  if (verdict === 'UNRESOLVED') {
    const unresolved = cfg.decision?.unresolved ?? 'human';
    if (unresolved === 'reject') return reject(engine, token, node);
    // `human` without anyone to ask passes, marked, as in GFlow.
    if (unresolved === 'human' && cfg.failureHandler?.length) return humanFallback(engine, token, node, 'unresolved');
  }
  return { follow: 'Success' };
}

/**
 * The node's reject strategy: `toStarter` sends the application back to the initiator (a
 * resubmit task at a startTask, fresh tasks at a first userTask); `terminate` follows a Reject
 * edge when one is drawn, otherwise the instance ends rejected.
 */
function reject(engine: Engine, token: Token, node: DslNode): Promise<Step> | Step {
  const strategy = configOf(node).decision?.rejectStrategy ?? 'terminate';
  if (strategy === 'toStarter') {
    const first = engine.doc.metadata.nodes[engine.doc.metadata.firstNodeIndex ?? 0];
    engine.completedApprovals = [];
    if (first.type === 'userTask') return { jump: first.id };
    return resubmit(engine, token, first, engine.newRun(node.id, token.id));
  }
  if (hasEdge(engine, node.id, 'Reject')) return { follow: 'Reject' };
  engine.end('rejected', ending('end.aiRejected', { nodeId: node.id, nodeName: node.name?.trim() || null }));
  throw new Halt();
}

/**
 * The failureHandler users each get a task at this node: all approve → on, a rejection → the
 * reject strategy. The model is not asked again: a re-drive of the node is answered
 * from the stored answer (activities/ai-agent.ts).
 */
async function humanFallback(
  engine: Engine,
  token: Token,
  node: DslNode,
  cause: 'failed' | 'unresolved',
): Promise<Step> {
  const users = [...new Set(configOf(node).failureHandler ?? [])];
  // As in GFlow, every listed person decides and one rejection rejects (approve mode `all`).
  const run = engine.newRun(node.id, token.id, { mode: 'all' });
  run.threshold = users.length;
  const name = node.name ?? node.id;
  for (const userId of users) {
    const task = engine.createTask({
      activityId: node.id,
      name,
      kind: 'approval',
      runId: run.id,
      status: 'active',
      assignee: userId,
    });
    run.taskIds.push(task.id);
    engine.trail('assign', {
      activityId: node.id,
      taskId: task.id,
      userId,
      detail: {
        reason: `AI pre-review ${cause}: failureHandler`,
        why: assignWhy('fallback', { ids: users, policy: 'aiAgent', reason: `AI ${cause}` }),
      },
    });
  }
  return awaitFallback(engine, token, node, run);
}

async function awaitFallback(engine: Engine, token: Token, node: DslNode, run: NodeRun): Promise<Step> {
  token.parked = true;
  engine.touch();
  await engine.paths.park(() => run.outcome !== null);
  token.parked = false;
  if (run.redriven) return { jump: token.nodeId };
  if (run.outcome === 'approved' || run.outcome === 'completed') {
    record(engine, node, 'HUMAN_PASS', { by: run.decidedBy });
    return { follow: 'Success' };
  }
  if (run.outcome === 'rejected') {
    record(engine, node, 'HUMAN_REJECT', { by: run.decidedBy });
    return reject(engine, token, node);
  }
  return { stop: true };
}
