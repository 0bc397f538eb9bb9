// cc: the recipient is copied on an instance (for their information; nothing to decide).
import { subjectOf, taskFacts } from './common.js';
import type { MessageTemplate } from './types.js';

const words = {
  en: { subject: 'For your information', intro: (who: string) => `You were copied on a request by ${who}.` },
  'zh-CN': { subject: '抄送知会', intro: (who: string) => `${who} 的申请抄送给您。` },
};

export const cc: MessageTemplate = {
  kind: 'cc',
  render(ctx) {
    const w = words[ctx.locale];
    return {
      subject: subjectOf(ctx, w.subject),
      title: w.subject,
      intro: w.intro(ctx.instance?.initiatorName ?? ''),
      facts: taskFacts(ctx),
      actions: [],
    };
  },
};
