// instance_withdrawn: the initiator withdrew a request the recipient was handling.
import type { MessageDefinition } from './types.js';

export const instanceWithdrawn: MessageDefinition = {
  kind: 'instance_withdrawn',
  words: {
    en: {
      title: 'Request withdrawn',
      intro: '{{ payload.by | person }} withdrew the request: nothing is left for you to do.',
    },
    'zh-CN': { title: '申请已撤回', intro: '{{ payload.by | person }} 已撤回该申请，您无需处理。' },
  },
};
