import { z } from '@hono/zod-openapi';
import { CHAT_ID_PATTERN, EMAIL_PATTERN, EmailAddress, HttpUrl, httpUrl, IsoDate } from '../shapes.js';
import { PageQuery } from '../paging.js';
import { CHANNEL_KINDS, LOCALES } from './messages/index.js';

export const ChannelIdParam = z.object({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' } }),
});
export const AddressParams = z.object({
  id: z
    .string()
    .max(100)
    .openapi({ param: { name: 'id', in: 'path' } }),
  userId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'userId', in: 'path' } }),
});

const Host = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/, 'a host name or an IP address');
/** `ops@example.com` or `Approvals <ops@example.com>`. */
const EMAIL_BODY = EMAIL_PATTERN.slice(1, -1);
const Mailbox = z
  .string()
  .max(320)
  .regex(new RegExp(`^(?:[^<>\\r\\n\\u0000]*<${EMAIL_BODY}>|${EMAIL_BODY})$`), {
    message: 'an e-mail address, or a name and an address in < >',
  });
/** What a user is called on a channel: an e-mail address on an e-mail channel, a chat user id on the others. */
const ChannelAddress = z
  .string()
  .min(1)
  .max(320)
  .regex(new RegExp(`^(?:${EMAIL_BODY}|${CHAT_ID_PATTERN.slice(1, -1)})$`), 'an e-mail address or a chat user id');
const Locale = z.enum(LOCALES).optional().openapi({ description: 'The language of the messages (default en)' });
const writeOnly = (description: string) => ({ description: `${description}. Write-only: never answered` });

const common = {
  name: z.string().min(1).max(100),
  enabled: z.boolean().optional().openapi({ description: 'Default true' }),
  kinds: z
    .array(z.enum(CHANNEL_KINDS as [string, ...string[]]))
    .max(50)
    .optional()
    .openapi({ description: 'The notification kinds it sends; default every kind a channel has a message for' }),
};

const EmailSettings = z
  .object({
    host: Host,
    port: z.number().int().min(1).max(65535).default(587),
    tls: z
      .enum(['starttls', 'tls', 'none'])
      .default('starttls')
      .openapi({ description: 'starttls: upgrade (required); tls: TLS from the start (465); none: plain' }),
    user: z.string().min(1).max(320).optional(),
    password: z.string().min(1).max(1000).nullable().optional().openapi(writeOnly('SMTP password')),
    from: Mailbox,
    replyTo: EmailAddress.optional(),
    locale: Locale,
  })
  .strict();

// A create needs the secrets a channel cannot work without; a replace keeps the stored ones when they are not sent.
const chatSettings = (signed: boolean, create: boolean) =>
  z
    .object({
      url: create
        ? HttpUrl.openapi(writeOnly('The webhook URL (its credential)'))
        : HttpUrl.optional().openapi(writeOnly('The webhook URL (its credential); not sent: the stored one is kept')),
      ...(signed
        ? { secret: z.string().min(1).max(500).nullable().optional().openapi(writeOnly('The signing secret')) }
        : {}),
      locale: Locale,
    })
    .strict();

const webhookSettings = (create: boolean) =>
  z
    .object({
      url: httpUrl(
        'the receiver authenticates each message by its x-gflow-signature header, made with `secret`',
      ).openapi({
        description:
          'Where messages are POSTed. No `user:password@` (400); a secret query parameter (`token`, `key`, `sig`, …) is stored and used, answered as `***`, and the answered URL sent back keeps it (docs/http.md "Credentials in URLs")',
      }),
      secret: create
        ? z.string().min(16).max(500).openapi(writeOnly('HMAC-SHA256 key'))
        : z
            .string()
            .min(16)
            .max(500)
            .optional()
            .openapi(writeOnly('HMAC-SHA256 key; not sent: the stored one is kept')),
      locale: Locale,
    })
    .strict();

const body = <K extends string, S extends z.ZodType>(kind: K, settings: S, name: string) =>
  z
    .object({ ...common, kind: z.literal(kind), settings })
    .strict()
    .openapi(name);

const channelBody = (create: boolean) => {
  const suffix = create ? 'ChannelBody' : 'ChannelReplaceBody';
  return z.discriminatedUnion('kind', [
    body('email', EmailSettings, 'EmailChannelBody'),
    body('slack', chatSettings(false, create), `Slack${suffix}`),
    body('teams', chatSettings(false, create), `Teams${suffix}`),
    body('wecom', chatSettings(false, create), `Wecom${suffix}`),
    body('feishu', chatSettings(true, create), `Feishu${suffix}`),
    body('dingtalk', chatSettings(true, create), `Dingtalk${suffix}`),
    body('webhook', webhookSettings(create), `Webhook${suffix}`),
  ]);
};

const refusals =
  ' Answers 422 CHANNEL_REFUSED when the host (settings.host, or the URL’s) does not resolve or the outbound network rules refuse it.';
export const ChannelBody = channelBody(true).openapi('NotificationChannelBody', {
  description: `The whole channel, with its secrets.${refusals}`,
});
export const ChannelReplaceBody = channelBody(false).openapi('NotificationChannelReplaceBody', {
  description: `The whole channel; a secret not sent keeps the stored one (null removes an optional one). The kind cannot change (422 CHANNEL_REFUSED).${refusals}`,
});

export const Channel = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['email', 'slack', 'teams', 'feishu', 'dingtalk', 'wecom', 'webhook']),
    enabled: z.boolean(),
    kinds: z.array(z.string()),
    settings: z.record(z.string(), z.unknown()).openapi({
      description:
        'The settings without secrets; a chat channel shows `urlHint` (the origin of its URL), a webhook channel its `url` with the values of secret query parameters as `***`',
    }),
    secretsSet: z
      .array(z.string())
      .openapi({ description: 'Which secrets are stored (their values never are answered)' }),
    createdAt: IsoDate,
    updatedAt: IsoDate,
  })
  .openapi('NotificationChannel');

export const AddressBody = z
  .object({
    address: ChannelAddress.openapi({
      description:
        'email channel: an e-mail address (overrides the directory’s); chat: the user’s id there (letters, digits and _ . @ + : = -, at most 200). One that does not suit the channel’s kind: 422 CHANNEL_REFUSED',
    }),
  })
  .strict()
  .openapi('ChannelAddressBody');

export const Address = z
  .object({ channelId: z.string(), userId: z.string(), address: z.string(), createdAt: IsoDate, updatedAt: IsoDate })
  .openapi('ChannelAddress');

export const TestBody = z
  .object({
    to: ChannelAddress.optional().openapi({
      description:
        'Where to send (an e-mail address on an e-mail channel, a chat user id on the others); default the user’s address. An e-mail channel with neither, or a `to` that does not suit the kind: 422 CHANNEL_REFUSED',
    }),
    userId: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Whose address to use (and mention); default the caller' }),
  })
  .strict()
  .openapi('ChannelTestBody');

export const TestResult = z
  .object({
    ok: z.boolean(),
    channelId: z.string(),
    kind: z.string(),
    to: z.string().nullable(),
    messageId: z.string(),
    status: z.number().int().nullable().openapi({ description: 'The remote’s HTTP status or SMTP reply code' }),
    response: z.string().nullable().openapi({ description: 'What the remote server answered' }),
    error: z.string().nullable(),
  })
  .openapi('ChannelTestResult');

export const DeliveryStatus = z.enum(['pending', 'sending', 'sent', 'failed', 'skipped']);

export const Delivery = z
  .object({
    id: z.string(),
    notificationId: z.string().nullable().openapi({ description: 'null for a daily digest' }),
    digestDate: z
      .string()
      .nullable()
      .openapi({ description: 'A daily digest: its day (yyyy-mm-dd in the user’s time zone); null otherwise' }),
    kind: z.string().openapi({ description: 'The notification kind, or `digest`' }),
    channelId: z.string(),
    userId: z.string(),
    status: DeliveryStatus,
    attempts: z.number().int(),
    nextAttemptAt: IsoDate.nullable().openapi({ description: 'When a pending delivery is tried next' }),
    heldUntil: IsoDate.nullable().openapi({
      description: 'Set when the recipient’s quiet hours held the message: the end of that window',
    }),
    address: z.string().nullable(),
    messageId: z.string().nullable().openapi({ description: 'The same on every attempt (e-mail Message-ID)' }),
    response: z.string().nullable().openapi({ description: 'What the remote server answered last' }),
    lastError: z.string().nullable(),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    sentAt: IsoDate.nullable(),
  })
  .openapi('NotificationDelivery');

export const DeliveryQuery = PageQuery.extend({
  status: z
    .string()
    .regex(
      /^(pending|sending|sent|failed|skipped)(,(pending|sending|sent|failed|skipped))*$/,
      'comma-separated statuses',
    )
    .optional()
    .openapi({ param: { name: 'status', in: 'query' } }),
  channelId: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: 'channelId', in: 'query' } }),
  userId: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: 'userId', in: 'query' } }),
  kind: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: 'kind', in: 'query' } }),
  notificationId: z
    .string()
    .regex(/^[1-9][0-9]{0,17}$/, 'a notification id')
    .optional()
    .openapi({ param: { name: 'notificationId', in: 'query' } }),
});
