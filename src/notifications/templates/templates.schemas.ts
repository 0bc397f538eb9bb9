import { z } from '@hono/zod-openapi';
import { IsoDate } from '../../shapes.js';
import { PageQuery } from '../../paging.js';

export const TemplateParams = z.object({
  kind: z
    .string()
    .max(100)
    .openapi({
      param: { name: 'kind', in: 'path' },
      description: 'A notification kind with a message (404 otherwise)',
    }),
  locale: z
    .string()
    .max(20)
    .openapi({ param: { name: 'locale', in: 'path' }, description: '`en` or `zh-CN` (404 otherwise)' }),
});

const part = (max: number, description: string) => z.string().max(max).openapi({ description });

/**
 * The parts of a template, each Liquid (docs/channels.md#templates). Together at most 82,000
 * characters, so that any body the schema allows fits the default 1 MiB body limit even with every
 * character JSON-escaped (12 bytes for one outside the BMP): a valid template never meets a 413.
 */
const partShapes = {
  subject: part(1_000, 'E-mail subject; the first line of a chat message. Sees `title`'),
  title: part(1_000, 'Heading of the message and of the chat card'),
  intro: part(5_000, 'One sentence: what happened and what is asked'),
  facts: part(10_000, 'One fact per output line: `Label: value`'),
  actions: part(5_000, 'One button per output line: `Label | http(s) URL | primary|danger|default` (at most 5)'),
  text: part(20_000, 'The e-mail’s plain-text part. Sees `message`'),
  html: part(40_000, 'The e-mail’s HTML part, every output HTML-escaped (`| raw` opts out). Sees `message`'),
};

/** The longest each part may be (the schema's maxLength). */
export const TEMPLATE_PART_MAX = Object.fromEntries(
  Object.entries(partShapes).map(([k, v]) => [k, v.maxLength ?? 0]),
) as Record<keyof typeof partShapes, number>;

export const TemplateBody = z
  .object({
    subject: partShapes.subject.optional(),
    title: partShapes.title.optional(),
    intro: partShapes.intro.optional(),
    facts: partShapes.facts.optional(),
    actions: partShapes.actions.optional(),
    text: partShapes.text.optional(),
    html: partShapes.html.optional(),
  })
  .strict()
  .openapi('NotificationTemplateParts', {
    description:
      'The parts the tenant overrides; the parts not given are the default’s. `{}` is the default again. ' +
      'Each part is a Liquid template: it must parse, name only the variables and filters of the message, and ' +
      'render to the form its description gives (`facts`, `actions`); checked on save and on preview, ' +
      'else 422 TEMPLATE_INVALID naming the part and line',
  });

const FullParts = z
  .object({
    subject: z.string(),
    title: z.string(),
    intro: z.string(),
    facts: z.string(),
    actions: z.string(),
    text: z.string(),
    html: z.string(),
  })
  .openapi('NotificationTemplateFullParts');

export const Template = z
  .object({
    kind: z.string(),
    locale: z.enum(['en', 'zh-CN']),
    overridden: z.array(z.enum(['subject', 'title', 'intro', 'facts', 'actions', 'text', 'html'])),
    parts: FullParts.openapi({ description: 'What is sent: the tenant’s parts over the default' }),
    defaults: FullParts,
    updatedAt: IsoDate.nullable(),
    updatedBy: z.string().nullable(),
  })
  .openapi('NotificationTemplate');

export const TemplateQuery = PageQuery.extend({
  kind: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: 'kind', in: 'query' } }),
  locale: z
    .string()
    .max(20)
    .optional()
    .openapi({ param: { name: 'locale', in: 'query' } }),
});

export const PreviewBody = z
  .object({
    taskId: z.string().max(100).optional().openapi({ description: 'A task of the tenant (running or archived)' }),
    instanceId: z.string().max(100).optional().openapi({
      description:
        'An instance of the tenant (a task message: its newest task); with `taskId`, the task’s own instance',
    }),
    recipientId: z.string().max(100).optional().openapi({
      description:
        'Who it is for; default the initiator (instance_ended, task_returned), else the task’s assignee, else you',
    }),
    parts: TemplateBody.optional().openapi({ description: 'Parts to try, over the stored ones (not stored)' }),
  })
  .strict()
  .openapi('NotificationTemplatePreviewInput', {
    description: 'Neither `taskId` nor `instanceId`: a sample message',
  });

export const Preview = z
  .object({
    kind: z.string(),
    locale: z.enum(['en', 'zh-CN']),
    recipient: z.object({ id: z.string(), name: z.string() }),
    instanceId: z.string().nullable(),
    taskId: z.string().nullable(),
    message: z.object({
      subject: z.string(),
      title: z.string(),
      intro: z.string(),
      facts: z.array(z.object({ label: z.string(), value: z.string() })),
      actions: z.array(
        z.object({ label: z.string(), url: z.string(), style: z.enum(['primary', 'danger', 'default']) }),
      ),
      text: z.string(),
      html: z.string(),
    }),
  })
  .openapi('NotificationTemplatePreview');
