// Words and facts every message kind shares, in each language.
import type { Locale, Message, MessageContext } from './types.js';

export const common = {
  en: {
    process: 'Process',
    businessKey: 'Business key',
    initiator: 'Initiator',
    task: 'Task',
    due: 'Due',
    why: 'Why you',
    approve: 'Approve',
    reject: 'Reject',
    by: 'By',
    message: 'Message',
  },
  'zh-CN': {
    process: '流程',
    businessKey: '业务编号',
    initiator: '发起人',
    task: '任务',
    due: '截止时间',
    why: '审批依据',
    approve: '同意',
    reject: '驳回',
    by: '操作人',
    message: '留言',
  },
} satisfies Record<Locale, Record<string, string>>;

export const words = (ctx: MessageContext) => common[ctx.locale];

/** A date as people read it, in UTC (the recipient's time zone is not known). */
export function when(ctx: MessageContext, d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const nameOf = (ctx: MessageContext, id: unknown) =>
  typeof id === 'string' ? (ctx.names[id] ?? id) : String(id ?? '');

/** `[Leave request] LV-7` — the subject's prefix, the same for every message of one instance. */
export function subjectOf(ctx: MessageContext, text: string): string {
  const i = ctx.instance;
  if (!i) return text;
  return `[${i.processName}]${i.businessKey ? ` ${i.businessKey}` : ''} ${text}`;
}

/** Process, business key, initiator, task, due date, why this approver, then the form's summary fields. */
export function taskFacts(ctx: MessageContext, opts: { why?: boolean } = {}): Message['facts'] {
  const w = words(ctx);
  const facts: Message['facts'] = [];
  const i = ctx.instance;
  if (i) {
    facts.push([w.process, i.processName]);
    if (i.businessKey) facts.push([w.businessKey, i.businessKey]);
    facts.push([w.initiator, i.initiatorName]);
  }
  const t = ctx.task;
  if (t) {
    facts.push([w.task, t.name]);
    if (t.dueDate) facts.push([w.due, when(ctx, t.dueDate)]);
    if (opts.why && t.reason) facts.push([w.why, t.reason]);
  }
  return [...facts, ...ctx.summary];
}

/** Approve and Reject as one-time links, where the recipient may decide now. */
export function decisionActions(ctx: MessageContext): Message['actions'] {
  if (!ctx.links) return [];
  const w = words(ctx);
  return [
    { label: w.approve, url: ctx.links.approve, style: 'primary' },
    { label: w.reject, url: ctx.links.reject, style: 'danger' },
  ];
}
