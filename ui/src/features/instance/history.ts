// The trail and "why this approver" in the reader's language: from the codes and parameters the
// engine records (dsl/history.ts, the `assign` entry's `detail.why`), never from English sentences.
// Entries recorded before codes existed have none: they show their words as written.
import { isHistoryCode, type HistoryCode, type HistoryParams } from '@dsl/history.js';
import { isEndingCode, type EndingCode, type EndingParams } from '@dsl/ending.js';
import type { Catalogue } from '../../i18n/en.js';

export interface EntryLike {
  type: string;
  code?: string | null;
  params?: Record<string, unknown> | null;
  comment: string | null;
  detail?: Record<string, unknown> | null;
}

/** Node ids among a code's params, shown by their names. */
const NODE_PARAMS: Partial<Record<HistoryCode, string[]>> = {
  'reject.backTo': ['target'],
  'fork.branches': ['branches'],
  'instance.redriven': ['nodes'],
  'instance.forceResumed': ['joinId', 'branches'],
};

const str = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** The engine's sentence for an entry with a known code (null: no code, or one this console does not know). */
export function historyText(
  entry: EntryLike,
  words: Catalogue,
  nameOf: (nodeId: string) => string = (id) => id,
): string | null {
  if (!isHistoryCode(entry.code)) return null;
  const params: Record<string, unknown> = { ...(entry.params ?? {}) };
  for (const key of NODE_PARAMS[entry.code] ?? []) {
    const value = params[key];
    params[key] = Array.isArray(value) ? value.map((id) => nameOf(str(id))) : nameOf(str(value));
  }
  for (const key of ['branches', 'nodes']) if (key in params && !Array.isArray(params[key])) params[key] = [];
  const say = words.history[entry.code] as (p: HistoryParams[HistoryCode]) => string;
  return say(params as HistoryParams[HistoryCode]);
}

/**
 * A person's own words on an entry the engine worded: the reason an admin gave (re-drive,
 * reassign, force-resume). Entries without a code: their comment, as written.
 */
export function commentOf(entry: EntryLike): string | null {
  if (!isHistoryCode(entry.code)) return entry.comment;
  const reason = entry.params?.reason;
  return typeof reason === 'string' && reason && entry.code !== 'instance.failed' ? reason : null;
}

/** Why this approver, from the rule the `assign` entry records in `detail.why`; older entries: `detail.reason` as written. */
export function whyText(detail: Record<string, unknown> | null | undefined, words: Catalogue): string | null {
  const why = detail?.why as Record<string, unknown> | undefined;
  if (!why || typeof why.kind !== 'string') return typeof detail?.reason === 'string' ? detail.reason : null;
  const ids = Array.isArray(why.ids) ? why.ids.map(str) : [];
  const firstToClaim = why.reason === 'first to claim decides';
  switch (why.kind) {
    case 'user':
      return firstToClaim ? words.reason.firstToClaim : words.reason.user;
    case 'initiatorSelect':
      return firstToClaim ? words.reason.firstToClaim : words.reason.initiatorSelect;
    case 'initiatorSelf':
      return words.reason.initiatorSelf;
    case 'role':
      return words.reason.rolePool(ids.join(', '));
    case 'dept':
      return words.reason.deptPool(ids.join(', '));
    case 'manager':
    case 'multiLevelManager':
      return firstToClaim
        ? words.reason.firstToClaim
        : words.reason.manager(String(typeof why.level === 'number' ? why.level : 1), ids[0] ?? '');
    case 'selfApproval':
      return words.reason.standIn(str(why.by));
    case 'resubmit':
      return words.reason.resubmit;
    case 'fallback': {
      const problem = str(why.reason);
      if (why.policy === 'park') return words.reason.park(problem);
      if (why.policy === 'auto_approve') return words.reason.fallbackAuto(problem);
      return words.reason.fallbackAdmin(problem);
    }
    default:
      return typeof detail?.reason === 'string' ? detail.reason : null;
  }
}

/**
 * Why the instance ended, from the code and params the engine records (dsl/ending.ts), in the
 * reader's language; an instance that ended before codes existed shows its words as written.
 */
export function endText(
  instance: { endReason: string | null; endCode?: string | null; endParams?: Record<string, unknown> | null },
  words: Catalogue,
  nameOf: (nodeId: string) => string = (id) => id,
): string | null {
  if (!isEndingCode(instance.endCode)) return instance.endReason;
  const params: Record<string, unknown> = { ...(instance.endParams ?? {}) };
  if (instance.endCode === 'end.rejected') params.nodeName = params.nodeName ?? nameOf(str(params.nodeId));
  if (instance.endCode === 'end.subProcess') {
    const status = str(params.status);
    params.status = (words.status as Record<string, string>)[status] ?? status;
  }
  const say = words.ending[instance.endCode] as (p: EndingParams[EndingCode]) => string;
  return say(params as EndingParams[EndingCode]);
}
