// The user's notifications (GET /api/v1/notifications, docs/notifications.md): the newest few, and
// marking them all read.
import { api, call } from '../../lib/api';

export const loadNotifications = () =>
  call(api.GET('/api/v1/notifications', { params: { query: { page: 1, pageSize: 10 } } }));

export const markAllRead = () => call(api.POST('/api/v1/notifications/read-all', { body: {} }));
