// A tenant's message templates (docs/channels.md#templates): per kind and language, the parts that
// override the default. Listing shows every kind with a message in each language, default or
// overridden; a part is checked before it is stored (TEMPLATE_INVALID with its line); a preview renders
// a template — stored, or given — for a task or an instance of the tenant, with placeholder links.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppDeps, Principal } from '../../context.js';
import { AppError, referenceError } from '../../errors.js';
import { ALL_INSTANCES, ALL_TASKS } from '../../read-model/read-model.js';
import type { Page, PageOpts } from '../../paging.js';
import { loadMessageContext, type NotificationRow } from '../message-context.js';
import {
  CHANNEL_KINDS,
  defaultTemplate,
  hasMessage,
  LOCALES,
  TEMPLATE_FIELDS,
  type Locale,
  type MessageContext,
  type TemplateField,
  type TemplateFields,
} from '../messages/index.js';
import { checkTemplate, RenderBudget, renderMessage, sampleContext, type TemplateProblem } from './render.js';

export type TemplateParts = Partial<Record<TemplateField, string>>;

interface Row {
  kind: string;
  locale: string;
  parts: TemplateParts;
  updated_at: Date | string;
  updated_by: string | null;
}

function known(kind: string, locale: string): { kind: MessageContext['kind']; locale: Locale } {
  if (!hasMessage(kind)) throw new AppError('NOT_FOUND', `No message template for the kind ${kind}`);
  if (!(LOCALES as readonly string[]).includes(locale))
    throw new AppError('NOT_FOUND', `No message template in the language ${locale} (en, zh-CN)`);
  return { kind, locale: locale as Locale };
}

function view(kind: MessageContext['kind'], locale: Locale, row: Row | undefined) {
  const defaults = defaultTemplate(kind, locale)!;
  const own = onlyParts(row?.parts ?? {});
  return {
    kind,
    locale,
    overridden: TEMPLATE_FIELDS.filter((f) => own[f] !== undefined),
    parts: { ...defaults, ...own } as TemplateFields,
    defaults,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
    updatedBy: row?.updated_by ?? null,
  };
}
export type TemplateView = ReturnType<typeof view>;

const onlyParts = (parts: TemplateParts): TemplateParts =>
  Object.fromEntries(TEMPLATE_FIELDS.filter((f) => typeof parts[f] === 'string').map((f) => [f, parts[f]]));

export interface TemplateQuery extends PageOpts {
  kind?: string;
  locale?: string;
}

/** Every kind with a message in each language: the default, or the tenant's parts over it. */
export async function listTemplates(
  em: EntityManager,
  tenantId: string,
  q: TemplateQuery,
): Promise<Page<TemplateView>> {
  const rows = await em.execute<Row[]>(`select * from notification_templates where tenant_id = ?`, [tenantId]);
  const all: TemplateView[] = [];
  for (const kind of CHANNEL_KINDS)
    for (const locale of LOCALES) {
      if ((q.kind && q.kind !== kind) || (q.locale && q.locale !== locale)) continue;
      all.push(
        view(
          kind,
          locale,
          rows.find((r) => r.kind === kind && r.locale === locale),
        ),
      );
    }
  const start = (q.page - 1) * q.pageSize;
  return { items: all.slice(start, start + q.pageSize), total: all.length, page: q.page, pageSize: q.pageSize };
}

async function rowOf(em: EntityManager, tenantId: string, kind: string, locale: string) {
  const [row] = await em.execute<Row[]>(
    `select * from notification_templates where tenant_id = ? and kind = ? and locale = ?`,
    [tenantId, kind, locale],
  );
  return row;
}

export async function getTemplate(em: EntityManager, tenantId: string, kind: string, locale: string) {
  const k = known(kind, locale);
  return view(k.kind, k.locale, await rowOf(em, tenantId, kind, locale));
}

function refuse(problems: TemplateProblem[]): never {
  const first = problems[0];
  const where = first.line ? `, line ${first.line}${first.column ? `, column ${first.column}` : ''}` : '';
  throw new AppError('TEMPLATE_INVALID', `${first.field}${where}: ${first.message}`, { problems });
}

/** Stores the tenant's parts for the kind and language (the parts not given are the default's). */
export async function putTemplate(
  em: EntityManager,
  tenantId: string,
  userId: string,
  kind: string,
  locale: string,
  parts: TemplateParts,
): Promise<TemplateView> {
  const k = known(kind, locale);
  const own = onlyParts(parts);
  const problems = await checkTemplate(k.kind, k.locale, own);
  if (problems.length) refuse(problems);
  if (!Object.keys(own).length) {
    await em.execute(`delete from notification_templates where tenant_id = ? and kind = ? and locale = ?`, [
      tenantId,
      kind,
      locale,
    ]);
    return view(k.kind, k.locale, undefined);
  }
  const [row] = await em.execute<Row[]>(
    `insert into notification_templates (tenant_id, kind, locale, parts, created_by, updated_by)
     values (?, ?, ?, ?::jsonb, ?, ?)
     on conflict (tenant_id, kind, locale) do update set parts = excluded.parts, updated_by = excluded.updated_by, updated_at = now()
     returning *`,
    [tenantId, kind, locale, JSON.stringify(own), userId, userId],
  );
  return view(k.kind, k.locale, row);
}

/** Back to the default: 404 when the tenant had not overridden it. */
export async function deleteTemplate(em: EntityManager, tenantId: string, kind: string, locale: string) {
  known(kind, locale);
  const rows = await em.execute<unknown[]>(
    `delete from notification_templates where tenant_id = ? and kind = ? and locale = ? returning kind`,
    [tenantId, kind, locale],
  );
  if (!rows.length) throw new AppError('NOT_FOUND', `The tenant has no template of its own for ${kind} in ${locale}`);
}

/** The tenant's parts for a delivery's kind and language (none: the default). */
export async function tenantParts(em: EntityManager, tenantId: string, kind: string, locale: string) {
  return (await rowOf(em, tenantId, kind, locale))?.parts ?? null;
}

export interface PreviewInput {
  taskId?: string;
  instanceId?: string;
  recipientId?: string;
  parts?: TemplateParts;
}

/** The outcome an instance's status stands for (instance_ended). */
const outcomeOf = (status: string) =>
  status === 'rejected' ? 'rejected' : status === 'terminated' ? 'terminated' : 'approved';

/**
 * Renders the kind's template in the language — the parts given over the tenant's over the default —
 * for a task or an instance of the tenant (neither: a sample message). Links are placeholders.
 */
export async function previewTemplate(
  deps: Pick<AppDeps, 'config' | 'orm'>,
  em: EntityManager,
  principal: Principal,
  kind: string,
  locale: string,
  input: PreviewInput,
) {
  const k = known(kind, locale);
  const tenantId = principal.tenantId;
  const given = onlyParts(input.parts ?? {});
  // One deadline for the preview's renders: the check of the parts given, then the message itself.
  const budget = new RenderBudget();
  const problems = await checkTemplate(k.kind, k.locale, given, { budget });
  if (problems.length) refuse(problems);
  const parts: TemplateParts = { ...((await tenantParts(em, tenantId, kind, locale)) ?? {}), ...given };

  let ctx: MessageContext;
  if (!input.taskId && !input.instanceId) ctx = sampleContext(k.kind, k.locale);
  else {
    // A task message for an instance alone: its newest task, an open one first.
    const taskKind = k.kind.startsWith('task_') || k.kind === 'urge';
    const [task]: any[] = input.taskId
      ? await em.execute(`select * from ${ALL_TASKS} t where tenant_id = ? and id = ?`, [tenantId, input.taskId])
      : taskKind
        ? await em.execute(
            `select * from ${ALL_TASKS} t where tenant_id = ? and instance_id = ?
              order by (status in ('pending', 'active', 'waiting', 'suspended')) desc, create_time desc limit 1`,
            [tenantId, input.instanceId],
          )
        : [];
    // Ids in the body that name nothing: 404 REFERENCE_NOT_FOUND naming the field (docs/http.md).
    const missing = (path: string, message: string) => referenceError([{ path, message }])!;
    if (input.taskId && !task) throw missing('taskId', `no task ${input.taskId}`);
    if (task && input.instanceId && task.instance_id !== input.instanceId)
      throw missing('taskId', `no task ${input.taskId} in the instance ${input.instanceId}`);
    const instanceId: string = task?.instance_id ?? input.instanceId;
    const [instance]: any[] = await em.execute(`select * from ${ALL_INSTANCES} i where tenant_id = ? and id = ?`, [
      tenantId,
      instanceId,
    ]);
    if (!instance) throw missing('instanceId', `no instance ${instanceId}`);
    const recipientId: string =
      input.recipientId ??
      (k.kind === 'instance_ended' || k.kind === 'task_returned' ? instance.initiator_id : null) ??
      task?.assignee ??
      principal.userId;
    const [recipient]: any[] = await em.execute(`select id, display_name from users where tenant_id = ? and id = ?`, [
      tenantId,
      recipientId,
    ]);
    if (!recipient) throw missing('recipientId', `no user ${recipientId}`);
    const lastComment = task?.comment ?? null;
    const n: NotificationRow = {
      id: 'preview',
      tenant_id: tenantId,
      user_id: recipient.id,
      kind: k.kind,
      instance_id: instance.id,
      task_id: task?.id ?? null,
      payload: {
        activityId: task?.activity_id ?? null,
        name: task?.name ?? null,
        by: principal.userId,
        to: principal.userId,
        target: task?.activity_id ?? null,
        decision: 'approve',
        outcome: outcomeOf(instance.status),
        comment: lastComment,
        commentBy: lastComment ? (task?.assignee ?? null) : null,
      },
    };
    ({ ctx } = await loadMessageContext({
      ...deps,
      em,
      n,
      recipient: { id: recipient.id, name: recipient.display_name },
      locale: k.locale,
      via: 'preview',
      linkId: null,
      preview: true,
    }));
  }
  // A stored part that fails on this data falls back to the default, as when the message is sent.
  const message = (await renderMessage(ctx, { override: parts, budget }))!;
  return {
    kind: k.kind,
    locale: k.locale,
    recipient: ctx.recipient,
    instanceId: ctx.instance?.id ?? null,
    taskId: ctx.task?.id ?? null,
    message: { ...message, facts: message.facts.map(([label, value]) => ({ label, value })) },
  };
}
