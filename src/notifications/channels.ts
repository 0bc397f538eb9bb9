// A tenant's notification channels (docs/channels.md): create, read, replace, delete; each user's
// address on a channel; a test message; the delivery log. Secrets (an SMTP password, a signing
// secret, a chat webhook's URL, which is its credential) are write-only: stored, never answered.
// A webhook channel's URL is shown, with the values of secret query parameters as `***`
// (docs/http.md "Credentials in URLs").
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { allowedAddresses, RequestRefused } from '../infra/outbound/guard.js';
import type { Config } from '../config.js';
import { NotificationChannel, type ChannelKind, type INotificationChannel } from '../db/entities/index.js';
import { AppError } from '../errors.js';
import type { Page, PageOpts } from '../paging.js';
import { flushUnique, requireRow } from '../db/row-lookup.js';
import { paged, Where } from '../read-model/read-model.js';
import { adapters, PermanentFailure, TransientFailure, type ChannelConfig } from './adapters/index.js';
import { messageIdOf } from './dispatcher.js';
import { CHANNEL_KINDS, type Message } from './messages/index.js';
import { withBodies } from './templates/render.js';
import { CHAT_ID_PATTERN, EMAIL_PATTERN, redactUrl, storedUrl } from '../shapes.js';

/** Settings that are secrets, per kind: stored in `secrets`, never answered. */
const SECRET_FIELDS: Record<ChannelKind, string[]> = {
  email: ['password'],
  slack: ['url'],
  teams: ['url'],
  wecom: ['url'],
  feishu: ['url', 'secret'],
  dingtalk: ['url', 'secret'],
  webhook: ['secret'],
};
/** Secrets a channel cannot work without (required on create; a replace without them keeps the stored ones). */
const REQUIRED_SECRETS: Record<ChannelKind, string[]> = {
  email: [],
  slack: ['url'],
  teams: ['url'],
  wecom: ['url'],
  feishu: ['url'],
  dingtalk: ['url'],
  webhook: ['secret'],
};

export interface ChannelInput {
  name: string;
  kind: ChannelKind;
  enabled?: boolean;
  kinds?: string[];
  settings: Record<string, unknown>;
}

/** `https://hooks.slack.com/…`: enough to recognise a credential URL without showing it. */
const hintOf = (url: string | undefined) => {
  if (!url) return null;
  try {
    return `${new URL(url).origin}/…`;
  } catch {
    return null;
  }
};

export function channelView(row: INotificationChannel, secrets: Record<string, string>) {
  const settings: Record<string, unknown> = { ...row.settings };
  if (SECRET_FIELDS[row.kind].includes('url')) settings.urlHint = hintOf(secrets.url);
  else if (typeof settings.url === 'string') settings.url = redactUrl(settings.url);
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    enabled: row.enabled,
    kinds: row.kinds,
    settings,
    secretsSet: SECRET_FIELDS[row.kind].filter((f) => Boolean(secrets[f])),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
export type ChannelView = ReturnType<typeof channelView>;

async function loadChannel(em: EntityManager, tenantId: string, id: string) {
  const row = await requireRow(em, NotificationChannel, { tenantId, id }, `notification channel ${id}`);
  await em.populate(row, ['secrets'] as never);
  return row;
}

export async function listChannels(em: EntityManager, tenantId: string, opts: PageOpts): Promise<Page<ChannelView>> {
  const [rows, total] = await em.findAndCount(
    NotificationChannel,
    { tenantId },
    {
      orderBy: { name: 'asc' },
      limit: opts.pageSize,
      offset: (opts.page - 1) * opts.pageSize,
      populate: ['secrets'] as never,
    },
  );
  return { items: rows.map((r) => channelView(r, r.secrets ?? {})), total, page: opts.page, pageSize: opts.pageSize };
}

export async function getChannel(em: EntityManager, tenantId: string, id: string): Promise<ChannelView> {
  const row = await loadChannel(em, tenantId, id);
  return channelView(row, row.secrets ?? {});
}

/** The host a channel connects to, checked now against the outbound network rules: a refused or unknown host is 400. */
async function checkHost(config: Config, input: ChannelInput, secrets: Record<string, string>) {
  const field = input.kind === 'email' ? 'settings.host' : 'settings.url';
  let host: string;
  if (input.kind === 'email') host = String(input.settings.host);
  else {
    const url = String(input.kind === 'webhook' ? input.settings.url : secrets.url);
    host = new URL(url).hostname;
  }
  try {
    // A name server that does not answer must not hold the request: 5 s, then it counts as unresolved.
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('lookup timed out'), { code: 'ETIMEOUT' })), 5_000);
    });
    await Promise.race([allowedAddresses(config, host), timeout]).finally(() => clearTimeout(timer));
  } catch (err) {
    const message =
      err instanceof RequestRefused ? err.message : `${host} does not resolve (${(err as NodeJS.ErrnoException).code})`;
    throw new AppError('CHANNEL_REFUSED', `${field}: ${message}`, { fields: [{ path: field, message }] });
  }
}

/**
 * A shown `url` (a webhook channel's) as stored: the stored one when the answered one (credentials
 * as `***`) is sent back (`storedUrl`). A chat channel's URL is a secret: nothing to do.
 */
function withStoredUrl(input: ChannelInput, stored: unknown): ChannelInput {
  const url = input.settings.url;
  if (SECRET_FIELDS[input.kind].includes('url') || typeof url !== 'string') return input;
  const kept = storedUrl('settings.url', url, typeof stored === 'string' ? stored : null);
  return kept === url ? input : { ...input, settings: { ...input.settings, url: kept } };
}

/** Splits the settings into what is shown and what is secret; secrets not sent keep `kept`. */
function columnsOf(input: ChannelInput, kept: Record<string, string>) {
  const settings: Record<string, unknown> = {};
  const secrets: Record<string, string> = { ...kept };
  for (const [k, v] of Object.entries(input.settings)) {
    if (v === undefined) continue;
    if (SECRET_FIELDS[input.kind].includes(k)) {
      if (v === null || v === '') delete secrets[k];
      else secrets[k] = String(v);
    } else settings[k] = v;
  }
  const missing = REQUIRED_SECRETS[input.kind].filter((f) => !secrets[f]);
  if (missing.length)
    throw new AppError('VALIDATION_FAILED', `settings.${missing[0]}: required for a ${input.kind} channel`, {
      fields: missing.map((f) => ({ path: `settings.${f}`, message: `required for a ${input.kind} channel` })),
    });
  return {
    name: input.name,
    enabled: input.enabled ?? true,
    kinds: [...new Set(input.kinds ?? CHANNEL_KINDS)],
    settings,
    secrets,
  };
}

export async function createChannel(
  em: EntityManager,
  config: Config,
  tenantId: string,
  userId: string,
  sent: ChannelInput,
): Promise<ChannelView> {
  const input = withStoredUrl(sent, null);
  const cols = columnsOf(input, {});
  await checkHost(config, input, cols.secrets);
  if (await em.count(NotificationChannel, { tenantId, name: input.name }))
    throw new AppError('ALREADY_EXISTS', `A notification channel ${input.name} already exists`);
  const row = em.create(NotificationChannel, {
    id: randomUUID(),
    tenantId,
    kind: input.kind,
    ...cols,
    createdBy: userId,
    updatedBy: userId,
  } as any) as INotificationChannel;
  await flushUnique(em, `A notification channel ${input.name} already exists`);
  return channelView(row, cols.secrets);
}

export async function updateChannel(
  em: EntityManager,
  config: Config,
  tenantId: string,
  userId: string,
  id: string,
  sent: ChannelInput,
): Promise<ChannelView> {
  const row = await loadChannel(em, tenantId, id);
  const input = row.kind === sent.kind ? withStoredUrl(sent, row.settings.url) : sent;
  if (row.kind !== input.kind)
    throw new AppError('CHANNEL_REFUSED', `kind: a ${row.kind} channel stays ${row.kind}; create another channel`, {
      fields: [{ path: 'kind', message: 'cannot change' }],
    });
  const cols = columnsOf(input, row.secrets ?? {});
  await checkHost(config, input, cols.secrets);
  if (input.name !== row.name && (await em.count(NotificationChannel, { tenantId, name: input.name })))
    throw new AppError('ALREADY_EXISTS', `A notification channel ${input.name} already exists`);
  em.assign(row, { ...cols, updatedBy: userId } as any);
  await flushUnique(em, `A notification channel ${input.name} already exists`);
  return channelView(row, cols.secrets);
}

/** Deletes the channel with its addresses and its deliveries (pending ones are not sent). */
export async function deleteChannel(em: EntityManager, tenantId: string, id: string): Promise<void> {
  const row = await requireRow(em, NotificationChannel, { tenantId, id }, `notification channel ${id}`);
  await em.remove(row).flush();
}

// ---------- addresses ----------

const EMAIL = new RegExp(EMAIL_PATTERN);
const CHAT_ID = new RegExp(CHAT_ID_PATTERN);

function addressView(r: any) {
  return {
    channelId: r.channel_id as string,
    userId: r.user_id as string,
    address: r.address as string,
    createdAt: new Date(r.created_at).toISOString(),
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}
export type AddressView = ReturnType<typeof addressView>;

export async function listAddresses(
  em: EntityManager,
  tenantId: string,
  channelId: string,
  opts: PageOpts,
): Promise<Page<AddressView>> {
  await requireRow(em, NotificationChannel, { tenantId, id: channelId }, `notification channel ${channelId}`);
  const where = new Where().add('x.tenant_id = ?', tenantId).add('x.channel_id = ?', channelId);
  return paged(em, 'notification_channel_addresses', where, 'x.user_id', opts, addressView);
}

/** A user's address on a channel: an e-mail address (overriding the directory's), or their id on the chat platform. */
export async function setAddress(
  em: EntityManager,
  tenantId: string,
  channelId: string,
  userId: string,
  address: string,
): Promise<AddressView> {
  const channel = await requireRow(
    em,
    NotificationChannel,
    { tenantId, id: channelId },
    `notification channel ${channelId}`,
  );
  const ok = channel.kind === 'email' ? EMAIL.test(address) : CHAT_ID.test(address);
  if (!ok) {
    const message =
      channel.kind === 'email'
        ? 'not an e-mail address'
        : 'a chat user id: letters, digits and _ . @ + : = - (at most 200)';
    throw new AppError('CHANNEL_REFUSED', `address: ${message}`, { fields: [{ path: 'address', message }] });
  }
  const [user] = await em.execute(`select id from users where tenant_id = ? and id = ?`, [tenantId, userId]);
  if (!user) throw new AppError('NOT_FOUND', `No user ${userId}`);
  const [row] = await em.execute(
    `insert into notification_channel_addresses (channel_id, tenant_id, user_id, address) values (?, ?, ?, ?)
     on conflict (channel_id, user_id) do update set address = excluded.address, updated_at = now() returning *`,
    [channelId, tenantId, userId, address],
  );
  return addressView(row);
}

export async function deleteAddress(em: EntityManager, tenantId: string, channelId: string, userId: string) {
  await requireRow(em, NotificationChannel, { tenantId, id: channelId }, `notification channel ${channelId}`);
  const rows = await em.execute(
    `delete from notification_channel_addresses where channel_id = ? and tenant_id = ? and user_id = ? returning user_id`,
    [channelId, tenantId, userId],
  );
  if (!rows.length) throw new AppError('NOT_FOUND', `No address of ${userId} on this channel`);
}

// ---------- test ----------

export interface TestInput {
  to?: string;
  userId?: string;
}

/** Sends a test message now and answers what the remote server said (a refusal is `ok: false`, not an error). */
export async function testChannel(
  em: EntityManager,
  config: Config,
  caller: { tenantId: string; userId: string },
  id: string,
  input: TestInput,
) {
  const row = await loadChannel(em, caller.tenantId, id);
  const userId = input.userId ?? caller.userId;
  const [user] = await em.execute(
    `select u.id, u.display_name, u.email, u.locale, a.address, tn.default_locale as tenant_locale from users u
       left join tenants tn on tn.id = u.tenant_id
       left join notification_channel_addresses a on a.channel_id = ? and a.user_id = u.id
      where u.tenant_id = ? and u.id = ?`,
    [id, caller.tenantId, userId],
  );
  if (!user) throw new AppError('NOT_FOUND', `No user ${userId}`);
  const to: string | null = input.to ?? user.address ?? (row.kind === 'email' ? user.email : null);
  if (row.kind === 'email' && !to)
    throw new AppError('CHANNEL_REFUSED', 'to: the user has no e-mail address; send `to`', {
      fields: [{ path: 'to', message: 'required: the user has no e-mail address' }],
    });
  if (input.to !== undefined && !(row.kind === 'email' ? EMAIL : CHAT_ID).test(input.to)) {
    const message = row.kind === 'email' ? 'not an e-mail address' : 'not a chat user id';
    throw new AppError('CHANNEL_REFUSED', `to: ${message}`, { fields: [{ path: 'to', message }] });
  }
  const channel: ChannelConfig = {
    id: row.id,
    kind: row.kind,
    version: row.updatedAt.toISOString(),
    settings: row.settings,
    secrets: row.secrets ?? {},
  };
  const zh = (user.locale ?? row.settings.locale ?? user.tenant_locale) === 'zh-CN';
  const message: Message = withBodies({
    subject: zh ? '测试消息' : 'Test message',
    title: zh ? '测试消息' : 'Test message',
    intro: zh
      ? `这是通知渠道“${row.name}”的测试消息。`
      : `This is a test message of the notification channel “${row.name}”.`,
    facts: [[zh ? '渠道' : 'Channel', `${row.name} (${row.kind})`]],
    actions: [],
  });
  const domain = new URL(
    `http://${(String(row.settings.from ?? '').match(/@([A-Za-z0-9.-]+)/) ?? [])[1] ?? 'localhost'}`,
  ).hostname;
  const messageId = messageIdOf(`test-${Date.now()}`, row.id, domain);
  try {
    const res = await adapters[row.kind]({ config }, channel, {
      messageId,
      threadId: null,
      message,
      to,
      recipient: { id: user.id, name: user.display_name },
      notification: null,
    });
    return {
      ok: true,
      channelId: row.id,
      kind: row.kind,
      to,
      messageId,
      status: res.status,
      response: res.response,
      error: null,
    };
  } catch (err) {
    const known = err instanceof PermanentFailure || err instanceof TransientFailure;
    if (!known && !(err instanceof Error)) throw err;
    return {
      ok: false,
      channelId: row.id,
      kind: row.kind,
      to,
      messageId,
      status: known ? err.status : null,
      response: known ? err.response : null,
      error: (err as Error).message,
    };
  }
}

// ---------- the delivery log ----------

/** A `date` column as yyyy-mm-dd (the driver may answer a string or a local-midnight Date). */
const dayOf = (v: unknown) =>
  v instanceof Date
    ? `${v.getFullYear()}-${String(v.getMonth() + 1).padStart(2, '0')}-${String(v.getDate()).padStart(2, '0')}`
    : typeof v === 'string'
      ? v.slice(0, 10)
      : null;

export function deliveryView(r: any) {
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
  return {
    id: String(r.id),
    notificationId: r.notification_id === null ? null : String(r.notification_id),
    digestDate: dayOf(r.digest_date),
    kind: r.kind as string,
    channelId: r.channel_id as string,
    userId: r.user_id as string,
    status: r.status as 'pending' | 'sending' | 'sent' | 'failed' | 'skipped',
    attempts: Number(r.attempts),
    nextAttemptAt: r.status === 'pending' ? iso(r.next_attempt_at) : null,
    heldUntil: iso(r.held_until),
    address: (r.address as string | null) ?? null,
    messageId: (r.message_id as string | null) ?? null,
    response: (r.response as string | null) ?? null,
    lastError: (r.last_error as string | null) ?? null,
    createdAt: iso(r.created_at)!,
    updatedAt: iso(r.updated_at)!,
    sentAt: iso(r.sent_at),
  };
}
export type DeliveryView = ReturnType<typeof deliveryView>;

export interface DeliveryQuery extends PageOpts {
  status?: string;
  channelId?: string;
  userId?: string;
  kind?: string;
  notificationId?: string;
}

/** The tenant's deliveries, newest first. */
export function listDeliveries(em: EntityManager, tenantId: string, q: DeliveryQuery): Promise<Page<DeliveryView>> {
  const where = new Where().add('x.tenant_id = ?', tenantId);
  if (q.status)
    where.add('x.status = any(array(select jsonb_array_elements_text(?::jsonb)))', JSON.stringify(q.status.split(',')));
  if (q.channelId) where.add('x.channel_id = ?', q.channelId);
  if (q.userId) where.add('x.user_id = ?', q.userId);
  if (q.kind) where.add('x.kind = ?', q.kind);
  if (q.notificationId) where.add('x.notification_id = ?', q.notificationId);
  return paged(em, 'notification_deliveries', where, 'x.id desc', q, deliveryView);
}
