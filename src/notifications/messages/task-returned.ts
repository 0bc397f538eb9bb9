// task_returned: the outcome to the initiator when an approver returned their request to an earlier step.
import { factsBy } from './common.js';
import type { MessageDefinition } from './types.js';

export const taskReturned: MessageDefinition = {
  kind: 'task_returned',
  words: {
    en: {
      title: 'Your request was returned',
      intro: '{{ payload.by | person }} returned your request to “{{ payload.target }}”.',
      facts: factsBy,
    },
    'zh-CN': {
      title: '您的申请被退回',
      intro: '{{ payload.by | person }} 将您的申请退回到“{{ payload.target }}”。',
      facts: factsBy,
    },
  },
};
