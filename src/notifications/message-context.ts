// Everything one delivery's message names, read from the read model: the notification, its
// instance and task (running or archived), the people it names, the form's summary fields and, where
// the recipient may decide the task now, one-time approval links.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import { publicUrl } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Principal } from '../context.js';
import { instanceAttachments, signedUrl } from '../attachments/attachments.js';
import { assignmentReasonOf, type AssignmentReason } from '../read-model/assignment-reason.js';
import { reasonTextIn } from '../read-model/assignment-reason.zh-CN.js';

/** A task's reason in the recipient's language (the message's). */
const reasonOf = (locale: string, r: AssignmentReason | null) => (r ? reasonTextIn(locale, r) : null);
import { mintSystemLink } from '../tasks/approval-links.js';
import { ALL_INSTANCES, ALL_TASKS, definitionOf } from '../read-model/read-model.js';
import { isNotificationKind } from '../../workflows/notification-kinds.js';
import { DECISION_KINDS, LOCALES, type Locale, type MessageContext } from './messages/index.js';
import type { MessageAttachment } from './messages/types.js';
import { canonicalType } from '../../dsl/index.js';

/** How many form fields a message lists. */
const SUMMARY_FIELDS = 6;
/** How many of the instance's files a message lists (the first ones attached). */
export const MESSAGE_ATTACHMENTS_MAX = 20;

export interface NotificationRow {
  id: string;
  tenant_id: string;
  user_id: string;
  kind: string;
  instance_id: string | null;
  task_id: string | null;
  payload: Record<string, unknown> | null;
}

function display(value: unknown, field?: any): string | null {
  if (value === null || value === undefined || value === '') return null;
  const option = (v: unknown) => {
    const found = Array.isArray(field?.options)
      ? field.options.find((o: any) => (typeof o === 'object' && o !== null ? o.value === v : o === v))
      : undefined;
    return found && typeof found === 'object' ? String(found.label ?? found.value) : String(v);
  };
  if (Array.isArray(value)) return value.length ? value.map(option).join(', ') : null;
  if (typeof value === 'boolean') return value ? '✓' : '✗';
  if (typeof value === 'object') return JSON.stringify(value).slice(0, 200);
  return option(value).slice(0, 500);
}

/**
 * The form's first fields with a value the recipient may see (not file fields); without a form, the
 * first plain variables.
 */
function summaryOf(form: any, variables: Record<string, unknown>, hidden: Record<string, string> | null) {
  const out: Array<[string, string]> = [];
  const fields: any[] = Array.isArray(form?.fields) ? form.fields : [];
  if (fields.length) {
    for (const f of fields) {
      if (out.length >= SUMMARY_FIELDS) break;
      if (hidden?.[f.name] === 'h') continue;
      // A file field's value is ids: its files are listed with links instead (attachmentsOf).
      if (canonicalType(f?.type) === 'attachment') continue;
      const v = display(variables[f.name], f);
      if (v !== null) out.push([String(f.label ?? f.name), v]);
    }
    return out;
  }
  for (const [k, raw] of Object.entries(variables)) {
    if (out.length >= SUMMARY_FIELDS) break;
    if (k.startsWith('_') || (raw !== null && typeof raw === 'object')) continue;
    const v = display(raw);
    if (v !== null) out.push([k, v]);
  }
  return out;
}

/**
 * The instance's files the recipient may see (as the console shows them: a form field hidden from
 * them hides its files), each with an absolute signed download link valid for
 * ATTACHMENT_MESSAGE_LINK_TTL_SECONDS. Without a signing key (no APPROVAL_LINK_SECRET or
 * JWT_SECRET) there are no links, and the message lists no files.
 */
async function attachmentsOf(o: LoadOptions, instance: any): Promise<MessageAttachment[]> {
  const reader = { tenantId: o.n.tenant_id, userId: o.recipient.id } as Principal;
  const rows = (await instanceAttachments(o.em, reader, instance)).slice(0, MESSAGE_ATTACHMENTS_MAX);
  if (!rows.length) return [];
  const base = publicUrl(o.config);
  const ttl = o.config.ATTACHMENT_MESSAGE_LINK_TTL_SECONDS;
  try {
    return rows.map((r) => ({
      name: r.name,
      size: Number(r.size),
      // A preview mints nothing: its links are placeholders, as the approval links are.
      url: o.preview
        ? `${base}/api/v1/attachments/${r.id}/content?token=preview&download=1`
        : `${base}${signedUrl(o.config, r.tenant_id, r.id, ttl, true)}`,
    }));
  } catch {
    return [];
  }
}

export interface LoadOptions {
  config: Config;
  orm: Orm;
  em: EntityManager;
  n: NotificationRow;
  recipient: { id: string; name: string };
  locale: unknown;
  /** The recipient's time zone for dates (UTC when unset). */
  timeZone?: string;
  /** Where the links go (`email`, `slack`, …), recorded with a decision. */
  via: string;
  /** A link minted for this delivery before (a resend reuses it). */
  linkId: string | null;
  /** A preview: links are placeholders, nothing is minted. */
  preview?: boolean;
}

export async function loadMessageContext(o: LoadOptions): Promise<{ ctx: MessageContext; linkId: string | null }> {
  const { em, n } = o;
  const [instance]: any[] = n.instance_id
    ? await em.execute(`select * from ${ALL_INSTANCES} i where tenant_id = ? and id = ?`, [n.tenant_id, n.instance_id])
    : [];
  const [task]: any[] = n.task_id
    ? await em.execute(`select * from ${ALL_TASKS} t where tenant_id = ? and id = ?`, [n.tenant_id, n.task_id])
    : [];
  const payload = (n.payload ?? {}) as Record<string, unknown>;
  const ids = [instance?.initiator_id, payload.by, payload.to, payload.claimedBy, payload.commentBy].filter(
    (v): v is string => typeof v === 'string',
  );
  const people = ids.length
    ? await em.execute<Array<{ id: string; display_name: string }>>(
        `select id, display_name from users where tenant_id = ? and id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
        [n.tenant_id, JSON.stringify(ids)],
      )
    : [];
  const names = Object.fromEntries(people.map((p) => [p.id, p.display_name]));
  const def = instance ? await definitionOf(em, instance) : null;
  const mine =
    task && task.assignee === o.recipient.id ? (task.form_permissions as Record<string, string> | null) : null;
  const summary = instance ? summaryOf(def?.form, instance.variables ?? {}, mine) : [];

  let links: MessageContext['links'] = null;
  let linkId: string | null = null;
  const kind = isNotificationKind(n.kind) ? n.kind : 'task_assigned';
  if (task && !task.archived && DECISION_KINDS.has(kind) && o.preview) {
    const page = `${publicUrl(o.config)}/l/preview`;
    links = { approve: `${page}?action=approve`, reject: `${page}?action=reject` };
  } else if (task && !task.archived && DECISION_KINDS.has(kind)) {
    const link = await mintSystemLink(o, {
      tenantId: n.tenant_id,
      taskId: task.id,
      userId: o.recipient.id,
      via: o.via,
      reuse: o.linkId,
    });
    if (link) {
      linkId = link.linkId;
      const page = `${publicUrl(o.config)}/l/${link.token}`;
      links = { approve: `${page}?action=approve`, reject: `${page}?action=reject` };
    }
  }
  const locale: Locale = (LOCALES as readonly unknown[]).includes(o.locale) ? (o.locale as Locale) : 'en';
  const ctx: MessageContext = {
    kind,
    locale,
    timeZone: o.timeZone ?? 'UTC',
    recipient: o.recipient,
    payload,
    instance: instance
      ? {
          id: instance.id,
          processKey: instance.process_key,
          processName: instance.process_name,
          businessKey: instance.business_key ?? null,
          initiatorId: instance.initiator_id,
          initiatorName: names[instance.initiator_id] ?? instance.initiator_id,
          status: instance.status,
        }
      : null,
    task: task
      ? {
          id: task.id,
          name: task.name,
          kind: task.kind,
          status: task.status,
          assignee: task.assignee ?? null,
          dueDate: task.due_date ? new Date(task.due_date) : null,
          createTime: new Date(task.create_time),
          reason: reasonOf(locale, assignmentReasonOf(task.assignment_reason, task.owner ?? null)),
        }
      : null,
    summary,
    links,
    names,
    attachments: instance ? await attachmentsOf(o, instance) : [],
  };
  return { ctx, linkId };
}
