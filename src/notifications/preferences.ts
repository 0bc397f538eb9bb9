// A user's own notification preferences (docs/channels.md#preferences): read and replaced by the user
// themselves. A change applies to every delivery not yet sent: deliveries held for quiet hours come
// due at once and are decided again under the new preferences.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, referenceError } from '../errors.js';
import { CHANNEL_KINDS } from './messages/index.js';
import {
  DEFAULT_PREFERENCES,
  DIGEST_KINDS,
  URGENT_KINDS,
  isTimeZone,
  nextDigestAt,
  type StoredPreferences,
} from './preference-policy.js';

export type PreferencesInput = Partial<StoredPreferences>;

/** The stored row as preferences (null: the user never saved any). */
export function preferencesOf(row: any): StoredPreferences | null {
  if (!row || !row.time_zone) return null;
  return {
    channels: (row.channels && !Array.isArray(row.channels) ? row.channels : {}) as Record<string, string[]>,
    timeZone: row.time_zone,
    quietHours:
      row.quiet_start && row.quiet_end
        ? { start: row.quiet_start, end: row.quiet_end, allowUrgent: Boolean(row.quiet_urgent) }
        : null,
    digest: row.digest_hour === null || row.digest_hour === undefined ? null : { hour: Number(row.digest_hour) },
  };
}

async function channelsOf(em: EntityManager, tenantId: string) {
  return em.execute<Array<{ id: string; name: string; kind: string; enabled: boolean; kinds: string[] }>>(
    `select id, name, kind, enabled, kinds from notification_channels where tenant_id = ? order by name`,
    [tenantId],
  );
}

async function view(em: EntityManager, tenantId: string, userId: string) {
  const [[row], channels] = await Promise.all([
    em.execute(`select * from notification_preferences where tenant_id = ? and user_id = ?`, [tenantId, userId]),
    channelsOf(em, tenantId),
  ]);
  const prefs = preferencesOf(row) ?? DEFAULT_PREFERENCES;
  return {
    ...prefs,
    digestNextAt: row?.digest_next_at ? new Date(row.digest_next_at).toISOString() : null,
    updatedAt: row ? new Date(row.updated_at).toISOString() : null,
    available: {
      channels: channels.map((c) => ({ id: c.id, name: c.name, kind: c.kind, enabled: c.enabled, kinds: c.kinds })),
      kinds: [...CHANNEL_KINDS],
      urgentKinds: [...URGENT_KINDS],
      digestKinds: [...DIGEST_KINDS],
    },
  };
}
export type PreferencesView = Awaited<ReturnType<typeof view>>;

export const getPreferences = (em: EntityManager, tenantId: string, userId: string) => view(em, tenantId, userId);

const refuse = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', `${path}: ${message}`, { fields: [{ path, message }] });

/** Replaces the caller's preferences as a whole (a field left out takes its default); answers them. */
export async function putPreferences(
  em: EntityManager,
  tenantId: string,
  userId: string,
  input: PreferencesInput,
  now = new Date(),
): Promise<PreferencesView> {
  const prefs: StoredPreferences = { ...DEFAULT_PREFERENCES, ...input };
  if (!isTimeZone(prefs.timeZone)) throw refuse('timeZone', 'not an IANA time zone');
  const known = new Set((await channelsOf(em, tenantId)).map((c) => c.id));
  // A channel the tenant does not have: 404 REFERENCE_NOT_FOUND naming each (docs/http.md "Limits").
  const unknown = referenceError(
    Object.keys(prefs.channels)
      .filter((id) => !known.has(id))
      .map((id) => ({ path: `channels.${id}`, message: 'no such notification channel' })),
  );
  if (unknown) throw unknown;
  const channels = Object.fromEntries(Object.entries(prefs.channels).map(([id, kinds]) => [id, [...new Set(kinds)]]));
  const digestNextAt = prefs.digest ? nextDigestAt(prefs.digest.hour, prefs.timeZone, now) : null;
  await em.transactional(async (tx) => {
    await tx.execute(
      `insert into notification_preferences
         (tenant_id, user_id, channels, time_zone, quiet_start, quiet_end, quiet_urgent, digest_hour, digest_next_at)
       values (?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?)
       on conflict (tenant_id, user_id) do update set
         channels = excluded.channels, time_zone = excluded.time_zone, quiet_start = excluded.quiet_start,
         quiet_end = excluded.quiet_end, quiet_urgent = excluded.quiet_urgent, digest_hour = excluded.digest_hour,
         digest_next_at = excluded.digest_next_at, updated_at = now()`,
      [
        tenantId,
        userId,
        JSON.stringify(channels),
        prefs.timeZone,
        prefs.quietHours?.start ?? null,
        prefs.quietHours?.end ?? null,
        prefs.quietHours?.allowUrgent ?? true,
        prefs.digest?.hour ?? null,
        digestNextAt,
      ],
    );
    // Messages held for the old quiet hours are decided again now, under these preferences.
    await tx.execute(
      `update notification_deliveries set next_attempt_at = now(), updated_at = now()
        where tenant_id = ? and user_id = ? and status = 'pending' and held_until is not null and next_attempt_at > now()`,
      [tenantId, userId],
    );
  });
  return view(em, tenantId, userId);
}
