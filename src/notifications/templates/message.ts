// Renders a message from its template (a tenant's override over the kind's default) and checks a
// template before it is stored: it must parse, name only variables a message has, and render against
// a sample message of its kind into well-formed facts and actions. So a broken template is refused
// when saved, with its line, and never fails at send time (a part that still fails then — a runtime
// limit — falls back to the default part).
//
// This is the synchronous core. A tenant's template runs only in the render thread (./thread.ts,
// started by ./pool.ts, called through ./render.ts), under one deadline for the whole message: each
// part gets what is left of it as liquidjs' render limit, and the thread is stopped when it passes.
// Only the service's own default templates are rendered in the calling thread (./render.ts).
import type { Liquid } from 'liquidjs';
import { common, formatWhen, sharedParts } from '../messages/common.js';
import {
  DECISION_KINDS,
  defaultTemplate,
  TEMPLATE_FIELDS,
  type Locale,
  type Message,
  type MessageContext,
  type TemplateField,
  type TemplateFields,
} from '../messages/index.js';
import type { MessageAction } from '../messages/types.js';
import { html, located, parse, plain } from './liquid.js';

export interface TemplateProblem {
  field: TemplateField;
  line: number | null;
  column: number | null;
  message: string;
}

/** The longest rendered part kept (longer ones are cut). */
const MAX = { subject: 500, title: 500, intro: 5_000, facts: 20_000, actions: 10_000, text: 200_000, html: 500_000 };
const MAX_FACTS = 50;
const MAX_ACTIONS = 5;

const oneLine = (s: string) => s.replace(/\s*[\r\n]+\s*/g, ' ');
/** Labels never hold `: ` (the separator of a fact line); values never span lines. */
const fact = (label: string, value: string) => ({
  label: oneLine(label).replace(/: /g, ':\u00a0'),
  value: oneLine(value),
});

/** The variables a template sees (docs/channels.md#templates). */
export function scopeOf(ctx: MessageContext) {
  const w = common[ctx.locale];
  const i = ctx.instance;
  const t = ctx.task;
  const facts: Array<{ label: string; value: string }> = [];
  if (i) {
    facts.push(fact(w.process, i.processName));
    if (i.businessKey) facts.push(fact(w.businessKey, i.businessKey));
    facts.push(fact(w.initiator, i.initiatorName));
  }
  if (t) {
    facts.push(fact(w.task, t.name));
    if (t.dueDate) facts.push(fact(w.due, formatWhen(t.dueDate, ctx.locale, ctx.timeZone)));
  }
  return {
    kind: ctx.kind,
    locale: ctx.locale,
    t: w,
    recipient: { id: ctx.recipient.id, name: ctx.recipient.name },
    payload: ctx.payload,
    names: ctx.names,
    process: i ? { key: i.processKey, name: i.processName } : null,
    instance: i
      ? {
          id: i.id,
          businessKey: i.businessKey,
          initiator: i.initiatorName,
          initiatorId: i.initiatorId,
          status: i.status,
        }
      : null,
    task: t
      ? {
          id: t.id,
          name: t.name,
          kind: t.kind,
          status: t.status,
          assignee: t.assignee,
          due: t.dueDate ? formatWhen(t.dueDate, ctx.locale, ctx.timeZone) : null,
          reason: t.reason,
        }
      : null,
    facts,
    summary: ctx.summary.map(([label, value]) => fact(label, value)),
    // Approve / Reject only in the messages of kinds that ask for a decision.
    links: DECISION_KINDS.has(ctx.kind) ? ctx.links : null,
    attachments: (ctx.attachments ?? []).map((a) => ({ name: oneLine(a.name), size: a.size, url: a.url })),
  };
}

type Shape = true | readonly string[];
const OPEN: Shape = true;
/** What each variable holds: `true` is open (any property), a list names the properties. */
const VARIABLES: Record<string, Shape> = {
  kind: [],
  locale: [],
  t: Object.keys(common.en),
  recipient: ['id', 'name'],
  payload: OPEN,
  names: OPEN,
  process: ['key', 'name'],
  instance: ['id', 'businessKey', 'initiator', 'initiatorId', 'status'],
  task: ['id', 'name', 'kind', 'status', 'assignee', 'due', 'reason'],
  facts: OPEN,
  summary: OPEN,
  links: ['approve', 'reject'],
  attachments: OPEN,
};
/** Parts rendered later see the earlier ones: the subject sees `title`, the e-mail parts see `message`. */
const LATER: Partial<Record<TemplateField, Record<string, Shape>>> = {
  subject: { title: [] },
  text: { message: OPEN },
  html: { message: OPEN },
};
const ANY_VALUE = ['size', 'first', 'last'];

const engineOf = (field: TemplateField): Liquid => (field === 'html' ? html : plain);

/** Parse and variable problems of one part. */
function staticProblems(field: TemplateField, source: string): TemplateProblem[] {
  let templates;
  try {
    templates = parse(engineOf(field), source);
  } catch (err) {
    return [{ field, ...located(err) }];
  }
  const problems: TemplateProblem[] = [];
  const known = { ...VARIABLES, ...LATER[field] };
  let analysis;
  try {
    analysis = engineOf(field).analyzeSync(templates);
  } catch (err) {
    return [{ field, ...located(err) }];
  }
  for (const [root, uses] of Object.entries(analysis.globals)) {
    for (const use of uses) {
      const at = { line: use.location?.row ?? null, column: use.location?.col ?? null };
      const shape = Object.hasOwn(known, root) ? known[root] : undefined;
      if (shape === undefined) {
        problems.push({ field, ...at, message: `unknown variable ${root}` });
        break;
      }
      const prop = use.segments[1];
      if (shape !== true && typeof prop === 'string' && !shape.includes(prop) && !ANY_VALUE.includes(prop)) {
        problems.push({ field, ...at, message: `unknown variable ${root}.${prop}` });
        break;
      }
    }
  }
  return problems;
}

function parseFacts(out: string): Array<[string, string]> {
  const facts: Array<[string, string]> = [];
  for (const raw of out.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line) continue;
    const at = line.indexOf(': ');
    facts.push(at < 0 ? [line, ''] : [line.slice(0, at).trim(), line.slice(at + 2).trim()]);
    if (facts.length >= MAX_FACTS) break;
  }
  return facts;
}

function parseActions(out: string): MessageAction[] {
  const actions: MessageAction[] = [];
  for (const raw of out.split(/\r?\n/)) {
    const [label, url, style] = raw.split(' | ').map((s) => s.trim());
    if (!label || !url || !/^https?:\/\/\S+$/.test(url)) continue;
    actions.push({ label, url, style: style === 'primary' || style === 'danger' ? style : 'default' });
    if (actions.length >= MAX_ACTIONS) break;
  }
  return actions;
}

/** What stops a tenant's render in the render thread: an absolute time, and how to say it was passed. */
export interface Deadline {
  /** performance.now() at which the message's deadline passes. */
  at: number;
  /** The problem a render that passes it is ("render took longer than 1 s"). */
  message: string;
}

/** liquidjs' error when a render passes its renderLimit (checked before each tag). */
const RENDER_LIMIT = 'template render limit exceeded';

/** A part rendered; a tenant's part (with a deadline) gets what is left of the message's time. */
function renderPart(field: TemplateField, source: string, scope: object, deadline?: Deadline): string {
  const limit = deadline ? { renderLimit: Math.max(0, deadline.at - performance.now()) } : undefined;
  let out: string;
  try {
    out = engineOf(field).renderSync(parse(engineOf(field), source), scope, limit) as string;
  } catch (err) {
    if (deadline && err instanceof Error && err.message.startsWith(RENDER_LIMIT))
      err.message = deadline.message + err.message.slice(RENDER_LIMIT.length);
    throw err;
  }
  return out.length > MAX[field] ? out.slice(0, MAX[field]) : out;
}

export interface RenderSyncOptions {
  /** The tenant's parts, over the kind's default. */
  override?: Partial<TemplateFields> | null;
  /** A part of the override that failed to render (the default part is used instead). */
  onFallback?: (field: TemplateField, err: unknown) => void;
  /** Throw instead of falling back (checking a template). */
  strict?: boolean;
  /** The message's deadline, for the tenant's parts (the defaults are the service's own). */
  deadline?: Deadline;
  /** Called as each part starts (the render thread reports it, so a stopped render names its part). */
  onPart?: (field: TemplateField) => void;
}

/** The message of a notification, rendered in this thread: null for a kind without one. */
export function renderMessageSync(ctx: MessageContext, opts: RenderSyncOptions = {}): Message | null {
  const defaults = defaultTemplate(ctx.kind, ctx.locale);
  if (!defaults) return null;
  const scope: Record<string, unknown> = scopeOf(ctx);
  const part = (field: TemplateField, extra: object = {}): string => {
    const own = opts.override?.[field];
    const s = { ...scope, ...extra };
    opts.onPart?.(field);
    if (own !== undefined && own !== null) {
      try {
        return renderPart(field, own, s, opts.deadline);
      } catch (err) {
        if (opts.strict) throw Object.assign(err as Error, { field });
        opts.onFallback?.(field, err);
      }
    }
    return renderPart(field, defaults[field], s);
  };
  const title = oneLine(part('title')).trim();
  const intro = part('intro').trim();
  const facts = parseFacts(part('facts'));
  const actions = parseActions(part('actions'));
  const subject = oneLine(part('subject', { title })).trim();
  const message = {
    subject,
    title,
    intro,
    facts: facts.map(([label, value]) => ({ label, value })),
    actions,
  };
  return {
    subject,
    title,
    intro,
    facts,
    actions,
    text: part('text', { message }),
    html: part('html', { message }),
    // Not a template's: chat cards list the files after the facts (adapters/chat.ts).
    ...(ctx.attachments?.length
      ? { attachments: scope.attachments as Message['attachments'], attachmentsTitle: common[ctx.locale].attachments }
      : {}),
  };
}

/** A message of the kind with everything filled in, to try a template on. */
export function sampleContext(kind: MessageContext['kind'], locale: Locale): MessageContext {
  return {
    kind,
    locale,
    recipient: { id: 'sample-approver', name: 'Sample Approver' },
    payload: {
      activityId: 'approve',
      name: 'Approve',
      by: 'sample-user',
      to: 'sample-approver',
      message: 'Please decide today',
      target: 'start',
      decision: 'approve',
      outcome: 'approved',
      comment: 'Looks good',
      commentBy: 'sample-user',
    },
    instance: {
      id: '00000000-0000-4000-8000-000000000000',
      processKey: 'leave',
      processName: 'Leave request',
      businessKey: 'LV-1',
      initiatorId: 'sample-user',
      initiatorName: 'Sample User',
      status: 'running',
    },
    task: {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Approve',
      kind: 'approval',
      status: 'active',
      assignee: 'sample-approver',
      dueDate: new Date('2030-01-01T09:00:00Z'),
      createTime: new Date('2030-01-01T08:00:00Z'),
      reason: 'manager of Sample User',
    },
    summary: [['Days', '3']],
    links: {
      approve: 'https://example.com/l/sample?action=approve',
      reject: 'https://example.com/l/sample?action=reject',
    },
    names: { 'sample-user': 'Sample User', 'sample-approver': 'Sample Approver' },
    attachments: [
      {
        name: 'receipt.pdf',
        size: 48_213,
        url: 'https://example.com/api/v1/attachments/00000000-0000-4000-8000-000000000002/content?token=sample&download=1',
      },
    ],
  };
}

/** Everything wrong with a template's parts, checked in this thread: nothing when it may be stored. */
export function checkTemplateSync(
  kind: MessageContext['kind'],
  locale: Locale,
  parts: Partial<TemplateFields>,
  opts: Pick<RenderSyncOptions, 'deadline' | 'onPart'> = {},
): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  for (const field of TEMPLATE_FIELDS) {
    const source = parts[field];
    if (source === undefined || source === null) continue;
    opts.onPart?.(field);
    problems.push(...staticProblems(field, source));
  }
  if (problems.length) return problems;
  // Renders once against a sample message: runtime errors (a filter's arguments, the limits) show here.
  let message: Message | null;
  try {
    message = renderMessageSync(sampleContext(kind, locale), { ...opts, override: parts, strict: true });
  } catch (err) {
    const field = ((err as { field?: TemplateField }).field ?? 'subject') as TemplateField;
    return [{ field, ...located(err) }];
  }
  if (message && parts.actions !== undefined) {
    opts.onPart?.('actions');
    let out: string;
    try {
      out = renderPart('actions', parts.actions, { ...scopeOf(sampleContext(kind, locale)) }, opts.deadline);
    } catch (err) {
      return [{ field: 'actions', ...located(err) }];
    }
    const lines = out.split(/\r?\n/).filter((l) => l.trim());
    if (lines.length !== message.actions.length)
      problems.push({
        field: 'actions',
        line: null,
        column: null,
        message: 'every line of the output must be `Label | http(s) URL | primary|danger|default` (at most 5)',
      });
  }
  return problems;
}

/**
 * The e-mail parts of a message made in code (a channel's test message, the daily digest), from the
 * shared default parts. Rendered in the calling thread: these are the service's own templates, not a
 * tenant's — loops over the message's facts and actions only, which the caller made and bounded.
 */
export function withBodies(m: Omit<Message, 'text' | 'html'>): Message {
  const shared = sharedParts();
  const message = { ...m, facts: m.facts.map(([label, value]) => ({ label, value })) };
  return {
    ...m,
    text: renderPart('text', shared.text, { message }),
    html: renderPart('html', shared.html, { message }),
  };
}
