// What every message kind shares: the words every template may use (`t`), and the default parts a
// kind does not word itself — the subject's prefix, the facts, the Approve / Reject actions and the
// e-mail's text and HTML parts. All of it is Liquid, the same language a tenant's templates use.
import type { Locale, TemplateFields } from './types.js';

/** `t.*` in a template: labels in the recipient's language. */
export const common = {
  en: {
    process: 'Process',
    businessKey: 'Business key',
    initiator: 'Initiator',
    task: 'Task',
    due: 'Due',
    why: 'Why you',
    approve: 'Approve',
    reject: 'Reject',
    by: 'By',
    message: 'Message',
    comment: 'Comment',
    outcome: 'Outcome',
    attachments: 'Attachments',
  },
  'zh-CN': {
    process: '流程',
    businessKey: '业务编号',
    initiator: '发起人',
    task: '任务',
    due: '截止时间',
    why: '审批依据',
    approve: '同意',
    reject: '驳回',
    by: '操作人',
    message: '留言',
    comment: '意见',
    outcome: '结果',
    attachments: '附件',
  },
} satisfies Record<Locale, Record<string, string>>;

export type Words = (typeof common)['en'];

/** A moment in the recipient's language and time zone, naming the zone ("Dec 1, 2026, 17:30 GMT+8"). */
export function formatWhen(d: Date, locale: Locale, timeZone = 'UTC'): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
    timeZoneName: 'short',
  }).format(d);
}

/** A file's size for people: `68 B`, `12.5 KB`, `3.2 MB` (the `filesize` filter of templates). */
export function fileSize(bytes: unknown): string {
  const n = Number(bytes);
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

/** One fact per line, `Label: value`: the instance's and task's facts, then the form's summary fields. */
export const FACTS = `{% for f in facts %}{{ f.label }}: {{ f.value }}
{% endfor %}{% for f in summary %}{{ f.label }}: {{ f.value }}
{% endfor %}`;

/** The facts with "why you" (the task's assignment reason) before the form's fields. */
export const FACTS_WITH_REASON = `{% for f in facts %}{{ f.label }}: {{ f.value }}
{% endfor %}{% if task.reason %}{{ t.why }}: {{ task.reason }}
{% endif %}{% for f in summary %}{{ f.label }}: {{ f.value }}
{% endfor %}`;

/** A fact naming who acted, before the shared facts. */
export const factsBy = `{% if payload.by %}{{ t.by }}: {{ payload.by | person }}
{% endif %}${FACTS}`;

const SHARED: Omit<TemplateFields, 'title' | 'intro'> = {
  // `[Leave request] LV-7 <title>`: the same prefix for every message of one instance.
  subject: `{% if process %}[{{ process.name }}]{% if instance.businessKey %} {{ instance.businessKey }}{% endif %} {% endif %}{{ title }}`,
  facts: FACTS,
  // One button per line: `Label | URL | primary|danger|default`. Links exist only where the recipient may decide now.
  actions: `{% if links %}{{ t.approve }} | {{ links.approve }} | primary
{{ t.reject }} | {{ links.reject }} | danger{% endif %}`,
  text: `{{ message.title }}

{{ message.intro }}

{% for f in message.facts %}{{ f.label }}: {{ f.value }}
{% endfor %}{% if attachments.size > 0 %}
{{ t.attachments }}:
{% for a in attachments %}- {{ a.name }} ({{ a.size | filesize }}): {{ a.url }}
{% endfor %}{% endif %}{% if message.actions.size > 0 %}
{% for a in message.actions %}{{ a.label }}: {{ a.url }}
{% endfor %}{% endif %}`,
  // Rendered with every output HTML-escaped (use `| raw` to opt out).
  html: `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>{{ message.subject }}</title></head>
<body style="margin:0;padding:24px;background:#f6f8fa;font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;font-size:14px">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d0d7de;border-radius:8px;padding:24px">
<h1 style="margin:0 0 8px;font-size:18px;color:#1f2328">{{ message.title }}</h1>
<p style="margin:0 0 16px;color:#1f2328">{{ message.intro }}</p>
<table role="presentation" style="border-collapse:collapse;margin:0 0 16px">{% for f in message.facts %}<tr><td style="padding:4px 12px 4px 0;color:#57606a;vertical-align:top;white-space:nowrap">{{ f.label }}</td><td style="padding:4px 0;color:#1f2328">{{ f.value }}</td></tr>{% endfor %}</table>
{% if attachments.size > 0 %}<h2 style="margin:0 0 6px;font-size:14px;color:#57606a">{{ t.attachments }}</h2><ul style="margin:0 0 16px;padding:0 0 0 20px">{% for a in attachments %}<li style="padding:2px 0"><a href="{{ a.url }}" style="color:#0969da">{{ a.name }}</a> <span style="color:#57606a">({{ a.size | filesize }})</span></li>{% endfor %}</ul>
{% endif %}{% if message.actions.size > 0 %}<div>{% for a in message.actions %}{% case a.style %}{% when 'primary' %}{% assign colour = '#1a7f37' %}{% when 'danger' %}{% assign colour = '#cf222e' %}{% else %}{% assign colour = '#57606a' %}{% endcase %}<a href="{{ a.url }}" style="display:inline-block;margin:0 8px 8px 0;padding:10px 20px;border-radius:6px;background:{{ colour }};color:#ffffff;text-decoration:none;font-weight:600">{{ a.label }}</a>{% endfor %}</div>{% endif %}
</div></body></html>
`,
};

/** The shared parts, the same in every language (their words come from `t`). */
export const sharedParts = (): Omit<TemplateFields, 'title' | 'intro'> => ({ ...SHARED });
