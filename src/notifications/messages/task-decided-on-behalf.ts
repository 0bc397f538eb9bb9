// task_decided_on_behalf: an admin approved or rejected the recipient's task for them.
import { factsBy } from './common.js';
import type { MessageDefinition } from './types.js';

const approved = `{% if payload.decision == 'approve' or payload.decision == 'approved' %}`;

export const taskDecidedOnBehalf: MessageDefinition = {
  kind: 'task_decided_on_behalf',
  words: {
    en: {
      title: `${approved}Approved on your behalf{% else %}Rejected on your behalf{% endif %}`,
      intro: `{{ payload.by | person }} ${approved}approved{% else %}rejected{% endif %} your task for you.`,
      facts: factsBy,
    },
    'zh-CN': {
      title: `${approved}已代您同意{% else %}已代您驳回{% endif %}`,
      intro: `{{ payload.by | person }} 代您${approved}同意{% else %}驳回{% endif %}了该任务。`,
      facts: factsBy,
    },
  },
};
