// What a channel sends, before any channel's format: one Message per notification, rendered by the
// module of its kind (./index.ts) in the recipient's language. Adapters turn it into an e-mail, a
// Block Kit message, an Adaptive Card, … (../adapters/).
import type { NotificationKind } from '../../../workflows/notification-kinds.js';

import { LOCALES, type Locale } from '../../locales.js';

export { LOCALES, type Locale };

export interface MessageAction {
  label: string;
  url: string;
  style: 'primary' | 'danger' | 'default';
}

/** A file of the instance as a message lists it: `url` an absolute signed download link. */
export interface MessageAttachment {
  name: string;
  /** Bytes. */
  size: number;
  url: string;
}

export interface Message {
  /** E-mail subject; the first line of a chat message. */
  subject: string;
  /** Heading of the message body. */
  title: string;
  /** One sentence: what happened and what is asked. */
  intro: string;
  /** Label → value, in order: process, business key, initiator, the form's summary fields, … */
  facts: Array<[label: string, value: string]>;
  actions: MessageAction[];
  /** The e-mail's plain-text part. */
  text: string;
  /** The e-mail's HTML part. */
  html: string;
  /** The instance's files the recipient may see, with signed download links (chat cards list them). */
  attachments?: MessageAttachment[];
  /** The heading of that list in the recipient's language (`Attachments`, `附件`). */
  attachmentsTitle?: string;
}

/** Everything a message may name, loaded once per delivery by the dispatcher. */
export interface MessageContext {
  kind: NotificationKind;
  locale: Locale;
  /** The recipient's time zone (their preferences; UTC when unset): dates are shown in it. */
  timeZone?: string;
  recipient: { id: string; name: string };
  payload: Record<string, unknown>;
  instance: {
    id: string;
    processKey: string;
    processName: string;
    businessKey: string | null;
    initiatorId: string;
    initiatorName: string;
    status: string;
  } | null;
  task: {
    id: string;
    name: string;
    kind: string;
    status: string;
    assignee: string | null;
    dueDate: Date | null;
    createTime: Date;
    /** Why this approver, in words (the task's assignment reason). */
    reason: string | null;
  } | null;
  /** The form's summary fields the recipient may see: label → value. */
  summary: Array<[label: string, value: string]>;
  /** One-time approval links for the recipient (only where they may decide the task now). */
  links: { approve: string; reject: string } | null;
  /** Names of the people a payload names (`by`, `to`), by id. */
  names: Record<string, string>;
  /** The instance's files the recipient may see, with signed download links (absent: none). */
  attachments?: MessageAttachment[];
}

/** The parts of a message template, each a Liquid template (docs/channels.md#templates). */
export const TEMPLATE_FIELDS = ['subject', 'title', 'intro', 'facts', 'actions', 'text', 'html'] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];
export type TemplateFields = Record<TemplateField, string>;

/** A kind's default message: its own parts in each language; the parts it leaves out are the shared ones. */
export interface MessageDefinition {
  kind: NotificationKind;
  /** Whether Approve / Reject may be offered (the recipient decides the task now). */
  decision?: boolean;
  words: Record<Locale, Partial<TemplateFields>>;
}
