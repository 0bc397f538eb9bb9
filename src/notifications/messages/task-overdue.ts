// task_overdue: a task's due date passed and its node reminds.
import { decisionActions, subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: {
    subject: (task: string) => `Overdue: ${task}`,
    intro: 'This task is past its due date and still waits for a decision.',
  },
  'zh-CN': { subject: (task: string) => `已超期：${task}`, intro: '该任务已超过截止时间，仍在等待处理。' },
};

export const taskOverdue: MessageTemplate = {
  kind: 'task_overdue',
  render(ctx) {
    const w = words[ctx.locale];
    const task = ctx.task?.name ?? String(ctx.payload.name ?? '');
    return {
      subject: subjectOf(ctx, w.subject(task)),
      title: w.subject(task),
      intro: w.intro,
      facts: taskFacts(ctx),
      actions: decisionActions(ctx),
    };
  },
};
