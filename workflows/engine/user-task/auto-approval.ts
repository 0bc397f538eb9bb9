// Ballots that decide themselves: the initiator's own (selfApproval autoApprove) and a repeat of an approval given before (autoApproveRepeated).
import { said } from '../../../dsl/history.js';
import type { Engine, NodeRun } from '../engine.js';
import type { TaskState } from '../types.js';

export interface AutoApproval {
  said: ReturnType<typeof said>;
  detail: Record<string, unknown>;
  repeat?: boolean;
}

export const SELF_APPROVAL: AutoApproval = {
  said: said('autoApprove.selfApproval', {}),
  detail: { rule: 'selfApproval: autoApprove' },
};

export type RepeatSetting = 'none' | 'adjacent' | 'all';

export function repeatSetting(engine: Engine): RepeatSetting {
  const value = engine.doc.ruleChain.additionalInfo?.autoApproveRepeated;
  return value === 'adjacent' || value === 'all' ? value : 'none';
}

/**
 * An approval `userId` gave before that makes this ballot automatic: `adjacent` — at the run the
 * path left approved just before this one; `all` — at any node of this instance that still
 * stands approved (a rejection or return back past it undoes it). Automatic repeats count too.
 */
export function approvedBefore(
  engine: Engine,
  run: NodeRun,
  userId: string,
  setting: RepeatSetting,
): TaskState | undefined {
  const approvedBy = (t: TaskState) =>
    t.assignee === userId &&
    !t.removed &&
    t.kind === 'approval' &&
    (t.result === 'approved' || (t.result === 'auto_approved' && t.repeatApproved === true));
  const passed = (r: NodeRun | undefined) => r && (r.outcome === 'approved' || r.outcome === 'completed');
  if (setting === 'adjacent') {
    const previous = run.previousRunId ? engine.runs[run.previousRunId] : undefined;
    if (!passed(previous)) return undefined;
    return Object.values(engine.tasks).find((t) => t.runId === previous!.id && approvedBy(t));
  }
  const standing = new Set(engine.completedApprovals);
  return Object.values(engine.tasks).find(
    (t) => t.runId !== run.id && approvedBy(t) && passed(engine.runs[t.runId]) && standing.has(t.activityId),
  );
}

export function repeatApproval(setting: RepeatSetting, before: TaskState): AutoApproval {
  return {
    said: said('autoApprove.repeated', { nodeId: before.activityId, nodeName: before.name, setting }),
    detail: { rule: `autoApproveRepeated: ${setting}`, approvedAt: before.activityId, approvedTask: before.id },
    repeat: true,
  };
}
