// What the engine itself writes into an instance's trail, as codes and parameters (STYLE.md "Words
// at the edge, codes in history"). A trail entry the workflow writes carries `code` and `params`;
// the console says them in the reader's language (ui/src/i18n). The English `comment` the entry
// also keeps is made here, word for word as before codes existed, for API clients and for
// histories recorded before. Pure code: the workflows and the console import it.

/** Every code, with the parameters its entry carries. Codes are stable: add new ones, never rename. */
export interface HistoryParams {
  /** selfApproval autoApprove: the approver is the initiator. */
  'autoApprove.selfApproval': Record<string, never>;
  /** autoApproveRepeated: this person approved before, at `nodeName` (`nodeId`). */
  'autoApprove.repeated': { nodeId: string; nodeName: string; setting: string };
  /** emptyApproverPolicy auto_approve: the rule found nobody (`problem`, as the look-up said it). */
  'autoApprove.noApprover': { problem: string };
  /** timeout autoApprove. */
  'autoApprove.timeout': Record<string, never>;
  /** timeout autoReject. */
  'autoReject.timeout': Record<string, never>;
  /** timeout remind. */
  'task.overdue': Record<string, never>;
  /** The instance failed at this node (`reason`: the engine's or a system's message). */
  'instance.failed': { reason: string };
  /** A rejection sent the flow back to `target` (toPrev, toNode, toStarter). */
  'reject.backTo': { target: string; strategy: string };
  /** A switch/inclusive condition failed to evaluate (`message`: the expression engine's). */
  'condition.error': { message: string };
  /** A fork/inclusive opened parallel branches. */
  'fork.branches': { branches: string[] };
  /** A join waited `seconds` and gave up the branches still missing. */
  'join.timedOut': { seconds: number };
  /** A serviceTask's function failed (`message`: the function's). */
  'serviceFunction.failed': { functionName: string; message: string };
  /** An httpCall failed to get an answer (`message`: the transport's). */
  'httpCall.failed': { message: string };
  /** An httpCall was answered with an error status. */
  'httpCall.status': { status: number };
  /**
   * An aiAgent node's review (docs/ai-review.md): `verdict` PASS, REJECT, UNRESOLVED, REFERENCE,
   * FAILED, HUMAN_PASS, HUMAN_REJECT or ASYNC; `summary` the model's answer without its verdict
   * line, `error` a failed call's, `by` who decided a fallback task.
   */
  'ai.review': { verdict: string; agentId: string; summary?: string; error?: string; by?: string | null };
  /** A subProcess node started its child instance. */
  'subProcess.started': { targetId: string };
  /** An automation node started a run of rule chain `targetId`. */
  'automation.started': { targetId: string; runId: string };
  /** An automation node's chain could not run or its run failed (`message`: why). */
  'automation.failed': { targetId: string; message: string };
  /** Variables were set or deleted. */
  'variables.changed': Record<string, never>;
  /** An admin moved the instance to another version of its process. */
  'instance.migrated': { actor: string; fromVersion: number | null; toVersion: number | null };
  /** An admin gave the task to `to` (from `from`, null: the candidate pool). */
  'task.reassigned': { actor: string; from: string | null; to: string; reason: string | null };
  /** An admin re-drove the instance: these nodes run again. */
  'instance.redriven': { actor: string; nodes: string[]; reason: string | null };
  /** An admin resumed past a join, giving up the branches still open. */
  'instance.forceResumed': { actor: string; joinId: string; branches: string[]; reason: string | null };
}

export type HistoryCode = keyof HistoryParams;

const english: { [C in HistoryCode]: (p: HistoryParams[C]) => string } = {
  'autoApprove.selfApproval': () => 'Approved automatically: the approver is the initiator (selfApproval autoApprove)',
  'autoApprove.repeated': (p) =>
    `Approved automatically: already approved at ${p.nodeName} (autoApproveRepeated ${p.setting})`,
  'autoApprove.noApprover': (p) => `Approved automatically: ${p.problem} (emptyApproverPolicy auto_approve)`,
  'autoApprove.timeout': () => 'Approved automatically: the task passed its due date (timeout autoApprove)',
  'autoReject.timeout': () => 'Rejected automatically: the task passed its due date (timeout autoReject)',
  'task.overdue': () => 'Reminder: the task is overdue',
  'instance.failed': (p) => `Instance failed: ${p.reason}`,
  'reject.backTo': (p) => `Rejected: back to ${p.target} (${p.strategy})`,
  'condition.error': (p) => `Condition error: ${p.message}`,
  'fork.branches': (p) => `Parallel branches: ${p.branches.join(', ')}`,
  'join.timedOut': (p) => `Join timed out after ${p.seconds}s`,
  'serviceFunction.failed': (p) => `Service function ${p.functionName} failed: ${p.message}`,
  'httpCall.failed': (p) => `HTTP call failed: ${p.message}`,
  'httpCall.status': (p) => `HTTP call answered ${p.status}`,
  'ai.review': (p) =>
    `AI pre-review (${p.agentId}): ${p.verdict}${p.summary || p.error ? ` — ${p.summary || p.error}` : p.by ? ` — by ${p.by}` : ''}`,
  'subProcess.started': (p) => `Started sub-process ${p.targetId}`,
  'automation.started': (p) => `Started rule chain ${p.targetId} (run ${p.runId})`,
  'automation.failed': (p) => `Rule chain ${p.targetId} failed: ${p.message}`,
  'variables.changed': () => 'Variables changed',
  'instance.migrated': (p) => `Migrated by ${p.actor} from version ${p.fromVersion ?? '?'} to version ${p.toVersion}`,
  'task.reassigned': (p) =>
    `Reassigned by ${p.actor} from ${p.from ?? 'the candidate pool'} to ${p.to}${p.reason ? `: ${p.reason}` : ''}`,
  'instance.redriven': (p) =>
    `Re-driven by ${p.actor}: ${p.nodes.join(', ') || 'the failed node'} run${p.nodes.length === 1 ? 's' : ''} again${p.reason ? `: ${p.reason}` : ''}`,
  'instance.forceResumed': (p) =>
    `Force-resumed past ${p.joinId} by ${p.actor}; branches given up: ${p.branches.join(', ')}${p.reason ? `: ${p.reason}` : ''}`,
};

export const HISTORY_CODES = Object.keys(english) as HistoryCode[];

export const isHistoryCode = (code: unknown): code is HistoryCode =>
  typeof code === 'string' && Object.prototype.hasOwnProperty.call(english, code);

/** The English sentence of a code (what the entry's `comment` holds). */
export const historyComment = <C extends HistoryCode>(code: C, params: HistoryParams[C]): string =>
  english[code](params);

/** The fields a trail entry written by the engine carries: its code, its params and the English comment. */
export function said<C extends HistoryCode>(
  code: C,
  params: HistoryParams[C],
): { code: C; params: HistoryParams[C]; comment: string } {
  return { code, params, comment: english[code](params) };
}
