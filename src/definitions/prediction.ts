// The path ahead, with the real directory: each node ahead (decided or not), the approvers a
// userTask would get now with the rule that picked them, and what each switch/inclusive does with
// the data known. An instance's upcoming steps (upcoming.ts) and a simulated start
// (simulation.ts) are both read from it, so they cannot disagree; it writes nothing.
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  pathAhead,
  type DslNode,
  type GatewayOutcome,
  type ProcessDocument,
  type UndecidedBy,
} from '../../dsl/index.js';
import { pgDirectory, resolveApprovers, type ApproverInput } from '../directory/approvers.js';
import { Engine } from '../../workflows/engine/engine.js';
import type { InstanceInfo, ResolvedApprovers } from '../../workflows/engine/types.js';
import { approverInput, assignmentOf, ballotWhy } from '../../workflows/engine/user-task/assignment.js';
import { config, templateContext } from '../../workflows/engine/user-task/config.js';
import { fallbackOf } from '../../workflows/engine/user-task/empty-approver.js';
import { reasonOfWhy, type AssignmentReason } from '../read-model/assignment-reason.js';

export interface PredictedApprover {
  userId: string;
  /** The rule that picked them, as a task's `assignmentReason` would say it. */
  reason: AssignmentReason;
  /** Their ballot decides itself (selfApproval autoApprove). */
  autoApproved: boolean;
}

export interface PredictedAssignment {
  /**
   * How the workflow would make the tasks (workflows/engine/user-task.ts): one ballot per
   * approver, one task the approvers claim, a pool of roles/departments whose members claim, or
   * the emptyApproverPolicy's fallback because the rule found nobody.
   */
  mode: 'ballots' | 'claim' | 'pool' | 'fallback';
  approvers: PredictedApprover[];
  candidates: { userIds: string[]; roleIds: string[]; deptIds: string[] };
  /** The rule's reason for the whole node (pools, claims, fallbacks); per approver for ballots. */
  reason: AssignmentReason | null;
  /** The policy that applies (`tenant_admin`, `park`, `auto_approve`) and what the rule lacked. */
  fallback: { policy: string; problem: string } | null;
}

export interface PredictedStep {
  node: DslNode;
  undecided: boolean;
  undecidedBy: UndecidedBy[];
  /** userTasks only. */
  assignment: PredictedAssignment | null;
  /** switch and inclusive only (null without known data). */
  decision: GatewayOutcome | null;
}

export interface PredictionInput {
  info: InstanceInfo;
  doc: ProcessDocument;
  variables: Record<string, unknown>;
  /** The nodes with open work now (the first node for a start). */
  from: string[];
  /** List the `from` nodes too (a simulated start shows its first node). */
  withStarts?: boolean;
  /** Only userTasks (the instance's upcoming steps). */
  approvalsOnly?: boolean;
}

export async function predictPath(em: EntityManager, input: PredictionInput): Promise<PredictedStep[]> {
  // The engine's own view of the instance: the same approver inputs and condition context as a run.
  const engine = new Engine(input.info, input.doc, input.variables);
  const path = pathAhead(input.doc, input.from, templateContext(engine), {
    withStarts: input.withStarts,
    include: input.approvalsOnly ? (node) => node.type === 'userTask' : undefined,
  });
  const directory = pgDirectory(em, input.info.tenantId);
  // One directory look-up per distinct approver input, not per node.
  const lookups = new Map<string, Promise<ResolvedApprovers>>();
  const lookUp = (approver: ApproverInput) => {
    const key = JSON.stringify(approver);
    let pending = lookups.get(key);
    if (!pending) lookups.set(key, (pending = resolveApprovers(directory, approver)));
    return pending;
  };
  const out: PredictedStep[] = [];
  for (const { node, undecided, undecidedBy } of path.steps) {
    let assignment: PredictedAssignment | null = null;
    if (node.type === 'userTask') {
      const approver = approverInput(engine, node);
      assignment = assignmentFor(node, approver, await lookUp(approver));
    }
    out.push({ node, undecided, undecidedBy, assignment, decision: path.gateways.get(node.id) ?? null });
  }
  return out;
}

const noCandidates = () => ({ userIds: [] as string[], roleIds: [] as string[], deptIds: [] as string[] });

/** What startUserTask would do with this look-up, with the reasons its trail would record. */
function assignmentFor(node: DslNode, input: ApproverInput, resolved: ResolvedApprovers): PredictedAssignment {
  const cfg = config(node);
  const plan = assignmentOf(cfg, input, resolved);
  const base = { candidates: noCandidates(), reason: null, fallback: null };
  switch (plan.to) {
    case 'pool': {
      const reason = reasonOfWhy(plan.why);
      return {
        ...base,
        mode: 'pool',
        approvers: plan.members.map((userId) => ({ userId, reason, autoApproved: false })),
        candidates: { ...noCandidates(), roleIds: plan.candidates.roleIds, deptIds: plan.candidates.deptIds },
        reason,
      };
    }
    case 'claim': {
      const reason = reasonOfWhy(plan.why);
      return {
        ...base,
        mode: 'claim',
        approvers: plan.users.map((u) => ({ userId: u.userId, reason, autoApproved: false })),
        candidates: { ...noCandidates(), userIds: plan.candidates.userIds },
        reason,
      };
    }
    case 'users':
      return {
        ...base,
        mode: 'ballots',
        approvers: plan.users.map((u) => ({
          userId: u.userId,
          reason: reasonOfWhy(ballotWhy(cfg, input, u)),
          autoApproved: u.auto !== null,
        })),
      };
    case 'nobody': {
      const fallback = fallbackOf(cfg, input.initiatorId, resolved, plan.problem);
      const reason = reasonOfWhy(fallback.why);
      return {
        mode: 'fallback',
        approvers:
          fallback.policy === 'tenant_admin'
            ? fallback.admins.map((userId) => ({ userId, reason, autoApproved: false }))
            : [],
        candidates: fallback.policy === 'park' ? { ...noCandidates(), ...fallback.parked } : noCandidates(),
        reason,
        fallback: { policy: fallback.policy, problem: plan.problem },
      };
    }
  }
}
