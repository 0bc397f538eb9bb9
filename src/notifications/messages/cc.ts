// cc: the recipient is copied on an instance (for their information; nothing to decide).
import type { MessageDefinition } from './types.js';

export const cc: MessageDefinition = {
  kind: 'cc',
  words: {
    en: { title: 'For your information', intro: 'You were copied on a request by {{ instance.initiator }}.' },
    'zh-CN': { title: '抄送知会', intro: '{{ instance.initiator }} 的申请抄送给您。' },
  },
};
