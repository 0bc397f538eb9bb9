// instance_withdrawn: the initiator withdrew a request the recipient was handling.
import { nameOf, subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: {
    subject: 'Request withdrawn',
    intro: (by: string) => `${by} withdrew the request: nothing is left for you to do.`,
  },
  'zh-CN': { subject: '申请已撤回', intro: (by: string) => `${by} 已撤回该申请，您无需处理。` },
};

export const instanceWithdrawn: MessageTemplate = {
  kind: 'instance_withdrawn',
  render(ctx) {
    const w = words[ctx.locale];
    return {
      subject: subjectOf(ctx, w.subject),
      title: w.subject,
      intro: w.intro(nameOf(ctx, ctx.payload.by)),
      facts: taskFacts(ctx),
      actions: [],
    };
  },
};
