// urge: the initiator (or a monitor) asks the task's handlers to hurry.
import { FACTS } from './common.js';
import type { MessageDefinition } from './types.js';

const facts = `{% if payload.message %}{{ t.message }}: {{ payload.message }}
{% endif %}${FACTS}`;

export const urge: MessageDefinition = {
  kind: 'urge',
  decision: true,
  words: {
    en: {
      title: 'Reminder: {{ task.name | default: payload.name }} is waiting for you',
      intro: '{{ payload.by | person }} is waiting for your decision.',
      facts,
    },
    'zh-CN': {
      title: '催办：{{ task.name | default: payload.name }} 等待您处理',
      intro: '{{ payload.by | person }} 正在等待您的审批。',
      facts,
    },
  },
};
