// The tenant's notification set-up (docs/channels.md), for `workflow:admin`: channels
// (/api/v1/notification-channels), message templates (/api/v1/notification-templates) and the
// delivery log (/api/v1/notification-deliveries).
import { api, call, type Schemas } from '../../lib/api';

export type Channel = Schemas['NotificationChannel'];
export type ChannelType = Channel['kind'];
export type ChannelBody = Schemas['NotificationChannelBody'];
export type ChannelReplaceBody = Schemas['NotificationChannelReplaceBody'];
export type TestResult = Schemas['ChannelTestResult'];
export type Delivery = Schemas['NotificationDelivery'];
export type Template = Schemas['NotificationTemplate'];
export type TemplateParts = Schemas['NotificationTemplateParts'];
export type Preview = Schemas['NotificationTemplatePreview'];
export type MessageKind = NonNullable<Schemas['EmailChannelBody']['kinds']>[number];
export type PartName = keyof Schemas['NotificationTemplateFullParts'];
export type MessageLocale = Template['locale'];

/** Every kind a channel sends, in the API's order: the compiler refuses a list that misses one. */
const KINDS = {
  task_assigned: 1,
  task_claimable: 1,
  urge: 1,
  task_overdue: 1,
  cc: 1,
  task_returned: 1,
  task_decided_on_behalf: 1,
  task_reassigned: 1,
  instance_withdrawn: 1,
  instance_ended: 1,
} satisfies Record<MessageKind, 1>;
export const MESSAGE_KINDS = Object.keys(KINDS) as MessageKind[];

export const CHANNEL_TYPES: ChannelType[] = ['email', 'slack', 'teams', 'feishu', 'dingtalk', 'wecom', 'webhook'];
export const MESSAGE_LOCALES: MessageLocale[] = ['en', 'zh-CN'];
/** The parts of a template, in the order they are rendered and shown. */
export const PARTS: PartName[] = ['title', 'intro', 'facts', 'actions', 'subject', 'text', 'html'];
export const DELIVERY_STATUSES: Delivery['status'][] = ['pending', 'sending', 'sent', 'failed', 'skipped'];

export const listChannels = () =>
  call(api.GET('/api/v1/notification-channels', { params: { query: { pageSize: 200 } } }));

export const createChannel = (body: ChannelBody) => call(api.POST('/api/v1/notification-channels', { body }));

export const replaceChannel = (id: string, body: ChannelReplaceBody) =>
  call(api.PUT('/api/v1/notification-channels/{id}', { params: { path: { id } }, body }));

export const deleteChannel = (id: string) =>
  call(api.DELETE('/api/v1/notification-channels/{id}', { params: { path: { id } } }));

export const testChannel = (id: string, to: string | undefined) =>
  call(
    api.POST('/api/v1/notification-channels/{id}/test', {
      params: { path: { id } },
      body: to ? { to } : {},
    }),
  );

export const loadTemplate = (kind: MessageKind, locale: MessageLocale) =>
  call(api.GET('/api/v1/notification-templates/{kind}/{locale}', { params: { path: { kind, locale } } }));

export const saveTemplate = (kind: MessageKind, locale: MessageLocale, body: TemplateParts) =>
  call(api.PUT('/api/v1/notification-templates/{kind}/{locale}', { params: { path: { kind, locale } }, body }));

export const resetTemplate = (kind: MessageKind, locale: MessageLocale) =>
  call(api.DELETE('/api/v1/notification-templates/{kind}/{locale}', { params: { path: { kind, locale } } }));

export const previewTemplate = (
  kind: MessageKind,
  locale: MessageLocale,
  body: { instanceId?: string; parts?: TemplateParts },
) =>
  call(
    api.POST('/api/v1/notification-templates/{kind}/{locale}/preview', { params: { path: { kind, locale } }, body }),
  );

/** The newest requests of the tenant: what a preview can be rendered for. */
export const recentInstances = () =>
  call(api.GET('/api/v1/workflow/process-instances', { params: { query: { pageSize: 20 } } }));

export interface DeliveryFilter {
  status: string;
  channelId: string;
  kind: string;
  userId: string;
}

export const listDeliveries = (filter: DeliveryFilter, page: number, pageSize: number) =>
  call(
    api.GET('/api/v1/notification-deliveries', {
      params: {
        query: {
          page,
          pageSize,
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.channelId ? { channelId: filter.channelId } : {}),
          ...(filter.kind ? { kind: filter.kind } : {}),
          ...(filter.userId.trim() ? { userId: filter.userId.trim() } : {}),
        },
      },
    }),
  );
