// task_reassigned: an admin moved the recipient's task to someone else.
import type { MessageDefinition } from './types.js';

export const taskReassigned: MessageDefinition = {
  kind: 'task_reassigned',
  words: {
    en: {
      title: 'A task was moved to someone else',
      intro: '{{ payload.by | person }} reassigned your task to {{ payload.to | person }}: you need not act on it.',
    },
    'zh-CN': {
      title: '任务已转给他人',
      intro: '{{ payload.by | person }} 已将您的任务转给 {{ payload.to | person }}，您无需处理。',
    },
  },
};
