// `GET /api/v1/ws/notifications?token=...` (docs/contract.md#authentication-tenants-and-permissions): the token is checked at the upgrade,
// before any WebSocket exists; a refused upgrade gets a plain HTTP answer and a closed socket.
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { ServerType } from '@hono/node-server';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { AppError, ErrorCodes } from '../errors.js';
import { safeUrl, type Logger } from '../observability/logger.js';
import type { Orm } from '../db/orm.js';
import { loadPrincipal } from '../directory/auth.js';
import { Notifier, parseAfterId } from './notifier.js';
import type { TokenService } from '../infra/tokens.js';
import { toAppError } from '../http/errors.js';
import { trackSocket } from '../observability/metrics.js';

export const NOTIFICATION_SOCKET_PATH = '/api/v1/ws/notifications';

export interface NotificationSocketDeps {
  databaseUrl: string;
  orm: Orm;
  tokens: TokenService;
  logger: Logger;
  heartbeatMs?: number;
}

/** Starts the notifier and serves the WebSocket endpoint on the HTTP server; `stop` undoes both. */
export async function startNotificationSocket(httpServer: ServerType, deps: NotificationSocketDeps) {
  const server = httpServer as Server;
  const notifier = new Notifier({
    databaseUrl: deps.databaseUrl,
    orm: deps.orm,
    logger: deps.logger,
    heartbeatMs: deps.heartbeatMs,
    // The same rule as every request (principal cache, PRINCIPAL_TTL_MS): a deactivated user stops receiving.
    stillAuthorised: async (who) => {
      try {
        await loadPrincipal(() => deps.orm.em.fork(), who.tenantId, who.userId);
        return true;
      } catch (err) {
        if (err instanceof AppError && err.type === 'INVALID_TOKEN') return false;
        throw err;
      }
    },
  });
  await notifier.start();
  // Clients only send small control messages.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: 16 * 1024,
    perMessageDeflate: false,
    clientTracking: false,
  });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => void upgrade(req, socket, head);

  async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
    socket.on('error', () => undefined);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const logged = safeUrl(req.url ?? '/');
    if (url.pathname !== NOTIFICATION_SOCKET_PATH)
      return refuse(socket, new AppError('ROUTE_NOT_FOUND', `No WebSocket endpoint at ${url.pathname}`));
    if (req.method !== 'GET' || req.headers.upgrade?.toLowerCase() !== 'websocket')
      return refuse(socket, new AppError('BAD_REQUEST', 'Expected a WebSocket upgrade'));
    let who: { tenantId: string; userId: string };
    let expiresAt: number;
    try {
      const token = url.searchParams.get('token') ?? req.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
      if (!token) throw new AppError('UNAUTHENTICATED', 'Pass the access token as ?token=');
      const claims = await deps.tokens.verify(token);
      const principal = await loadPrincipal(() => deps.orm.em.fork(), claims.tid, claims.sub);
      who = { tenantId: principal.tenantId, userId: principal.userId };
      expiresAt = claims.exp * 1000;
    } catch (err) {
      const refusal = toAppError(err);
      if (!refusal) deps.logger.error({ err, url: logged }, 'websocket upgrade failed');
      else deps.logger.info({ url: logged, status: refusal.status }, 'websocket upgrade refused');
      return refuse(socket, refusal ?? new AppError('INTERNAL'));
    }
    const afterParam = url.searchParams.get('afterId');
    const afterId = afterParam === null ? null : parseAfterId(afterParam);
    if (afterParam !== null && afterId === null)
      return refuse(socket, new AppError('VALIDATION_FAILED', 'afterId: 0 or a notification id'));
    if (socket.destroyed) return;
    wss.handleUpgrade(req, socket, head, (ws) => {
      deps.logger.debug({ url: logged, tenantId: who.tenantId, userId: who.userId }, 'websocket connected');
      trackSocket(ws);
      notifier.accept(ws, who, { afterId, expiresAt });
    });
  }

  server.on('upgrade', onUpgrade);
  return {
    notifier,
    async stop() {
      server.off('upgrade', onUpgrade);
      await notifier.stop();
      wss.close();
    },
  };
}

/** Answers a refused upgrade with the envelope and closes the socket; no WebSocket is created. */
function refuse(socket: Duplex, err: AppError) {
  if (socket.destroyed) return;
  const body = JSON.stringify({ code: err.code, data: null, message: err.message });
  const status = err.status in STATUS_CODES ? err.status : ErrorCodes.INTERNAL.status;
  socket.once('finish', () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
