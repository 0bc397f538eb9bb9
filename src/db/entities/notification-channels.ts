import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamps } from './columns.js';

export const ChannelKinds = ['email', 'slack', 'teams', 'feishu', 'dingtalk', 'wecom', 'webhook'] as const;
export type ChannelKind = (typeof ChannelKinds)[number];

/** One notification channel of a tenant (docs/channels.md). */
export const NotificationChannel = defineEntity({
  name: 'NotificationChannel',
  tableName: 'notification_channels',
  properties: {
    id: p.string().primary(),
    tenantId: p.string(),
    name: p.string(),
    kind: p.string().$type<ChannelKind>(),
    enabled: p.boolean().default(true),
    /** The notification kinds it sends. */
    kinds: p.json<string[]>(),
    /** What may be shown: host, port, from, a webhook's URL. */
    settings: p.json<Record<string, unknown>>(),
    /** Passwords, signing secrets and the URLs that are credentials: written by the API, read by the dispatcher, never answered. */
    secrets: p.json<Record<string, string>>().lazy(),
    createdBy: p.string().nullable(),
    updatedBy: p.string().nullable(),
    ...timestamps(),
  },
});

export type INotificationChannel = InferEntity<typeof NotificationChannel>;
