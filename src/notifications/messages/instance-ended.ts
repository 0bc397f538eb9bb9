// instance_ended: the outcome to the initiator — their request was approved, rejected or terminated —
// with the last comment made on it.
import { FACTS } from './common.js';
import type { MessageDefinition } from './types.js';

const facts = `{% if payload.comment %}{{ t.comment }}: {{ payload.comment }}{% if payload.commentBy %} ({{ payload.commentBy | person }}){% endif %}
{% endif %}${FACTS}`;

export const instanceEnded: MessageDefinition = {
  kind: 'instance_ended',
  words: {
    en: {
      title: `{% case payload.outcome %}{% when 'approved' %}Your request was approved{% when 'rejected' %}Your request was rejected{% else %}Your request was terminated{% endcase %}`,
      intro: `{% case payload.outcome %}{% when 'approved' %}Every approver agreed: your request is complete.{% when 'rejected' %}Your request was rejected{% if payload.commentBy %} by {{ payload.commentBy | person }}{% endif %}.{% else %}Your request was ended before a decision{% if payload.by %} by {{ payload.by | person }}{% endif %}.{% endcase %}`,
      facts,
    },
    'zh-CN': {
      title: `{% case payload.outcome %}{% when 'approved' %}您的申请已通过{% when 'rejected' %}您的申请被驳回{% else %}您的申请已终止{% endcase %}`,
      intro: `{% case payload.outcome %}{% when 'approved' %}所有审批人均已同意，您的申请已办结。{% when 'rejected' %}您的申请{% if payload.commentBy %}被 {{ payload.commentBy | person }} {% endif %}驳回。{% else %}您的申请{% if payload.by %}被 {{ payload.by | person }} {% endif %}终止，未作出审批决定。{% endcase %}`,
      facts,
    },
  },
};
