// `/api/v1/notifications`: the REST side of the in-app notifications (our extension), and the
// documentation of the WebSocket `/api/v1/ws/notifications`, whose upgrade is served by
// ../notification-socket.ts on the HTTP server itself.
import * as notifications from '../../services/notifications.js';
import { AppError } from '../../errors.js';
import type { Router } from '../context.js';
import { json, ok, optionalBody, page } from '../envelope.js';
import { em } from '../middleware/auth.js';
import { createRouter, defineRoute } from '../router.js';
import * as s from './notifications.schemas.js';

const tags = ['notifications'];

export function notificationRoutes(): Router {
  const r = createRouter();
  r.openapi(
    defineRoute({
      method: 'get',
      path: '/',
      tags,
      summary: "The caller's notifications, newest first",
      request: { query: s.NotificationQuery },
      responses: { 200: json(page(s.Notification)) },
    }),
    async (c) => {
      const q = c.req.valid('query');
      return c.json(
        ok(await notifications.listNotifications(em(c), c.get('principal'), { ...q, unread: q.unread === 'true' })),
        200,
      );
    },
  );
  // Registered before /{id}/read.
  r.openapi(
    defineRoute({
      method: 'post',
      path: '/read-all',
      tags,
      summary: "Mark all the caller's notifications read",
      request: { body: optionalBody(s.NoBody) },
      responses: { 200: json(s.ReadAllResult) },
    }),
    async (c) => c.json(ok(await notifications.markAllRead(em(c), c.get('principal'))), 200),
  );
  r.openapi(
    defineRoute({
      method: 'post',
      path: '/{id}/read',
      tags,
      summary: 'Mark one notification read (a repeat keeps the first read time)',
      request: { params: s.NotificationIdParam, body: optionalBody(s.NoBody) },
      responses: { 200: json(s.Notification) },
    }),
    async (c) => c.json(ok(await notifications.markRead(em(c), c.get('principal'), c.req.valid('param').id)), 200),
  );
  return r;
}

/** Documents the WebSocket in OpenAPI; a plain GET without the upgrade gets a 400 that says so. */
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
      responses: { 101: { description: 'Switching Protocols: the WebSocket is open' } },
    }),
    () => {
      throw new AppError('BAD_REQUEST', 'This endpoint speaks WebSocket: send a GET with Upgrade: websocket');
    },
  );
  return r;
}
