// The rules of notification preferences (src/notifications/preference-policy.ts): quiet windows in a
// time zone (overnight, DST), the digest's hour and day, and the verdict for one delivery.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PREFERENCES,
  TIME_ZONES,
  digestDay,
  nextDigestAt,
  quietUntil,
  verdictFor,
  type StoredPreferences,
} from '../../src/notifications/preference-policy.js';

const at = (iso: string) => new Date(iso);

describe('quiet hours', () => {
  const night = { start: '22:00', end: '07:30' };

  it('an overnight window holds until its end, the same night or the next morning, in the zone', () => {
    // 23:00 in Shanghai (UTC+8) → 07:30 the next day there.
    expect(quietUntil(night, 'Asia/Shanghai', at('2026-11-25T15:00:00Z'))?.toISOString()).toBe(
      '2026-11-25T23:30:00.000Z',
    );
    // 03:00 there → 07:30 the same day.
    expect(quietUntil(night, 'Asia/Shanghai', at('2026-11-25T19:00:00Z'))?.toISOString()).toBe(
      '2026-11-25T23:30:00.000Z',
    );
    // 07:30 and noon: outside.
    expect(quietUntil(night, 'Asia/Shanghai', at('2026-11-25T23:30:00Z'))).toBeNull();
    expect(quietUntil(night, 'Asia/Shanghai', at('2026-11-26T04:00:00Z'))).toBeNull();
  });

  it('a daytime window, and equal times (no window)', () => {
    const lunch = { start: '12:00', end: '13:00' };
    expect(quietUntil(lunch, 'UTC', at('2026-11-25T12:10:00Z'))?.toISOString()).toBe('2026-11-25T13:00:00.000Z');
    expect(quietUntil(lunch, 'UTC', at('2026-11-25T13:00:00Z'))).toBeNull();
    expect(quietUntil({ start: '09:00', end: '09:00' }, 'UTC', at('2026-11-25T09:00:00Z'))).toBeNull();
  });

  it('ends at the local hour across a DST change', () => {
    // Berlin leaves summer time on 2026-10-25: 07:00 that morning is 06:00 UTC (UTC+1), not 05:00.
    expect(
      quietUntil({ start: '22:00', end: '07:00' }, 'Europe/Berlin', at('2026-10-24T21:00:00Z'))?.toISOString(),
    ).toBe('2026-10-25T06:00:00.000Z');
  });
});

describe('the digest hour', () => {
  it('is next due today when the hour is ahead, else tomorrow, in the zone', () => {
    // 06:00 in Shanghai: 08:00 today there.
    expect(nextDigestAt(8, 'Asia/Shanghai', at('2026-11-24T22:00:00Z')).toISOString()).toBe('2026-11-25T00:00:00.000Z');
    // 08:00 exactly: tomorrow's.
    expect(nextDigestAt(8, 'Asia/Shanghai', at('2026-11-25T00:00:00Z')).toISOString()).toBe('2026-11-26T00:00:00.000Z');
  });

  it('names the latest due day (a dispatcher down for days sends one digest, for the latest day)', () => {
    expect(digestDay(8, 'Asia/Shanghai', at('2026-11-25T00:01:00Z'))).toBe('2026-11-25');
    expect(digestDay(8, 'Asia/Shanghai', at('2026-11-24T23:59:00Z'))).toBe('2026-11-24');
  });
});

describe('the verdict for one delivery', () => {
  const prefs = (p: Partial<StoredPreferences>): StoredPreferences => ({ ...DEFAULT_PREFERENCES, ...p });
  const noon = at('2026-11-25T12:00:00Z');
  const lateNight = at('2026-11-25T23:00:00Z');
  const quiet = { start: '22:00', end: '07:00', allowUrgent: true };

  it('without preferences everything is sent', () => {
    expect(verdictFor(null, 'task_assigned', 'c1', lateNight)).toEqual({ send: true });
  });

  it('a kind turned off on a channel is skipped there only', () => {
    const p = prefs({ channels: { c1: ['urge'] } });
    expect(verdictFor(p, 'task_assigned', 'c1', noon)).toHaveProperty('skip');
    expect(verdictFor(p, 'urge', 'c1', noon)).toEqual({ send: true });
    expect(verdictFor(p, 'task_assigned', 'c2', noon)).toEqual({ send: true });
  });

  it('the digest replaces task messages, not the others', () => {
    const p = prefs({ digest: { hour: 8 } });
    expect(verdictFor(p, 'task_assigned', 'c1', noon)).toEqual({ skip: 'in the recipient’s daily digest' });
    expect(verdictFor(p, 'task_claimable', 'c1', noon)).toHaveProperty('skip');
    expect(verdictFor(p, 'cc', 'c1', noon)).toEqual({ send: true });
    expect(verdictFor(p, 'digest', 'c1', noon)).toEqual({ send: true });
  });

  it('quiet hours hold, urgent kinds pass when allowed, the digest waits too', () => {
    const p = prefs({ quietHours: quiet });
    expect(verdictFor(p, 'cc', 'c1', lateNight)).toEqual({ holdUntil: at('2026-11-26T07:00:00Z') });
    expect(verdictFor(p, 'urge', 'c1', lateNight)).toEqual({ send: true });
    expect(verdictFor(p, 'task_overdue', 'c1', lateNight)).toEqual({ send: true });
    expect(verdictFor(p, 'digest', 'c1', lateNight)).toHaveProperty('holdUntil');
    const strict = prefs({ quietHours: { ...quiet, allowUrgent: false } });
    expect(verdictFor(strict, 'urge', 'c1', lateNight)).toHaveProperty('holdUntil');
    expect(verdictFor(strict, 'urge', 'c1', noon)).toEqual({ send: true });
  });

  it('time zones: IANA names with UTC first', () => {
    expect(TIME_ZONES[0]).toBe('UTC');
    expect(TIME_ZONES).toContain('Asia/Shanghai');
    expect(TIME_ZONES).toContain('Europe/Berlin');
  });
});
