// task_reassigned: an admin moved the recipient's task to someone else.
import { nameOf, subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: {
    subject: 'A task was moved to someone else',
    intro: (by: string, to: string) => `${by} reassigned your task to ${to}: you need not act on it.`,
  },
  'zh-CN': {
    subject: '任务已转给他人',
    intro: (by: string, to: string) => `${by} 已将您的任务转给 ${to}，您无需处理。`,
  },
};

export const taskReassigned: MessageTemplate = {
  kind: 'task_reassigned',
  render(ctx) {
    const w = words[ctx.locale];
    return {
      subject: subjectOf(ctx, w.subject),
      title: w.subject,
      intro: w.intro(nameOf(ctx, ctx.payload.by), nameOf(ctx, ctx.payload.to)),
      facts: taskFacts(ctx),
      actions: [],
    };
  },
};
