import { z } from '@hono/zod-openapi';
import { IsoDate } from '../shapes.js';
import { PageQuery } from '../paging.js';

export const Notification = z
  .object({
    id: z.string().openapi({ description: 'Increasing per service; the resume point of the WebSocket' }),
    kind: z.string().openapi({ description: 'task_assigned, task_claimable, urge, cc, ... (docs/notifications.md)' }),
    instanceId: z.string().nullable(),
    taskId: z.string().nullable(),
    payload: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'Kind-specific fields plus processKey, processName, businessKey' }),
    createdAt: IsoDate,
    readAt: IsoDate.nullable(),
  })
  .openapi('Notification');

export const NotificationQuery = PageQuery.extend({
  unread: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'unread', in: 'query' }, description: '`true`: only unread ones' }),
  kind: z
    .string()
    .max(100)
    .optional()
    .openapi({ param: { name: 'kind', in: 'query' } }),
});

export const NotificationIdParam = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });

export const NoBody = z.object({}).strict().openapi('NoBody');

export const ReadAllResult = z.object({ updated: z.number().int() }).openapi('NotificationsReadAll');

export const SocketQuery = z.object({
  token: z
    .string()
    .optional()
    .openapi({
      param: { name: 'token', in: 'query' },
      description: 'The access token (browsers cannot send an Authorization header on a WebSocket)',
    }),
  afterId: z
    .string()
    .regex(/^(0|[1-9][0-9]{0,17})$/, '0 or a notification id')
    .optional()
    .openapi({
      param: { name: 'afterId', in: 'query' },
      description: 'Resume: first deliver every stored notification with a greater id',
    }),
});
