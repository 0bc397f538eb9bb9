// The caller's in-app notifications: the outbox rows the projection appends (docs/notifications.md).
// Read here by the REST endpoints and by the WebSocket notifier (live push and resume).
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import type { Page, PageOpts } from '../paging.js';
import { Where, paged } from '../read-model/read-model.js';

export interface Recipient {
  tenantId: string;
  userId: string;
}

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

export function notificationView(r: any) {
  return {
    id: String(r.id),
    kind: r.kind as string,
    instanceId: (r.instance_id as string | null) ?? null,
    taskId: (r.task_id as string | null) ?? null,
    payload: (r.payload ?? {}) as Record<string, unknown>,
    createdAt: iso(r.created_at)!,
    readAt: iso(r.read_at),
  };
}

export type NotificationView = ReturnType<typeof notificationView>;

/** Notification ids are bigserials: anything else names no notification. */
export const isNotificationId = (id: string) => /^[1-9][0-9]{0,17}$/.test(id);

export interface NotificationQuery extends PageOpts {
  unread?: boolean;
  kind?: string;
}

/** The caller's notifications, newest first. */
export async function listNotifications(
  em: EntityManager,
  who: Recipient,
  q: NotificationQuery,
): Promise<Page<NotificationView>> {
  const where = new Where().add('x.tenant_id = ?', who.tenantId).add('x.user_id = ?', who.userId);
  if (q.unread) where.add('x.read_at is null');
  if (q.kind) where.add('x.kind = ?', q.kind);
  return paged(em, 'notifications', where, 'x.id desc', q, notificationView);
}

/** Marks one of the caller's notifications read (a repeat keeps the first read time); 404 for anyone else's. */
export async function markRead(em: EntityManager, who: Recipient, id: string): Promise<NotificationView> {
  if (!isNotificationId(id)) throw new AppError('NOT_FOUND', `No notification ${id}`);
  const rows = await em.execute(
    `update notifications set read_at = coalesce(read_at, now()) where id = ? and tenant_id = ? and user_id = ? returning *`,
    [id, who.tenantId, who.userId],
  );
  if (!rows[0]) throw new AppError('NOT_FOUND', `No notification ${id}`);
  return notificationView(rows[0]);
}

/** Marks every unread notification of the caller read; answers how many changed. */
export async function markAllRead(em: EntityManager, who: Recipient): Promise<{ updated: number }> {
  const rows = await em.execute<Array<{ id: string }>>(
    `update notifications set read_at = now() where tenant_id = ? and user_id = ? and read_at is null returning id`,
    [who.tenantId, who.userId],
  );
  return { updated: rows.length };
}

/** One notification, only if it belongs to the recipient (the NOTIFY payload is not trusted blindly). */
export async function findNotification(
  em: EntityManager,
  who: Recipient,
  id: string,
): Promise<NotificationView | null> {
  if (!isNotificationId(id)) return null;
  const rows = await em.execute(`select * from notifications where id = ? and tenant_id = ? and user_id = ?`, [
    id,
    who.tenantId,
    who.userId,
  ]);
  return rows[0] ? notificationView(rows[0]) : null;
}

/** The recipient's notifications with id > afterId, oldest first, at most `limit` (resume after being offline). */
export async function notificationsAfter(
  em: EntityManager,
  who: Recipient,
  afterId: string,
  limit: number,
): Promise<NotificationView[]> {
  const rows = await em.execute(
    `select * from notifications where tenant_id = ? and user_id = ? and id > ? order by id limit ?`,
    [who.tenantId, who.userId, afterId, limit],
  );
  return rows.map(notificationView);
}

/** Where the recipient stands on connect: the newest id (a resume point) and the unread count. */
export async function notificationMark(em: EntityManager, who: Recipient): Promise<{ lastId: string; unread: number }> {
  const [row] = await em.execute<Array<{ last_id: string | null; unread: string }>>(
    `select max(id) as last_id, count(*) filter (where read_at is null) as unread from notifications where tenant_id = ? and user_id = ?`,
    [who.tenantId, who.userId],
  );
  return { lastId: String(row?.last_id ?? '0'), unread: Number(row?.unread ?? 0) };
}
