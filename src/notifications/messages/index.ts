// The message of each notification kind a channel sends: one module per kind, so a tenant's own
// templates can later replace one kind at a time. Kinds without a module stay in the console only.
import type { NotificationKind } from '../../../workflows/notification-kinds.js';
import { cc } from './cc.js';
import { instanceWithdrawn } from './instance-withdrawn.js';
import { taskAssigned } from './task-assigned.js';
import { taskClaimable } from './task-claimable.js';
import { taskDecidedOnBehalf } from './task-decided-on-behalf.js';
import { taskOverdue } from './task-overdue.js';
import { taskReassigned } from './task-reassigned.js';
import { taskReturned } from './task-returned.js';
import type { Message, MessageContext, MessageTemplate } from './types.js';
import { urge } from './urge.js';

const templates: MessageTemplate[] = [
  taskAssigned,
  taskClaimable,
  urge,
  taskOverdue,
  cc,
  taskReturned,
  taskDecidedOnBehalf,
  taskReassigned,
  instanceWithdrawn,
];

const byKind = new Map<NotificationKind, MessageTemplate>(templates.map((t) => [t.kind, t]));

/** The kinds a channel can send (its default `kinds`). */
export const CHANNEL_KINDS: NotificationKind[] = templates.map((t) => t.kind);

/** Kinds whose message carries Approve / Reject links when the recipient may decide the task. */
export const DECISION_KINDS: ReadonlySet<NotificationKind> = new Set(['task_assigned', 'urge', 'task_overdue']);

export function renderMessage(ctx: MessageContext): Message | null {
  return byKind.get(ctx.kind)?.render(ctx) ?? null;
}

export type { Message, MessageContext, Locale } from './types.js';
export { LOCALES } from './types.js';
