// The message of each notification kind a channel sends: one definition per kind (its words in each
// language, as Liquid templates), the shared parts in ./common.ts. These are the defaults a tenant's
// templates override (../templates/). Kinds without a definition stay in the console only.
import type { NotificationKind } from '../../../workflows/notification-kinds.js';
import { cc } from './cc.js';
import { sharedParts } from './common.js';
import { instanceEnded } from './instance-ended.js';
import { instanceWithdrawn } from './instance-withdrawn.js';
import { taskAssigned, taskClaimable, taskOverdue } from './task-messages.js';
import { taskDecidedOnBehalf } from './task-decided-on-behalf.js';
import { taskReassigned } from './task-reassigned.js';
import { taskReturned } from './task-returned.js';
import type { Locale, MessageDefinition, TemplateFields } from './types.js';
import { urge } from './urge.js';

const definitions: MessageDefinition[] = [
  taskAssigned,
  taskClaimable,
  urge,
  taskOverdue,
  cc,
  taskReturned,
  taskDecidedOnBehalf,
  taskReassigned,
  instanceWithdrawn,
  instanceEnded,
];

const byKind = new Map<NotificationKind, MessageDefinition>(definitions.map((d) => [d.kind, d]));

/** The kinds a channel can send (its default `kinds`). */
export const CHANNEL_KINDS: NotificationKind[] = definitions.map((d) => d.kind);

/** Kinds whose message carries Approve / Reject links when the recipient may decide the task. */
export const DECISION_KINDS: ReadonlySet<NotificationKind> = new Set(
  definitions.filter((d) => d.decision).map((d) => d.kind),
);

export const hasMessage = (kind: string): kind is NotificationKind => byKind.has(kind as NotificationKind);

/** A kind's default template in a language: its own words over the shared parts. */
export function defaultTemplate(kind: NotificationKind, locale: Locale): TemplateFields | null {
  const d = byKind.get(kind);
  if (!d) return null;
  const own = d.words[locale];
  return { ...sharedParts(), title: own.title ?? '', intro: own.intro ?? '', ...own } as TemplateFields;
}

export type { Message, MessageContext, Locale, TemplateField, TemplateFields } from './types.js';
export { LOCALES, TEMPLATE_FIELDS } from './types.js';
