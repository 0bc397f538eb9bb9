// Whether and when one delivery goes out under its recipient's preferences (docs/channels.md#preferences):
// kinds turned off per channel, the daily digest that replaces per-task messages, and quiet hours that
// hold a message until their window ends. Pure: the clock is a parameter, the zone math is luxon's.
import { DateTime, IANAZone } from 'luxon';
import type { NotificationKind } from '../../workflows/notification-kinds.js';

/** Kinds that may pass through quiet hours (when the user allows it): someone is waiting on them now. */
export const URGENT_KINDS: readonly NotificationKind[] = ['urge', 'task_overdue'];
/** Kinds the daily digest replaces: one message per new task. */
export const DIGEST_KINDS: readonly NotificationKind[] = ['task_assigned', 'task_claimable'];
/** The kind of a digest delivery (it has no notification of its own). */
export const DIGEST_KIND = 'digest';

/** IANA time zones, as the runtime knows them (`UTC` first). */
export const TIME_ZONES: readonly [string, ...string[]] = ['UTC', ...Intl.supportedValuesOf('timeZone')];

export interface StoredPreferences {
  /** Per channel id, the kinds the user takes there; a channel not named sends what it sends. */
  channels: Record<string, string[]>;
  timeZone: string;
  quietHours: { start: string; end: string; allowUrgent: boolean } | null;
  digest: { hour: number } | null;
}

export const DEFAULT_PREFERENCES: StoredPreferences = { channels: {}, timeZone: 'UTC', quietHours: null, digest: null };

export type Verdict = { send: true } | { skip: string } | { holdUntil: Date };

export const isTimeZone = (zone: string) => IANAZone.isValidZone(zone);

const minutesOf = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
};

/** When the quiet window that `now` falls in ends; null when `now` is outside it (start = end: no window). */
export function quietUntil(q: { start: string; end: string }, zone: string, now: Date): Date | null {
  const local = DateTime.fromJSDate(now, { zone });
  const m = local.hour * 60 + local.minute;
  const s = minutesOf(q.start);
  const e = minutesOf(q.end);
  const at = (day: DateTime) => day.set({ hour: Math.floor(e / 60), minute: e % 60, second: 0, millisecond: 0 });
  if (s < e) return m >= s && m < e ? at(local).toJSDate() : null;
  if (s > e) {
    if (m >= s) return at(local.plus({ days: 1 })).toJSDate();
    if (m < e) return at(local).toJSDate();
  }
  return null;
}

/** The verdict for a delivery of `kind` on `channelId` at `now`. */
export function verdictFor(prefs: StoredPreferences | null, kind: string, channelId: string, now: Date): Verdict {
  if (!prefs) return { send: true };
  if (kind !== DIGEST_KIND) {
    const chosen = prefs.channels[channelId];
    if (chosen && !chosen.includes(kind)) return { skip: 'turned off in the recipient’s preferences' };
    if (prefs.digest && (DIGEST_KINDS as readonly string[]).includes(kind))
      return { skip: 'in the recipient’s daily digest' };
  }
  if (prefs.quietHours) {
    const until = quietUntil(prefs.quietHours, prefs.timeZone, now);
    const urgent = (URGENT_KINDS as readonly string[]).includes(kind);
    if (until && !(urgent && prefs.quietHours.allowUrgent)) return { holdUntil: until };
  }
  return { send: true };
}

const atHour = (day: DateTime, hour: number) => day.set({ hour, minute: 0, second: 0, millisecond: 0 });

/** The first time the digest is due after `after`: today at `hour` in the zone, else tomorrow. */
export function nextDigestAt(hour: number, zone: string, after: Date): Date {
  const local = DateTime.fromJSDate(after, { zone });
  const today = atHour(local, hour);
  return (today > local ? today : atHour(local.plus({ days: 1 }), hour)).toJSDate();
}

/** The day (yyyy-mm-dd in the zone) of the latest digest time at or before `now`: the digest that is due. */
export function digestDay(hour: number, zone: string, now: Date): string {
  const local = DateTime.fromJSDate(now, { zone });
  const today = atHour(local, hour);
  return (today <= local ? today : atHour(local.minus({ days: 1 }), hour)).toISODate()!;
}
