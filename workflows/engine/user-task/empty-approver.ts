// When the approver rule finds nobody: the emptyApproverPolicy's fallback (fallbackOf, pure) and the task it makes (applyEmptyPolicy).
import type { DslNode } from '../../../dsl/index.js';
import { said } from '../../../dsl/history.js';
import { type Engine, emptyCandidates, type NodeRun } from '../engine.js';
import type { Candidates, TaskKind } from '../types.js';
import type { UserTaskConfig } from './config.js';
import { assignWhy, ruleName } from './assignment.js';
import { watchDue } from './ballots.js';

/**
 * What the emptyApproverPolicy does when a rule finds nobody: the policy that applies (tenant_admin
 * without another admin parks), the admins it would ask, a parked pool's roles and departments,
 * and the reason recorded. Pure: the prediction shares it.
 */
export function fallbackOf(
  cfg: UserTaskConfig,
  initiatorId: string,
  resolved: { admins: string[]; pool: Candidates | null },
  problem: string,
) {
  let policy = cfg.emptyApproverPolicy ?? 'tenant_admin';
  const admins = resolved.admins.filter((a) => a !== initiatorId);
  if (policy === 'tenant_admin' && admins.length === 0) policy = 'park';
  const from = ruleName(cfg.approver ?? { type: 'user' }, initiatorId);
  // A parked pool lists the roles/departments it waits for: once the directory has members, they may claim.
  const parked = resolved.pool
    ? { ...emptyCandidates(), roleIds: resolved.pool.roleIds, deptIds: resolved.pool.deptIds }
    : emptyCandidates();
  const why = assignWhy('fallback', { policy, rule: from, reason: problem });
  return {
    policy,
    admins,
    parked,
    fields: { fallback_policy: policy, fallback_from: from, fallback_reason: problem },
    why:
      policy === 'tenant_admin'
        ? { ...why, ids: admins, count: admins.length }
        : policy === 'park'
          ? { ...why, ids: [...parked.roleIds, ...parked.deptIds] }
          : why,
  };
}

export function applyEmptyPolicy(
  engine: Engine,
  run: NodeRun,
  node: DslNode,
  cfg: UserTaskConfig,
  resolved: { admins: string[]; pool: Candidates | null },
  why: string,
  base: { activityId: string; name: string; kind: TaskKind; runId: string },
  dueDate: string | null,
): NodeRun {
  const {
    policy,
    admins,
    parked: candidates,
    fields: fallback,
    why: fallbackWhy,
  } = fallbackOf(cfg, engine.info.initiatorId, resolved, why);
  if (policy === 'auto_approve') {
    const task = engine.createTask({ ...base, status: 'active', variables: fallback });
    run.taskIds.push(task.id);
    const words = said('autoApprove.noApprover', { problem: why });
    engine.closeTask(task, 'auto_approved', words.comment);
    engine.trail('auto_approve', {
      activityId: node.id,
      taskId: task.id,
      ...words,
      detail: { rule: 'emptyApproverPolicy: auto_approve', ...fallback },
    });
    run.outcome = 'approved';
    return run;
  }
  if (policy === 'tenant_admin') {
    const single = admins.length === 1;
    const task = engine.createTask({
      ...base,
      status: single ? 'active' : 'pending',
      assignee: single ? admins[0] : null,
      candidates: single ? emptyCandidates() : { ...emptyCandidates(), userIds: admins },
      variables: fallback,
      dueDate,
    });
    run.taskIds.push(task.id);
    engine.trail('assign', {
      activityId: node.id,
      taskId: task.id,
      userId: single ? admins[0] : null,
      detail: { reason: `emptyApproverPolicy tenant_admin: ${why}`, ...fallback, why: fallbackWhy },
    });
    watchDue(engine, run, task, cfg);
    return run;
  }
  const task = engine.createTask({ ...base, status: 'pending', candidates, variables: fallback, dueDate });
  run.taskIds.push(task.id);
  engine.trail('assign', {
    activityId: node.id,
    taskId: task.id,
    detail: {
      reason: `emptyApproverPolicy park: ${why}; waits for an admin to add candidates or reassign`,
      ...fallback,
      candidates,
      why: fallbackWhy,
    },
  });
  return run;
}
