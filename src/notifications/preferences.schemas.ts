// The caller's notification preferences as the API takes and answers them (`/api/v1/me/notification-preferences`).
import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';
import { keysOf } from '../http/input.js';
import { CHANNEL_KINDS } from './messages/index.js';
import { DIGEST_KINDS, TIME_ZONES, URGENT_KINDS } from './preference-policy.js';

const Kind = z.enum(CHANNEL_KINDS as [string, ...string[]]);
const HourMinute = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'a time of day, HH:MM (00:00–23:59)')
  .openapi({ example: '22:00' });

const QuietHours = z
  .object({
    start: HourMinute.openapi({ description: 'When the quiet window starts (local time in `timeZone`)' }),
    end: HourMinute.openapi({
      description: 'When it ends; before `start` means the next day (22:00–07:00); equal to `start`: no window',
    }),
    allowUrgent: z
      .boolean()
      .default(true)
      .openapi({ description: 'Urgent kinds (`urgentKinds`: urge, task_overdue) pass through; default true' }),
  })
  .strict();

const Digest = z
  .object({
    hour: z
      .number()
      .int()
      .min(0)
      .max(23)
      .openapi({ description: 'The hour of the day (in `timeZone`) the digest is sent at' }),
  })
  .strict();

const TimeZone = z.enum(TIME_ZONES, { error: 'an IANA time zone, e.g. Europe/Berlin' }).openapi({
  description: 'An IANA time zone (quiet hours and the digest hour are read in it)',
  example: 'Asia/Shanghai',
});

export const PreferencesBody = z
  .object({
    channels: z
      .record(
        z.string().min(1).max(100).openapi({ description: 'A notification channel id of the tenant' }),
        z.array(Kind).max(50),
      )
      .optional()
      .openapi({
        ...keysOf({ minLength: 1, maxLength: 100 }),
        description:
          'Per channel id, the kinds you take there; a channel not named sends every kind it sends. Default {}',
      }),
    timeZone: TimeZone.optional().openapi({ description: 'Default UTC' }),
    quietHours: QuietHours.nullable()
      .optional()
      .openapi({ description: 'Messages wait until the window ends; null (default): no quiet hours' }),
    digest: Digest.nullable()
      .optional()
      .openapi({
        description: `A daily digest of your open tasks instead of one message per task (${DIGEST_KINDS.join(', ')}); null (default): off`,
      }),
  })
  .strict()
  .openapi('NotificationPreferencesBody', {
    description: 'Your preferences, replaced as a whole: a field left out takes its default',
  });

export const Preferences = z
  .object({
    channels: z.record(z.string(), z.array(z.string())),
    timeZone: z.string(),
    quietHours: z.object({ start: z.string(), end: z.string(), allowUrgent: z.boolean() }).nullable(),
    digest: z.object({ hour: z.number().int() }).nullable(),
    digestNextAt: IsoDate.nullable().openapi({ description: 'When your next digest is due' }),
    updatedAt: IsoDate.nullable().openapi({ description: 'null: never saved (the defaults apply)' }),
    available: z
      .object({
        channels: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            kind: z.string(),
            enabled: z.boolean(),
            kinds: z.array(z.string()).openapi({ description: 'The kinds the channel sends' }),
          }),
        ),
        kinds: z.array(z.string()).openapi({ description: 'Every kind a channel can send' }),
        urgentKinds: z
          .array(z.string())
          .openapi({ description: `Kinds quiet hours let through: ${URGENT_KINDS.join(', ')}` }),
        digestKinds: z.array(z.string()).openapi({ description: 'Kinds the digest replaces' }),
      })
      .openapi({ description: 'The tenant’s channels and the kinds to choose from' }),
  })
  .openapi('NotificationPreferences');
