// task_returned: the outcome to the initiator when an approver returned their request to an earlier step.
import { common, nameOf, subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: {
    subject: 'Your request was returned',
    intro: (who: string, to: string) => `${who} returned your request to “${to}”.`,
  },
  'zh-CN': { subject: '您的申请被退回', intro: (who: string, to: string) => `${who} 将您的申请退回到“${to}”。` },
};

export const taskReturned: MessageTemplate = {
  kind: 'task_returned',
  render(ctx) {
    const w = words[ctx.locale];
    return {
      subject: subjectOf(ctx, w.subject),
      title: w.subject,
      intro: w.intro(nameOf(ctx, ctx.payload.by), String(ctx.payload.target ?? '')),
      facts: [[common[ctx.locale].by, nameOf(ctx, ctx.payload.by)], ...taskFacts(ctx)],
      actions: [],
    };
  },
};
