// Whom a userTask asks: the approver rule's look-up input (approverInput, and the inputs ahead), why it chose each person (assignWhy), and the assignment it makes of the answer (assignmentOf).
import type { DslNode } from '../../../dsl/index.js';
import { resolveTemplateValue } from '../../../dsl/templates.js';
import { walk } from '../../../dsl/graph.js';
import { aheadKey, type AheadInput } from '../approvers-ahead.js';
import { type Engine, emptyCandidates } from '../engine.js';
import type { ApproverInput, AssignWhy, Candidates, ResolvedApprovers } from '../types.js';
import { config, templateContext, type UserTaskConfig } from './config.js';
import { SELF_APPROVAL, type AutoApproval } from './auto-approval.js';

type Approver = NonNullable<UserTaskConfig['approver']>;

/** The ids an approver rule names: its users, roles or departments; the initiator for manager rules. */
function ruleIds(approver: Approver, initiatorId: string): string[] {
  switch (approver.type) {
    case 'role':
      return approver.roleIds ?? [];
    case 'dept':
      return approver.deptIds ?? [];
    case 'user':
    case 'initiatorSelect':
      return approver.userIds ?? [];
    default:
      return [initiatorId];
  }
}

/** The rule and its ids as one name, e.g. `role:finance-director` (fallback_from). */
export const ruleName = (approver: Approver, initiatorId: string) =>
  `${approver.type}:${ruleIds(approver, initiatorId).join(',')}`;

export function assignWhy(kind: string, fields: Partial<AssignWhy> = {}): AssignWhy {
  return { kind, ids: [], count: null, level: null, by: null, rule: null, policy: null, reason: null, ...fields };
}

/** Why the rule chose this person (a substitute says whom it stands in for). */
function userWhy(approver: Approver, initiatorId: string, u: { reason: string; level?: number }, self: string) {
  if (u.reason.startsWith(`${self}:`)) return assignWhy('selfApproval', { by: initiatorId, rule: self });
  const level = u.level ?? Number(/level (\d+)/.exec(u.reason)?.[1] ?? NaN);
  return assignWhy(approver.type, {
    ids: ruleIds(approver, initiatorId),
    count: approver.type === 'user' || approver.type === 'initiatorSelect' ? (approver.userIds ?? []).length : null,
    level: Number.isFinite(level) ? level : null,
  });
}

function initiatorSelection(engine: Engine, expression: string | undefined): string[] {
  if (!expression) return [];
  const value = resolveTemplateValue(expression, templateContext(engine));
  if (Array.isArray(value)) return value.map(String).filter(Boolean);
  if (typeof value === 'string')
    return value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return [];
}

/** What a userTask's approver rule asks the directory, with the variables of this moment. */
export function approverInput(engine: Engine, node: DslNode): ApproverInput {
  const approver = { ...(config(node).approver ?? { type: 'user' }) };
  if (approver.type === 'initiatorSelect') approver.userIds = initiatorSelection(engine, approver.expression);
  return { tenantId: engine.info.tenantId, initiatorId: engine.info.initiatorId, approver };
}

/** At most this many nodes per projection (a wide fork looks the rest up when they start). */
const MAX_AHEAD = 4;

/**
 * The look-up inputs of the userTasks reachable from the nodes whose tasks a snapshot opened,
 * through anything but another userTask (approvers-ahead.ts).
 */
export function inputsAhead(engine: Engine, openedNodes: string[]): ApproverInput[] {
  if (!openedNodes.length) return [];
  const isUserTask = (id: string) => engine.node(id).type === 'userTask';
  const ahead = walk(engine.doc, openedNodes, 'forward', undefined, (id) => !isUserTask(id)).filter(isUserTask);
  return ahead.slice(0, MAX_AHEAD).map((id) => approverInput(engine, engine.node(id)));
}

/**
 * The look-up inputs ahead of every node with an open task: kept on the instance row, so the
 * server resolves them with the next decision and sends them with its Update (docs/engine.md
 * "Approvers ahead of a decision").
 */
export function inputsAheadOfOpen(engine: Engine): AheadInput[] {
  return inputsAhead(engine, [...new Set(engine.openTasks().map((t) => t.activityId))]).map((input) => ({
    key: aheadKey(input),
    input,
  }));
}

/** The look-up inputs of the userTasks a new instance may open first (looked up by whoever starts it). */
export function inputsAtStart(engine: Engine): ApproverInput[] {
  const first = engine.doc.metadata.nodes[engine.doc.metadata.firstNodeIndex ?? 0];
  return first.type === 'userTask' ? [approverInput(engine, first)] : inputsAhead(engine, [first.id]);
}

/** A person a userTask's rule gives a ballot to; `auto` when the ballot decides itself. */
export interface Ballot {
  userId: string;
  reason: string;
  level?: number;
  auto: AutoApproval | null;
}

/**
 * Whom a userTask's tasks go to, from its look-up: a claim pool of the rule's members, a pool of
 * several people of which the first to claim decides, one ballot per person, or nobody (the
 * emptyApproverPolicy decides). Pure: the server's prediction and simulation share it
 * (src/definitions/prediction.ts).
 */
export type Assignment =
  | { to: 'pool'; candidates: Candidates; members: string[]; reason: string; why: AssignWhy }
  | { to: 'claim'; candidates: Candidates; users: Ballot[]; why: AssignWhy }
  | { to: 'users'; users: Ballot[] }
  | { to: 'nobody'; problem: string };

export function assignmentOf(cfg: UserTaskConfig, input: ApproverInput, resolved: ResolvedApprovers): Assignment {
  const { approver, initiatorId: initiator } = input;
  // Pools: role and department approvers give one pending task; members claim it.
  if (resolved.pool) {
    if (resolved.poolSize > 0)
      return {
        to: 'pool',
        candidates: resolved.pool,
        members: resolved.poolMembers,
        reason: resolved.poolReason ?? 'candidate pool',
        why: assignWhy(approver.type, { ids: ruleIds(approver, initiator), count: resolved.poolSize }),
      };
    return {
      to: 'nobody',
      problem: `${approver.type === 'role' ? 'role' : 'department'} ${ruleIds(approver, initiator).join(', ')} has no active members`,
    };
  }

  // Self-approval rules when the initiator is among the approvers.
  let users: Ballot[] = resolved.users.map((u) => ({ ...u, auto: null }));
  const self = cfg.selfApproval ?? 'none';
  if (users.some((u) => u.userId === initiator) && self !== 'none') {
    if (self === 'skip') users = users.filter((u) => u.userId !== initiator);
    else if (self === 'autoApprove')
      users = users.map((u) => (u.userId === initiator ? { ...u, auto: SELF_APPROVAL } : u));
    else {
      const substitute = self === 'delegateToManager' ? resolved.managers[initiator] : resolved.deptLeaders[initiator];
      users = users.flatMap((u) => {
        if (u.userId !== initiator) return [u];
        if (!substitute || substitute === initiator) return [];
        return [{ userId: substitute, reason: `${self}: stands in for the initiator ${initiator}`, auto: null }];
      });
    }
  }
  // The same person once.
  users = users.filter((u, i) => users.findIndex((v) => v.userId === u.userId) === i);
  if (users.length === 0) return { to: 'nobody', problem: resolved.problem ?? 'no approver resolved' };

  // Single mode with several people: a pool of them, first to claim decides.
  if ((cfg.approveMode ?? 'single') === 'single' && users.length > 1) {
    const candidates = { ...emptyCandidates(), userIds: users.map((u) => u.userId) };
    return {
      to: 'claim',
      candidates,
      users,
      why: assignWhy(approver.type, {
        ids: candidates.userIds,
        count: users.length,
        level: approver.type === 'manager' ? (users[0].level ?? null) : null,
        reason: 'first to claim decides',
      }),
    };
  }
  return { to: 'users', users };
}

/** Why the rule gave this ballot (what its `assign` trail entry records). */
export const ballotWhy = (cfg: UserTaskConfig, input: ApproverInput, u: Ballot) =>
  userWhy(input.approver, input.initiatorId, u, cfg.selfApproval ?? 'none');
