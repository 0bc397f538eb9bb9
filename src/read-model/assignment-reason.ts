// "Why am I the approver": the rule that put a task where it is, built from what the trail
// records (the `assign` entry's `detail.why`, then transfer / reassign / add-sign entries). The
// projection stores it with the task (`tasks.assignment_reason`); a delegation is read from the
// task's `owner` when the task is shown. Pure: no database.
import type { ProjectionSnapshot } from '../../workflows/engine/types.js';

export const ASSIGNMENT_KINDS = [
  'user',
  'initiatorSelect',
  'initiatorSelf',
  'role',
  'dept',
  'manager',
  'multiLevelManager',
  'selfApproval',
  'fallback',
  'delegated',
  'transferred',
  'reassigned',
  'addSign',
  'recorded',
] as const;
export type AssignmentKind = (typeof ASSIGNMENT_KINDS)[number];

export interface AssignmentReason {
  kind: AssignmentKind;
  /** In words, e.g. `role finance (3 members)`. */
  text: string;
  /** The rule's users / roles / departments (for manager rules: the person whose manager it is). */
  ids: string[];
  /** Pool members, or people listed. */
  count: number | null;
  /** Manager level. */
  level: number | null;
  /** Who put it there: the delegating owner, the transferring approver, the admin, the add-signer, the initiator a substitute stands in for. */
  by: string | null;
  /** The fallback's rule (`role:finance-director`) or the selfApproval setting. */
  rule: string | null;
}

interface EntryLike {
  type: string;
  taskId: string | null;
  userId: string | null;
  detail: Record<string, any> | null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const plural = (n: number | null, word: string) => (n === null ? '' : ` (${n} ${word}${n === 1 ? '' : 's'})`);

function reason(kind: AssignmentKind, text: string, fields: Partial<AssignmentReason> = {}): AssignmentReason {
  return { kind, text, ids: [], count: null, level: null, by: null, rule: null, ...fields };
}

const FALLBACK_WORDS: Record<string, string> = {
  tenant_admin: 'tenant admin',
  park: 'parked for an admin',
  auto_approve: 'approved automatically',
};

/** The reason an `assign` entry records (structured since `detail.why`; older entries by their text). */
function fromAssign(detail: Record<string, any>): AssignmentReason {
  const why = detail.why as Record<string, unknown> | undefined;
  if (!why || typeof why.kind !== 'string')
    return reason('recorded', str(detail.reason) ?? 'assigned', { rule: str(detail.fallback_from) });
  const ids = Array.isArray(why.ids) ? why.ids.map(String) : [];
  const fields = { ids, count: num(why.count), level: num(why.level), by: str(why.by), rule: str(why.rule) };
  const claim = why.reason === 'first to claim decides' ? ', first to claim decides' : '';
  switch (why.kind) {
    case 'user':
      return reason('user', `user list${claim}`, fields);
    case 'initiatorSelect':
      return reason('initiatorSelect', `chosen by the initiator${claim}`, fields);
    case 'initiatorSelf':
      return reason('initiatorSelf', 'the initiator', fields);
    case 'role':
      return reason('role', `role ${ids.join(', ')}${plural(fields.count, 'member')}`, fields);
    case 'dept':
      return reason('dept', `department ${ids.join(', ')}${plural(fields.count, 'member')}`, fields);
    case 'manager':
    case 'multiLevelManager':
      return reason(
        why.kind,
        `manager of ${ids[0] ?? 'the initiator'}${fields.level === null ? '' : ` (level ${fields.level})`}${claim}`,
        fields,
      );
    case 'selfApproval':
      return reason('selfApproval', `stands in for the initiator ${fields.by} (${fields.rule})`, fields);
    case 'fallback': {
      const policy = str(why.policy) ?? 'tenant_admin';
      return reason('fallback', `fallback: ${FALLBACK_WORDS[policy] ?? policy} because ${str(why.reason)}`, fields);
    }
    default:
      return reason('recorded', str(detail.reason) ?? 'assigned', fields);
  }
}

/** The reason an `assign` entry with this `detail.why` gives its task (the simulation's approvers carry it too). */
export const reasonOfWhy = (why: object): AssignmentReason => fromAssign({ why });

/** The tasks whose reason a trail entry sets, each with that reason. */
export function reasonsFromEntry(e: EntryLike): Array<[taskId: string, reason: AssignmentReason]> {
  const d = e.detail ?? {};
  switch (e.type) {
    case 'assign':
      return e.taskId ? [[e.taskId, fromAssign(d)]] : [];
    case 'transfer':
      return e.taskId ? [[e.taskId, reason('transferred', `transferred by ${e.userId}`, { by: e.userId })]] : [];
    case 'reassign': {
      const admin = str(d.admin) ?? e.userId;
      return e.taskId ? [[e.taskId, reason('reassigned', `reassigned by ${admin}`, { by: admin })]] : [];
    }
    case 'add_sign': {
      const subTasks: unknown[] = Array.isArray(d.subTaskIds) ? d.subTaskIds : [];
      return subTasks.map((id) => [
        String(id),
        reason('addSign', `added by ${e.userId} (add-sign)`, { by: e.userId, ids: e.taskId ? [e.taskId] : [] }),
      ]);
    }
    default:
      return [];
  }
}

/** What a task shows: a delegation (read from `owner`) over the stored reason. */
export function assignmentReasonOf(stored: unknown, owner: string | null): AssignmentReason | null {
  if (owner) return reason('delegated', `delegated by ${owner}`, { by: owner });
  if (!stored || typeof stored !== 'object') return null;
  const { seq: _seq, ...rest } = stored as AssignmentReason & { seq?: unknown };
  return rest;
}

/** Each task's assignment reason from this snapshot's trail (the latest entry wins). */
export function reasonsOf(s: Pick<ProjectionSnapshot, 'trail'>) {
  const latest = new Map<string, { id: string; reason: string; seq: number }>();
  for (const e of s.trail) {
    for (const [taskId, reason] of reasonsFromEntry(e)) {
      const seq = Number(e.seq);
      const seen = latest.get(taskId);
      if (!seen || seen.seq < seq) latest.set(taskId, { id: taskId, reason: JSON.stringify({ ...reason, seq }), seq });
    }
  }
  return latest;
}
