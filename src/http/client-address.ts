import type { Context } from 'hono';

/**
 * The client's address for rate limiting. X-Forwarded-For is written by whoever sends the
 * request, so it counts only behind `hops` trusted proxies: each appends the address it saw,
 * and the Nth entry from the right is the one our outermost proxy received the request from.
 * With no trusted proxy (the default) the socket's peer address is the client.
 */
export function clientAddress(c: Context, hops: number): string {
  const socket: string = (c.env as any)?.incoming?.socket?.remoteAddress ?? 'local';
  if (hops <= 0) return socket;
  const forwarded = (c.req.header('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!forwarded.length) return socket;
  // Fewer entries than hops: every entry was written by a trusted proxy, the leftmost is the client.
  return forwarded[Math.max(0, forwarded.length - hops)];
}
