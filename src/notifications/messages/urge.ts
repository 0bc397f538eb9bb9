// urge: the initiator (or a monitor) asks the task's handlers to hurry.
import { common, decisionActions, nameOf, subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: {
    subject: (task: string) => `Reminder: ${task} is waiting for you`,
    intro: (who: string) => `${who} is waiting for your decision.`,
  },
  'zh-CN': {
    subject: (task: string) => `催办：${task} 等待您处理`,
    intro: (who: string) => `${who} 正在等待您的审批。`,
  },
};

export const urge: MessageTemplate = {
  kind: 'urge',
  render(ctx) {
    const w = words[ctx.locale];
    const task = ctx.task?.name ?? String(ctx.payload.name ?? '');
    const message = typeof ctx.payload.message === 'string' && ctx.payload.message ? ctx.payload.message : null;
    return {
      subject: subjectOf(ctx, w.subject(task)),
      title: w.subject(task),
      intro: w.intro(nameOf(ctx, ctx.payload.by)),
      facts: [...(message ? [[common[ctx.locale].message, message] as [string, string]] : []), ...taskFacts(ctx)],
      actions: decisionActions(ctx),
    };
  },
};
