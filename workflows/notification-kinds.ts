// The catalogue of notification kinds (docs/notifications.md). The engine emits only these; the
// WebSocket pushes every one of them, and the channels (docs/channels.md) send the kinds they
// have a message for. Pure: imported by the workflows and by the server.

export const NOTIFICATION_KINDS = [
  'task_assigned',
  'task_claimable',
  'task_unavailable',
  'task_overdue',
  'task_returned',
  'task_removed',
  'task_recalled',
  'task_decided_on_behalf',
  'task_resolved',
  'task_added_after',
  'task_reassigned',
  'task_decided_by_link',
  'work_handed_over',
  'task_suspended',
  'task_activated',
  'instance_suspended',
  'instance_activated',
  'instance_withdrawn',
  'instance_ended',
  'urge',
  'cc',
] as const;

export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const isNotificationKind = (value: unknown): value is NotificationKind =>
  typeof value === 'string' && (NOTIFICATION_KINDS as readonly string[]).includes(value);
