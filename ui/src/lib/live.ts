// The notification channel (docs/notifications.md): one WebSocket per logged-in tab, resumed
// from the last id seen after a reconnect, so nothing is missed while offline. Pages subscribe
// to `events`; `connected` drives the "live" indicator.
import { session } from './session';
import { Store } from './store';

export interface Notification {
  id: string;
  kind: string;
  instanceId: string | null;
  taskId: string | null;
  payload: Record<string, unknown>;
  createdAt: string;
}

export const connected = new Store(false);
export const unread = new Store(0);
const listeners = new Set<(n: Notification) => void>();

export function onNotification(l: (n: Notification) => void) {
  listeners.add(l);
  return () => void listeners.delete(l);
}

let socket: WebSocket | null = null;
let lastId: string | null = null;
let retry = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let ping: ReturnType<typeof setInterval> | undefined;

function connect() {
  const s = session.get();
  if (!s || socket || session.ended) return;
  const proto = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const params = new URLSearchParams({ token: s.token });
  if (lastId) params.set('afterId', lastId);
  const ws = new WebSocket(`${proto}://${window.location.host}/api/v1/ws/notifications?${params}`);
  socket = ws;
  ws.onmessage = (ev) => {
    // A socket this page has let go of (or of a session that ended) delivers nothing more.
    if (socket !== ws || !session.owns(s.token)) return;
    let msg: any;
    try {
      msg = JSON.parse(String(ev.data));
    } catch {
      return;
    }
    if (msg.type === 'ready') {
      retry = 0;
      connected.set(true);
      unread.set(msg.unread ?? 0);
      if (!lastId) lastId = msg.lastId ?? null;
    } else if (msg.type === 'notification') {
      const n = msg.notification as Notification;
      lastId = n.id;
      if (!n.createdAt || !('readAt' in n) || !(n as any).readAt) unread.set(unread.get() + 1);
      for (const l of listeners) l(n);
    }
  };
  ws.onclose = (ev) => {
    if (socket === ws) socket = null;
    connected.set(false);
    clearInterval(ping);
    // 4401: the server ended the socket's authorisation (token expired, user deactivated).
    if (ev.code === 4401 && session.owns(s.token)) return session.expire();
    if (!session.owns(s.token)) return;
    const delay = Math.min(15_000, 500 * 2 ** retry++) * (0.5 + Math.random() / 2);
    timer = setTimeout(connect, delay);
  };
  ws.onopen = () => {
    clearInterval(ping);
    ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'ping' })), 25_000);
  };
}

function disconnect() {
  clearTimeout(timer);
  clearInterval(ping);
  const ws = socket;
  socket = null;
  lastId = null;
  ws?.close();
  connected.set(false);
}

session.subscribe((s) => (s ? connect() : disconnect()));
export function startLive() {
  if (session.get()) connect();
}
