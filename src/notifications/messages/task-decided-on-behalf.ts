// task_decided_on_behalf: an admin approved or rejected the recipient's task for them.
import { common, nameOf, subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: {
    subject: (approved: boolean) => (approved ? 'Approved on your behalf' : 'Rejected on your behalf'),
    intro: (who: string, approved: boolean) => `${who} ${approved ? 'approved' : 'rejected'} your task for you.`,
  },
  'zh-CN': {
    subject: (approved: boolean) => (approved ? '已代您同意' : '已代您驳回'),
    intro: (who: string, approved: boolean) => `${who} 代您${approved ? '同意' : '驳回'}了该任务。`,
  },
};

export const taskDecidedOnBehalf: MessageTemplate = {
  kind: 'task_decided_on_behalf',
  render(ctx) {
    const w = words[ctx.locale];
    const approved = ctx.payload.decision === 'approve' || ctx.payload.decision === 'approved';
    return {
      subject: subjectOf(ctx, w.subject(approved)),
      title: w.subject(approved),
      intro: w.intro(nameOf(ctx, ctx.payload.by), approved),
      facts: [[common[ctx.locale].by, nameOf(ctx, ctx.payload.by)], ...taskFacts(ctx)],
      actions: [],
    };
  },
};
