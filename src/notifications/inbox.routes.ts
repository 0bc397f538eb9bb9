// `/api/v1/notifications`: the REST side of the in-app notifications (our extension), and the
// documentation of the WebSocket `/api/v1/ws/notifications`, whose upgrade is served by
// ../notification-socket.ts on the HTTP server itself.
import * as notifications from './inbox.js';
import { AppError } from '../errors.js';
import type { Router } from '../http/context.js';
import { ErrorEnvelope, page } from '../http/envelope.js';
import { em } from '../http/middleware/auth.js';
import { createRouter, defineRoute, endpoint } from '../http/router.js';
import * as s from './inbox.schemas.js';

const tags = ['notifications'];
const errorAnswer = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorEnvelope } },
});

export function notificationRoutes(): Router {
  const r = createRouter();
  endpoint(
    r,
    {
      method: 'get',
      path: '/',
      tags,
      summary: "The caller's notifications, newest first",
      query: s.NotificationQuery,
      response: page(s.Notification),
    },
    ({ principal, query: q, c }) =>
      notifications.listNotifications(em(c), principal, { ...q, unread: q.unread === 'true' }),
  );
  // Registered before /{id}/read.
  endpoint(
    r,
    {
      method: 'post',
      path: '/read-all',
      tags,
      summary: "Mark all the caller's notifications read",
      body: s.NoBody,
      optionalBody: true,
      response: s.ReadAllResult,
    },
    ({ principal, c }) => notifications.markAllRead(em(c), principal),
  );
  endpoint(
    r,
    {
      method: 'post',
      path: '/{id}/read',
      tags,
      summary: 'Mark one notification read (a repeat keeps the first read time)',
      params: s.NotificationIdParam,
      body: s.NoBody,
      optionalBody: true,
      response: s.Notification,
    },
    ({ principal, params, c }) => notifications.markRead(em(c), principal, params.id),
  );
  return r;
}

/** Documents the WebSocket in OpenAPI; a plain GET without the upgrade gets 426 Upgrade Required. */
export function notificationSocketDocRoutes(): Router {
  const r = createRouter({ secured: false });
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/notifications',
      tags,
      secured: false,
      summary: 'WebSocket of live notifications (token checked at the upgrade; 401 refuses it)',
      description:
        'Upgrade with `?token=<accessToken>`. The server sends `{type:"ready"}`, then `{type:"notification", notification}` for each new one. ' +
        'Send `{type:"resume", afterId}` (or pass `?afterId=`) to first receive every stored notification with a greater id. See docs/notifications.md.',
      request: { query: s.SocketQuery },
      responses: {
        101: { description: 'Switching Protocols: the WebSocket is open' },
        400: errorAnswer('An upgrade that is not a WebSocket handshake, or a bad `afterId`'),
        401: errorAnswer('The upgrade carries no token (`?token=` or Authorization) or one that does not verify'),
        426: {
          ...errorAnswer(
            'A GET without `Upgrade: websocket` (an HTTP client that does not speak WebSocket): UPGRADE_REQUIRED (42600)',
          ),
          headers: { Upgrade: { description: '`websocket`', schema: { type: 'string' } } },
        },
      },
    }),
    (c) => {
      c.header('Upgrade', 'websocket');
      throw new AppError('UPGRADE_REQUIRED');
    },
  );
  return r;
}
