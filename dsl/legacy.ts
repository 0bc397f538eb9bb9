// Older GFlow userTask keys (docs/dsl.md#older-gflow-usertask-keys) → canonical configuration, plus canonical defaults.

import { finding, type Finding } from './problems.js';

type Obj = Record<string, unknown>;

export interface FieldProblem extends Finding {
  field: string;
}

export interface NormalisedUserTask {
  config: Obj;
  /** actionPermissions without the reject keys older designers stored there. */
  actionPermissions: Obj | undefined;
  problems: FieldProblem[];
}

const approverTypes: Record<string, string> = {
  user: 'user',
  role: 'role',
  dept: 'dept',
  manager: 'manager',
  direct_manager: 'manager',
  multiLevelManager: 'multiLevelManager',
  multi_level_manager: 'multiLevelManager',
  initiatorSelect: 'initiatorSelect',
  initiator_select: 'initiatorSelect',
  initiatorSelf: 'initiatorSelf',
  initiator_self: 'initiatorSelf',
};

const selfApprovalValues: Record<string, string> = {
  allow: 'none',
  none: 'none',
  skip: 'skip',
  auto_approve: 'autoApprove',
  autoApprove: 'autoApprove',
  delegate_to_manager: 'delegateToManager',
  delegateToManager: 'delegateToManager',
  delegate_to_department_manager: 'delegateToDeptManager',
  delegateToDeptManager: 'delegateToDeptManager',
};

const rejectStrategies: Record<string, string> = {
  terminate: 'terminate',
  rejectToStarter: 'toStarter',
  toStarter: 'toStarter',
  rejectToPrev: 'toPrev',
  toPrev: 'toPrev',
  rejectToNode: 'toNode',
  toNode: 'toNode',
};

const timeoutActions: Record<string, string> = {
  auto_approve: 'autoApprove',
  auto_reject: 'autoReject',
};

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const mapValue = (table: Record<string, string>, v: unknown): unknown =>
  typeof v === 'string' && Object.hasOwn(table, v) ? table[v] : v;

export function normaliseUserTask(raw: Obj, actionPermissions?: Obj): NormalisedUserTask {
  const c: Obj = { ...raw };
  const perms = actionPermissions ? { ...actionPermissions } : undefined;
  const problems: FieldProblem[] = [];
  // Older and canonical keys together are ambiguous: refuse rather than guess which wins.
  const takeLegacy = (legacy: string[], canonical: string): boolean => {
    const present = legacy.filter((k) => k in c);
    if (present.length === 0) return false;
    if (canonical in c) {
      problems.push({ field: present[0], ...finding('legacy.bothKeys', { key: canonical, legacyKey: present[0] }) });
      for (const k of present) delete c[k];
      return false;
    }
    return true;
  };

  if (takeLegacy(['candidateType', 'candidateConfig'], 'approver')) {
    c.approver = approverFromLegacy(c.candidateType, c.candidateConfig, problems);
    delete c.candidateType;
    delete c.candidateConfig;
  }

  if (takeLegacy(['approvalType', 'approvalRule'], 'approveMode')) {
    Object.assign(c, approveModeFromLegacy(c.approvalType, c.approvalRule, problems));
    delete c.approvalType;
    delete c.approvalRule;
  }

  if (takeLegacy(['selfApprovalType'], 'selfApproval')) {
    c.selfApproval = mapValue(selfApprovalValues, c.selfApprovalType);
    delete c.selfApprovalType;
  }

  if (takeLegacy(['timeoutPolicy'], 'timeout')) {
    c.timeout = c.timeoutPolicy;
    delete c.timeoutPolicy;
  }
  if (isObj(c.timeout)) c.timeout = { ...c.timeout, action: mapValue(timeoutActions, c.timeout.action ?? 'remind') };

  // Older designers kept the reject settings in configuration or in actionPermissions.
  for (const key of ['rejectStrategy', 'rejectTargetNode']) {
    if (perms && key in perms) {
      if (!(key in c)) c[key] = perms[key];
      delete perms[key];
    }
  }
  if (takeLegacy(['rejectStrategy', 'rejectTargetNode'], 'reject')) {
    const target = typeof c.rejectTargetNode === 'string' && c.rejectTargetNode !== '' ? c.rejectTargetNode : undefined;
    const strategy = c.rejectStrategy ?? (target ? 'toNode' : 'terminate');
    c.reject = { strategy: mapValue(rejectStrategies, strategy), ...(target ? { target } : {}) };
    delete c.rejectStrategy;
    delete c.rejectTargetNode;
  }

  fillDefaults(c);
  return { config: c, actionPermissions: perms, problems };
}

function fillDefaults(c: Obj): void {
  c.approveMode ??= 'single';
  c.selfApproval ??= 'none';
  c.emptyApproverPolicy ??= 'tenant_admin';
  c.kind ??= 'approval';
  c.reject ??= { strategy: 'terminate' };
  if (isObj(c.reject) && c.reject.strategy === undefined) c.reject = { strategy: 'terminate', ...c.reject };
}

function approverFromLegacy(type: unknown, rawConfig: unknown, problems: FieldProblem[]): Obj {
  let cfg: unknown = rawConfig ?? {};
  if (typeof cfg === 'string') cfg = parseJson(cfg, 'candidateConfig', problems) ?? {};
  if (!isObj(cfg)) {
    problems.push({ field: 'candidateConfig', ...finding('value.notObject') });
    cfg = {};
  }
  const { departmentIds, selected, ...rest } = cfg as Obj;
  const approver: Obj = { type: mapValue(approverTypes, type), ...rest };
  if (departmentIds !== undefined && approver.deptIds === undefined) approver.deptIds = departmentIds;
  if (selected !== undefined && approver.expression === undefined) approver.expression = selectedToTemplate(selected);
  return approver;
}

/** `selected` names the variable the initiator filled; a bare name means ${msg.<name>}. */
function selectedToTemplate(selected: unknown): unknown {
  if (typeof selected !== 'string' || selected.includes('${')) return selected;
  return /^[A-Za-z_][\w.]*$/.test(selected) ? `\${msg.${selected.replace(/^msg\./, '')}}` : selected;
}

function approveModeFromLegacy(type: unknown, rawRule: unknown, problems: FieldProblem[]): Obj {
  let rule: Obj | undefined;
  if (typeof rawRule === 'string' && rawRule.trim() !== '') {
    const parsed = parseJson(rawRule, 'approvalRule', problems);
    if (parsed !== undefined && !isObj(parsed))
      problems.push({ field: 'approvalRule', ...finding('value.notJsonObject') });
    rule = isObj(parsed) ? parsed : undefined;
  } else if (isObj(rawRule)) {
    rule = rawRule;
  }
  const out: Obj = {};
  if (rule?.isSequential === true) out.sequential = true;

  const thresholdRule = rule !== undefined && rule.type !== undefined && rule.type !== 'all';
  switch (type) {
    case 'single':
    case 'sequential':
    case 'any':
      out.approveMode = type;
      break;
    case 'or':
      out.approveMode = 'any';
      break;
    case 'countersign':
    case 'all':
    case 'vote':
      if (thresholdRule) {
        out.approveMode = 'vote';
        out.voteRule = rule!.type === 'majority' ? { type: 'majority' } : { type: rule!.type, value: rule!.value };
      } else {
        // countersign with rule `all` (or none) is everyone; a vote without a rule is a majority.
        out.approveMode = type === 'vote' && rule?.type !== 'all' ? 'vote' : 'all';
      }
      break;
    case undefined:
      problems.push({ field: 'approvalRule', ...finding('legacy.approvalRuleWithoutType') });
      break;
    default:
      out.approveMode = type; // validation reports the unknown value
  }
  return out;
}

function parseJson(text: string, field: string, problems: FieldProblem[]): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    problems.push({ field, ...finding('value.notJson') });
    return undefined;
  }
}
