// task_claimable: a task waits in a pool the recipient belongs to; the first to claim it decides.
import { subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: {
    subject: (task: string) => `Open for claiming: ${task}`,
    intro: 'A task is waiting in a pool you belong to: claim it in the console to decide it.',
  },
  'zh-CN': {
    subject: (task: string) => `可认领：${task}`,
    intro: '您所在的候选组有一项待认领的任务，请在控制台认领后审批。',
  },
};

export const taskClaimable: MessageTemplate = {
  kind: 'task_claimable',
  render(ctx) {
    const w = words[ctx.locale];
    const task = ctx.task?.name ?? String(ctx.payload.name ?? '');
    return {
      subject: subjectOf(ctx, w.subject(task)),
      title: w.subject(task),
      intro: w.intro,
      facts: taskFacts(ctx, { why: true }),
      actions: [],
    };
  },
};
