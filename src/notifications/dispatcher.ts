// Sends the notification outbox through the tenants' channels (docs/channels.md). Each delivery row
// (one per notification and channel, added by the outbox's trigger) is claimed with
// FOR UPDATE SKIP LOCKED and a lease, sent, and recorded at once, one row at a time: two dispatchers
// never hold the same row, and a dispatcher killed mid-batch leaves only the rows it had not
// recorded, which another claims when their lease runs out and sends with the same Message-ID.
// Failures retry with backoff; after the last attempt a delivery is `failed` in the delivery log.
// Woken by the outbox's NOTIFY (the same channel the WebSocket notifier LISTENs on), and by a poll
// for retries. Each delivery obeys its recipient's preferences (preference-policy.ts): skipped, held
// for quiet hours, or sent; the poll also plans the daily digests that have come due (digest.ts).
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../config.js';
import { publicUrl } from '../config.js';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../observability/logger.js';
import { PgListener } from '../infra/pg-listener.js';
import {
  adapters,
  closeMailTransports,
  PermanentFailure,
  TransientFailure,
  shorten,
  type ChannelConfig,
} from './adapters/index.js';
import type { Outgoing } from './adapters/types.js';
import { loadMessageContext, type NotificationRow } from './message-context.js';
import { DECISION_KINDS, LOCALES, type Locale } from './messages/index.js';
import { renderMessage } from './templates/render.js';
import { tenantParts } from './templates/store.js';
import { digestMessageIdOf, planDigests, renderDigest } from './digest.js';
import { verdictFor } from './preference-policy.js';
import { preferencesOf } from './preferences.js';
import { recordDelivery } from '../observability/metrics.js';
import { bound } from '../db/bound.js';

/**
 * NOTIFYed by the fan-out trigger when it queued a delivery (payload: the tenant); not by
 * notifications no channel takes, so a dispatcher runs a round only when there is work.
 */
export const DELIVERY_CHANNEL = 'notification_deliveries';

const OPEN_TASK = ['pending', 'active', 'waiting', 'suspended'];

interface DeliveryRow {
  id: string;
  tenant_id: string;
  notification_id: string;
  channel_id: string;
  user_id: string;
  attempts: number;
  link_id: string | null;
  digest_date: string | null;
  digest_links: Record<string, string> | null;
}

/** Why a delivery is skipped (nothing to send): recorded in the delivery log as its `lastError`. */
class Skip extends Error {}

/** `<n42.channel-id@domain>`: the same for every attempt of one delivery. */
export function messageIdOf(notificationId: string, channelId: string, domain: string) {
  return `<n${notificationId}.${channelId}@${domain}>`;
}

/** `<instance.id@domain>`: the thread every message of one instance replies to. */
export function threadIdOf(instanceId: string, domain: string) {
  return `<instance.${instanceId}@${domain}>`;
}

function domainOf(config: Config, channel: ChannelConfig): string {
  const from = typeof channel.settings.from === 'string' ? channel.settings.from : '';
  const match = from.match(/@([A-Za-z0-9.-]+)>?\s*$/);
  return match ? match[1].toLowerCase() : new URL(publicUrl(config)).hostname;
}

export interface DispatcherOptions {
  orm: Orm;
  config: Config;
  logger: Logger;
  databaseUrl: string;
  /**
   * The time preferences are judged by (quiet hours, digest hours) and deliveries come due at; the
   * database's clock when unset. Tests pass another to cross a night without waiting for it.
   */
  clock?: () => Date;
  /**
   * Only this tenant's deliveries and digests. A dispatcher on an injected clock beside others (a
   * test) must not take other tenants' rows early.
   */
  tenantId?: string;
}

export class Dispatcher {
  /** Who holds a claim: unique per process run. */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly listener: PgListener;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private woken = false;
  private prunedAt = 0;

  /** The injected clock's time, or null for the database's `now()`. */
  private readonly now: () => Date | null;

  constructor(private readonly opts: DispatcherOptions) {
    this.now = opts.clock ?? (() => null);
    this.listener = new PgListener({
      databaseUrl: opts.databaseUrl,
      channel: DELIVERY_CHANNEL,
      logger: opts.logger,
      onPayload: (tenantId) => {
        if (!opts.tenantId || tenantId === opts.tenantId) this.poke();
      },
      onListening: () => this.poke(),
    });
  }

  async start(): Promise<void> {
    this.stopping = false;
    await this.listener.start();
    this.loop = this.run();
    this.opts.logger.info({ owner: this.owner }, 'notification dispatcher started');
  }

  /** Finishes the deliveries in hand (each is recorded), then stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.poke();
    await this.loop;
    await this.listener.stop();
    closeMailTransports();
  }

  private poke() {
    this.woken = true;
    this.wake?.();
  }

  private async run() {
    const { config, logger } = this.opts;
    while (!this.stopping) {
      let claimed = 0;
      try {
        claimed = await this.runOnce();
      } catch (err) {
        logger.warn({ err: (err as Error).message }, 'notification dispatcher: a round failed');
      }
      if (claimed === 0 && !this.stopping) {
        await this.prune();
        await this.idle(config.NOTIFY_POLL_MS);
      }
    }
  }

  /** Now and then (hourly, when idle), the delivery log forgets finished deliveries past their retention. */
  private async prune() {
    if (Date.now() - this.prunedAt < 3_600_000) return;
    this.prunedAt = Date.now();
    await this.opts.orm.em
      .fork()
      .execute(
        `delete from notification_deliveries where status in ('sent', 'skipped', 'failed') and updated_at < now() - ? * interval '1 day'`,
        [this.opts.config.NOTIFY_LOG_RETENTION_DAYS],
      )
      .catch((err) => this.opts.logger.warn({ err: (err as Error).message }, 'could not prune the delivery log'));
  }

  private idle(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        this.woken = false;
        done();
      };
    });
  }

  /** Plans the digests that are due, then claims up to NOTIFY_CONCURRENCY due deliveries and sends them at once; answers how many it claimed. */
  async runOnce(): Promise<number> {
    const { config } = this.opts;
    await planDigests(this.opts.orm, this.now() ?? new Date(), this.opts.tenantId).catch((err) =>
      this.opts.logger.warn({ err: (err as Error).message }, 'notification dispatcher: could not plan digests'),
    );
    // Prepared: every dispatcher runs it several times a second, idle or not (src/db/prepared.ts).
    const rows = await bound<DeliveryRow>(
      this.opts.orm.em.fork(),
      `update notification_deliveries d
          set status = 'sending', lease_owner = ?, lease_until = now() + ?::int * interval '1 second',
              attempts = d.attempts + 1, updated_at = now()
        where d.id in (
          select id from notification_deliveries
           where ((status = 'pending' and next_attempt_at <= coalesce(?::timestamptz, now()))
              or (status = 'sending' and lease_until < now()))
             and (?::text is null or tenant_id = ?)
           order by next_attempt_at, id
           limit ?::int for update skip locked)
        returning d.id, d.tenant_id, d.notification_id, d.channel_id, d.user_id, d.attempts, d.link_id,
                  d.digest_date::text as digest_date, d.digest_links`,
      [
        this.owner,
        config.NOTIFY_LEASE_SECONDS,
        this.now(),
        this.opts.tenantId ?? null,
        this.opts.tenantId ?? null,
        config.NOTIFY_CONCURRENCY,
      ],
      { prepare: true },
    );
    if (!rows.length) return 0;
    // The claims stay held while their sends last, however long: renewed every third of the lease.
    // A dispatcher that dies stops renewing, and its rows come due when the lease runs out.
    const renew = setInterval(
      () =>
        void this.opts.orm.em
          .fork()
          .execute(
            `update notification_deliveries set lease_until = now() + ? * interval '1 second'
              where lease_owner = ? and status = 'sending'`,
            [config.NOTIFY_LEASE_SECONDS, this.owner],
          )
          .catch(() => undefined),
      Math.max(200, (config.NOTIFY_LEASE_SECONDS * 1000) / 3),
    );
    try {
      await Promise.all(rows.map((row) => this.deliver(row)));
    } finally {
      clearInterval(renew);
    }
    return rows.length;
  }

  private async deliver(row: DeliveryRow) {
    const em = this.opts.orm.em.fork();
    let messageId: string | null = null;
    let address: string | null = null;
    let channelKind: string | null = null;
    try {
      const [d] = await em.execute(
        `select n.id, n.tenant_id, n.user_id, d.kind, n.instance_id, n.task_id, n.payload,
                c.kind as channel_kind, c.enabled, c.settings, c.secrets, c.updated_at as channel_version,
                u.display_name, u.email, u.locale, u.active, a.address, tn.default_locale as tenant_locale,
                p.channels, p.time_zone, p.quiet_start, p.quiet_end, p.quiet_urgent, p.digest_hour
           from notification_deliveries d
           left join notifications n on n.id = d.notification_id
           join notification_channels c on c.id = d.channel_id
           left join users u on u.tenant_id = d.tenant_id and u.id = d.user_id
           left join tenants tn on tn.id = d.tenant_id
           left join notification_channel_addresses a on a.channel_id = d.channel_id and a.user_id = d.user_id
           left join notification_preferences p on p.tenant_id = d.tenant_id and p.user_id = d.user_id
          where d.id = ?`,
        [row.id],
      );
      if (!d) return; // the notification or the channel was deleted meanwhile (the row went with it)
      if (!row.digest_date && d.id === null) return;
      channelKind = d.channel_kind;
      if (!d.enabled) throw new Skip('the channel is disabled');
      if (!d.display_name || !d.active) throw new Skip('the recipient is no longer an active user');
      const channel: ChannelConfig = {
        id: row.channel_id,
        kind: d.channel_kind,
        version: new Date(d.channel_version).toISOString(),
        settings: d.settings ?? {},
        secrets: d.secrets ?? {},
      };
      address = d.address ?? (channel.kind === 'email' ? d.email : null);
      if (!address && channel.kind !== 'webhook')
        throw new Skip(
          channel.kind === 'email'
            ? 'the recipient has no e-mail address'
            : 'the recipient has no address on this channel',
        );
      const prefs = preferencesOf(d);
      const timeZone = prefs?.timeZone ?? 'UTC';
      const verdict = verdictFor(prefs, d.kind, row.channel_id, this.now() ?? new Date());
      if ('skip' in verdict) throw new Skip(verdict.skip);
      if ('holdUntil' in verdict) return await this.hold(row, verdict.holdUntil);
      const domain = domainOf(this.opts.config, channel);
      const recipient = { id: row.user_id, name: d.display_name as string };
      // The recipient's language, else the channel's, else the tenant's default (docs/http.md "Languages").
      const locale: Locale =
        [d.locale, channel.settings.locale, d.tenant_locale].find((l) => (LOCALES as readonly unknown[]).includes(l)) ??
        'en';
      if (row.digest_date) {
        messageId = digestMessageIdOf(row.id, channel.id, domain);
        const { message, links } = await renderDigest({
          config: this.opts.config,
          orm: this.opts.orm,
          em,
          tenantId: row.tenant_id,
          userId: row.user_id,
          locale,
          timeZone,
          day: row.digest_date,
          via: channel.kind,
          links: row.digest_links ?? {},
        });
        if (!message) throw new Skip('no open task on the day of the digest');
        await em.execute(
          `update notification_deliveries set digest_links = ?::jsonb where id = ? and lease_owner = ?`,
          [JSON.stringify(links), row.id, this.owner],
        );
        await this.send(row, channel, {
          messageId,
          to: address,
          recipient,
          message,
          threadId: null,
          notification: null,
        });
        return;
      }
      const n = d as NotificationRow;
      messageId = messageIdOf(String(n.id), channel.id, domain);
      const { ctx, linkId } = await loadMessageContext({
        config: this.opts.config,
        orm: this.opts.orm,
        em,
        n,
        recipient,
        locale,
        timeZone,
        via: channel.kind,
        linkId: row.link_id,
      });
      if (linkId && linkId !== row.link_id)
        await em.execute(`update notification_deliveries set link_id = ? where id = ? and lease_owner = ?`, [
          linkId,
          row.id,
          this.owner,
        ]);
      // A task message about a task that closed or moved on since would ask for nothing that can be done.
      const t = ctx.task;
      if (
        t &&
        DECISION_KINDS.has(ctx.kind) &&
        (!OPEN_TASK.includes(t.status) || (t.assignee && t.assignee !== row.user_id))
      )
        throw new Skip('the task was closed or moved to someone else before it could be sent');
      // The tenant's template where it has one (checked when saved), rendered in a render thread under
      // its limits; a part failing now — or a render stopped at its deadline or memory cap — falls back
      // to the default.
      const message = await renderMessage(ctx, {
        override: await tenantParts(em, n.tenant_id, ctx.kind, ctx.locale),
        onFallback: (field, err) =>
          this.opts.logger.warn(
            { delivery: row.id, kind: ctx.kind, locale: ctx.locale, field, err: (err as Error)?.message },
            'a tenant template failed to render: the default part was used',
          ),
      });
      if (!message) throw new Skip(`no message for ${n.kind}`);
      await this.send(row, channel, {
        messageId,
        to: address,
        recipient,
        message,
        threadId: n.instance_id ? threadIdOf(n.instance_id, domain) : null,
        notification: {
          id: String(n.id),
          kind: n.kind,
          instanceId: n.instance_id,
          taskId: n.task_id,
          payload: n.payload ?? {},
        },
      });
    } catch (err) {
      await this.recordFailure(row, err, messageId, address).then(
        (status) => recordDelivery(channelKind, status === 'pending' ? 'retry' : status),
        (e) =>
          this.opts.logger.warn({ err: (e as Error).message, delivery: row.id }, 'could not record a failed delivery'),
      );
    }
  }

  /** Sends one message through the channel's adapter and records it as sent. */
  private async send(row: DeliveryRow, channel: ChannelConfig, out: Outgoing) {
    const result = await adapters[channel.kind]({ config: this.opts.config }, channel, out);
    await this.opts.orm.em.fork().execute(
      `update notification_deliveries
          set status = 'sent', sent_at = now(), updated_at = now(), message_id = ?, address = ?, response = ?,
              last_error = null, lease_owner = null, lease_until = null
        where id = ? and lease_owner = ?`,
      [out.messageId, out.to, result.response, row.id, this.owner],
    );
    recordDelivery(channel.kind, 'sent');
  }

  /** Quiet hours: back to pending until the window ends; the claim does not count as an attempt. */
  private async hold(row: DeliveryRow, until: Date) {
    await this.opts.orm.em.fork().execute(
      `update notification_deliveries
          set status = 'pending', next_attempt_at = ?, held_until = ?, attempts = greatest(attempts - 1, 0),
              lease_owner = null, lease_until = null, updated_at = now()
        where id = ? and lease_owner = ?`,
      [until, until, row.id, this.owner],
    );
  }

  private async recordFailure(row: DeliveryRow, err: unknown, messageId: string | null, address: string | null) {
    const { config, logger } = this.opts;
    const em = this.opts.orm.em.fork();
    const skipped = err instanceof Skip;
    const final = skipped || err instanceof PermanentFailure || row.attempts >= config.NOTIFY_MAX_ATTEMPTS;
    const status = skipped ? 'skipped' : final ? 'failed' : 'pending';
    const delay = Math.min(config.NOTIFY_RETRY_MAX_MS, config.NOTIFY_RETRY_BASE_MS * 2 ** (row.attempts - 1));
    const jittered = Math.round(delay * (0.75 + Math.random() / 2));
    const response = err instanceof PermanentFailure || err instanceof TransientFailure ? (err.response ?? null) : null;
    const message = shorten((err as Error)?.message ?? String(err), 1000);
    if (!skipped)
      logger.warn({ delivery: row.id, attempts: row.attempts, status, err: message }, 'notification delivery failed');
    await em.execute(
      `update notification_deliveries
          set status = ?, next_attempt_at = now() + ? * interval '1 millisecond', last_error = ?, response = coalesce(?, response),
              message_id = coalesce(?, message_id), address = coalesce(?, address),
              lease_owner = null, lease_until = null, updated_at = now()
        where id = ? and lease_owner = ?`,
      [status, final ? 0 : jittered, message, response, messageId, address, row.id, this.owner],
    );
    return status;
  }
}
