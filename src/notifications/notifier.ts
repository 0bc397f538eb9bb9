// Pushes the notification outbox to connected WebSocket clients (docs/notifications.md): every server
// replica LISTENs on `notifications`, loads the row a NOTIFY names and sends it to that user's
// sockets on this replica. Nothing lives only in memory: a client that was away resumes from the
// last id it saw, and after a lost LISTEN connection every socket catches up from the table.
import { WebSocket, type RawData } from 'ws';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../observability/logger.js';
import { PgListener } from '../infra/pg-listener.js';
import {
  findNotification,
  notificationMark,
  notificationsAfter,
  type NotificationView,
  type Recipient,
} from './inbox.js';

export const NOTIFICATION_CHANNEL = 'notifications';
const REPLAY_BATCH = 200;
const SENT_MEMORY = 2_000;
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** The messages a client receives. */
export type ServerMessage =
  | { type: 'ready'; userId: string; lastId: string; unread: number }
  | { type: 'notification'; notification: NotificationView }
  | { type: 'resumed'; afterId: string; count: number; lastId: string }
  | { type: 'pong' }
  | { type: 'error'; message: string };

/** A resume point: 0 or a positive bigserial id (as a string or a safe integer). */
export function parseAfterId(value: unknown): string | null {
  const s = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
  return typeof s === 'string' && /^(0|[1-9][0-9]{0,17})$/.test(s) ? s : null;
}

interface Session {
  ws: WebSocket;
  who: Recipient;
  /** The token's expiry (ms since the epoch): nothing is delivered after it. */
  expiresAt: number;
  alive: boolean;
  /** The highest id delivered (or known on connect); a catch-up starts after it. */
  highWater: bigint;
  /** Ids already sent, so a replay and a live push never deliver one twice. */
  sent: Set<string>;
  /** Every send goes through this chain, so messages keep their order. */
  queue: Promise<void>;
  resuming: boolean;
}

export interface NotifierOptions {
  databaseUrl: string;
  orm: Orm;
  logger: Logger;
  heartbeatMs?: number;
  /**
   * Whether the socket's user may still receive (active, known): asked before every delivery
   * and at every heartbeat, so a deactivated user's socket is closed within the principal
   * cache's bound. Absent: only the token's expiry is checked.
   */
  stillAuthorised?: (who: Recipient) => Promise<boolean>;
}

/** Close code for a socket whose authorisation ended (token expired, user deactivated): do not reconnect with the same token. */
export const CLOSE_UNAUTHORISED = 4401;

export class Notifier {
  private readonly sessions = new Map<string, Set<Session>>();
  private readonly listener: PgListener;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(private readonly opts: NotifierOptions) {
    this.listener = new PgListener({
      databaseUrl: opts.databaseUrl,
      channel: NOTIFICATION_CHANNEL,
      logger: opts.logger,
      onPayload: (payload) => this.onNotify(payload),
      onListening: (reconnected) => {
        if (reconnected) this.catchUpAll();
      },
    });
  }

  /** Number of open sockets on this replica. */
  get connections(): number {
    let n = 0;
    for (const set of this.sessions.values()) n += set.size;
    return n;
  }

  get listening(): boolean {
    return this.listener.listening;
  }

  async start(): Promise<void> {
    await this.listener.start();
    this.heartbeat = setInterval(() => this.beat(), this.opts.heartbeatMs ?? 30_000);
    this.heartbeat.unref();
  }

  /** Closes every socket (1001, going away) and the LISTEN connection. */
  async stop(): Promise<void> {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    await this.listener.stop();
    const all = [...this.sessions.values()].flatMap((set) => [...set]);
    await Promise.all(
      all.map(
        ({ ws }) =>
          new Promise<void>((resolve) => {
            if (ws.readyState === WebSocket.CLOSED) return resolve();
            const kill = setTimeout(() => ws.terminate(), 1_000);
            ws.once('close', () => {
              clearTimeout(kill);
              resolve();
            });
            ws.close(1001, 'server shutting down');
          }),
      ),
    );
    this.sessions.clear();
  }

  /** Takes over an authenticated socket: says `ready`, then resumes from `afterId` if given. */
  accept(ws: WebSocket, who: Recipient, opts: { afterId?: string | null; expiresAt?: number } = {}): void {
    const session: Session = {
      ws,
      who,
      expiresAt: opts.expiresAt ?? Number.POSITIVE_INFINITY,
      alive: true,
      highWater: 0n,
      sent: new Set(),
      queue: Promise.resolve(),
      resuming: false,
    };
    const key = keyOf(who);
    let set = this.sessions.get(key);
    if (!set) this.sessions.set(key, (set = new Set()));
    set.add(session);

    ws.on('pong', () => (session.alive = true));
    ws.on('message', (data, isBinary) => this.onMessage(session, data, isBinary));
    ws.on('error', (err) => this.opts.logger.debug({ err: err.message, userId: who.userId }, 'websocket error'));
    ws.on('close', () => {
      const s = this.sessions.get(key);
      s?.delete(session);
      if (s && !s.size) this.sessions.delete(key);
    });

    this.enqueue(session, async () => {
      try {
        const mark = await notificationMark(this.opts.orm.em.fork(), who);
        if (BigInt(mark.lastId) > session.highWater) session.highWater = BigInt(mark.lastId);
        await this.send(session, { type: 'ready', userId: who.userId, lastId: mark.lastId, unread: mark.unread });
      } catch (err) {
        // Without its starting point the session cannot promise anything: let the client retry.
        ws.close(1011, 'notifications unavailable, try again');
        throw err;
      }
    });
    if (opts.afterId) this.resume(session, opts.afterId);
  }

  private onMessage(session: Session, data: RawData, isBinary: boolean) {
    let msg: any;
    try {
      msg = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      /* answered below */
    }
    if (!msg || typeof msg !== 'object')
      return void this.send(session, { type: 'error', message: 'Send JSON text messages' });
    if (msg.type === 'ping') return void this.send(session, { type: 'pong' });
    if (msg.type === 'resume') {
      const afterId = parseAfterId(msg.afterId);
      if (afterId === null)
        return void this.send(session, { type: 'error', message: 'resume needs afterId: 0 or a notification id' });
      if (session.resuming)
        return void this.send(session, { type: 'error', message: 'A resume is already in progress' });
      return this.resume(session, afterId);
    }
    void this.send(session, { type: 'error', message: `Unknown message type; send "resume" or "ping"` });
  }

  /** Replays the stored notifications after `afterId`, oldest first, then says `resumed`. */
  private resume(session: Session, afterId: string) {
    session.resuming = true;
    this.enqueue(session, async () => {
      try {
        const { count, lastId } = await this.replay(session, afterId);
        await this.send(session, { type: 'resumed', afterId, count, lastId });
      } finally {
        session.resuming = false;
      }
    });
  }

  private async replay(session: Session, afterId: string): Promise<{ count: number; lastId: string }> {
    let cursor = afterId;
    let count = 0;
    for (;;) {
      if (session.ws.readyState !== WebSocket.OPEN) break;
      const rows = await notificationsAfter(this.opts.orm.em.fork(), session.who, cursor, REPLAY_BATCH);
      for (const n of rows) if (await this.deliver(session, n)) count++;
      if (rows.length < REPLAY_BATCH) break;
      cursor = rows[rows.length - 1].id;
    }
    const lastId = session.highWater > BigInt(afterId) ? session.highWater : BigInt(afterId);
    return { count, lastId: String(lastId) };
  }

  /** A NOTIFY payload `{ id, tenantId, userId }`: push the row to that user's sockets here. */
  private onNotify(payload: string) {
    let msg: { id?: unknown; tenantId?: unknown; userId?: unknown };
    try {
      msg = JSON.parse(payload);
    } catch {
      return;
    }
    const id = parseAfterId(msg.id);
    if (!id || typeof msg.tenantId !== 'string' || typeof msg.userId !== 'string') return;
    const who = { tenantId: msg.tenantId, userId: msg.userId };
    const set = this.sessions.get(keyOf(who));
    if (!set?.size) return;
    // One load per notification, shared by the user's sockets; the queues keep the order.
    const row = findNotification(this.opts.orm.em.fork(), who, id);
    row.catch(() => undefined);
    for (const session of set) {
      this.enqueue(session, async () => {
        const n = await row;
        if (n) await this.deliver(session, n);
      });
    }
  }

  /** After the LISTEN connection came back, NOTIFYs may have been missed: read them from the table. */
  private catchUpAll() {
    for (const set of this.sessions.values()) {
      for (const session of set)
        this.enqueue(session, async () => void (await this.replay(session, String(session.highWater))));
    }
  }

  private beat() {
    void this.listener.check();
    for (const set of this.sessions.values()) {
      for (const session of set) {
        this.enqueue(session, async () => void (await this.authorised(session)));
        if (!session.alive) {
          session.ws.terminate();
          continue;
        }
        session.alive = false;
        try {
          session.ws.ping();
        } catch {
          session.ws.terminate();
        }
      }
    }
  }

  /** False (and the socket closed with 4401) once the token expired or the user may no longer receive. */
  private async authorised(session: Session): Promise<boolean> {
    if (session.ws.readyState !== WebSocket.OPEN) return false;
    let reason: string | null = Date.now() >= session.expiresAt ? 'token expired' : null;
    if (!reason && this.opts.stillAuthorised && !(await this.opts.stillAuthorised(session.who)))
      reason = 'user no longer active';
    if (!reason) return true;
    session.ws.close(CLOSE_UNAUTHORISED, reason);
    return false;
  }

  private async deliver(session: Session, n: NotificationView): Promise<boolean> {
    if (session.sent.has(n.id)) return false;
    if (!(await this.authorised(session))) return false;
    if (!(await this.send(session, { type: 'notification', notification: n }))) return false;
    session.sent.add(n.id);
    if (session.sent.size > SENT_MEMORY) session.sent.delete(session.sent.values().next().value!);
    const id = BigInt(n.id);
    if (id > session.highWater) session.highWater = id;
    return true;
  }

  /** Sends one message; resolves false when the socket is gone. */
  private send(session: Session, msg: ServerMessage): Promise<boolean> {
    const { ws } = session;
    if (ws.readyState !== WebSocket.OPEN) return Promise.resolve(false);
    // A client that stops reading is dropped; it resumes from its last id when it comes back.
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return Promise.resolve(false);
    }
    return new Promise((resolve) => ws.send(JSON.stringify(msg), (err) => resolve(!err)));
  }

  private enqueue(session: Session, task: () => Promise<void>) {
    session.queue = session.queue.then(task).catch((err) => {
      this.opts.logger.warn(
        { err: (err as Error).message, userId: session.who.userId },
        'notification delivery failed',
      );
    });
  }
}

// JSON keeps `tenant:user` unambiguous whatever characters the ids hold.
const keyOf = (who: Recipient) => JSON.stringify([who.tenantId, who.userId]);
