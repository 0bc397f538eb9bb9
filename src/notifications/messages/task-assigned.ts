// task_assigned: a task is now the recipient's to decide (a new task, a transfer, a delegation, …).
import { decisionActions, subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: {
    subject: (task: string) => `Approval needed: ${task}`,
    intro: (who: string) => `${who} asks for your decision.`,
  },
  'zh-CN': { subject: (task: string) => `待审批：${task}`, intro: (who: string) => `${who} 提交的申请等待您审批。` },
};

export const taskAssigned: MessageTemplate = {
  kind: 'task_assigned',
  render(ctx) {
    const w = words[ctx.locale];
    const task = ctx.task?.name ?? String(ctx.payload.name ?? '');
    return {
      subject: subjectOf(ctx, w.subject(task)),
      title: w.subject(task),
      intro: w.intro(ctx.instance?.initiatorName ?? ''),
      facts: taskFacts(ctx, { why: true }),
      actions: decisionActions(ctx),
    };
  },
};
