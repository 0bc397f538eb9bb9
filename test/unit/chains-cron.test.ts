// RuleGo's cron (robfig, seconds first) → Temporal's structured calendars: the shapes, what the
// SDK's own encoder makes of them, and which instants they match (cron's day-of-month OR
// day-of-week rule included).
import { describe, expect, it } from 'vitest';
import { encodeOptionalStructuredCalendarSpecs } from '@temporalio/client/lib/schedule-helpers.js';
import type { CalendarSpec } from '@temporalio/client';
import { cronToCalendar, type CalendarSpecLike } from '../../chains/index.js';

const every = <const U>(start: U, end: U) => [{ start, end }];
const one = <const U>(v: U) => [{ start: v, end: v }];
const anyDay = {
  dayOfMonth: every(1, 31),
  month: every('JANUARY', 'DECEMBER'),
  dayOfWeek: every('SUNDAY', 'SATURDAY'),
};

function calendars(cron: string): CalendarSpecLike[] {
  const r = cronToCalendar(cron);
  if (!r.ok) throw new Error(r.error);
  return r.spec.calendars;
}

/** Whether a UTC instant matches one of the calendars, read the way the Temporal server does (every field). */
function fires(cron: string, iso: string): boolean {
  const encoded = encodeOptionalStructuredCalendarSpecs(calendars(cron) as CalendarSpec[])!;
  const d = new Date(iso);
  const inRanges = (
    ranges: Array<{ start?: number | null; end?: number | null; step?: number | null }> | null | undefined,
    v: number,
  ) =>
    !ranges?.length ||
    ranges.some(({ start, end, step }) => {
      const s = start ?? 0;
      const e = Math.max(end ?? s, s);
      return v >= s && v <= e && (v - s) % (step || 1) === 0;
    });
  return encoded.some(
    (c) =>
      inRanges(c.second, d.getUTCSeconds()) &&
      inRanges(c.minute, d.getUTCMinutes()) &&
      inRanges(c.hour, d.getUTCHours()) &&
      inRanges(c.dayOfMonth, d.getUTCDate()) &&
      inRanges(c.month, d.getUTCMonth() + 1) &&
      inRanges(c.dayOfWeek, d.getUTCDay()),
  );
}

describe('cronToCalendar: shapes', () => {
  const cases: Array<[string, CalendarSpecLike[]]> = [
    ['0 */5 * * * *', [{ second: one(0), minute: [{ start: 0, end: 59, step: 5 }], hour: every(0, 23), ...anyDay }]],
    ['*/10 * * * *', [{ second: one(0), minute: [{ start: 0, end: 59, step: 10 }], hour: every(0, 23), ...anyDay }]],
    [
      '30 15 8 * * MON-FRI',
      [{ second: one(30), minute: one(15), hour: one(8), ...anyDay, dayOfWeek: every('MONDAY', 'FRIDAY') }],
    ],
    [
      '0 0 8 * * 1-5',
      [{ second: one(0), minute: one(0), hour: one(8), ...anyDay, dayOfWeek: every('MONDAY', 'FRIDAY') }],
    ],
    [
      '0 0 0 1 jan,jul ?',
      [
        {
          second: one(0),
          minute: one(0),
          hour: one(0),
          ...anyDay,
          dayOfMonth: one(1),
          month: [...one('JANUARY'), ...one('JULY')],
        },
      ],
    ],
    [
      '0 5/15 9-17 * * *',
      [{ second: one(0), minute: [{ start: 5, end: 59, step: 15 }], hour: every(9, 17), ...anyDay }],
    ],
    [
      '0 0 0 * FEB-DEC/3 SUN',
      [
        {
          second: one(0),
          minute: one(0),
          hour: one(0),
          ...anyDay,
          month: [{ start: 'FEBRUARY', end: 'DECEMBER', step: 3 }],
          dayOfWeek: one('SUNDAY'),
        },
      ],
    ],
    ['@daily', [{ second: one(0), minute: one(0), hour: one(0), ...anyDay }]],
    ['@hourly', [{ second: one(0), minute: one(0), hour: every(0, 23), ...anyDay }]],
    ['@weekly', [{ second: one(0), minute: one(0), hour: one(0), ...anyDay, dayOfWeek: one('SUNDAY') }]],
    ['@monthly', [{ second: one(0), minute: one(0), hour: one(0), ...anyDay, dayOfMonth: one(1) }]],
    [
      '@yearly',
      [{ second: one(0), minute: one(0), hour: one(0), ...anyDay, dayOfMonth: one(1), month: one('JANUARY') }],
    ],
    // Both day fields restricted: cron's OR becomes two calendars.
    [
      '0 0 12 1,15 * MON',
      [
        { second: one(0), minute: one(0), hour: one(12), ...anyDay, dayOfMonth: [...one(1), ...one(15)] },
        { second: one(0), minute: one(0), hour: one(12), ...anyDay, dayOfWeek: one('MONDAY') },
      ],
    ],
  ];
  it.each(cases)('%s', (cron, expected) => {
    expect(calendars(cron)).toEqual(expected);
    // The SDK's encoder takes every range as it is (names, steps, explicit ends).
    expect(() => encodeOptionalStructuredCalendarSpecs(expected as CalendarSpec[])).not.toThrow();
  });

  it('turns @every into an interval in milliseconds (at least a second)', () => {
    expect(cronToCalendar('@every 1h30m')).toEqual({
      ok: true,
      spec: { calendars: [], intervals: [{ every: 5_400_000 }] },
    });
    expect(cronToCalendar('@every 90s')).toEqual({ ok: true, spec: { calendars: [], intervals: [{ every: 90_000 }] } });
    expect(cronToCalendar('@every 1.5m')).toEqual({
      ok: true,
      spec: { calendars: [], intervals: [{ every: 90_000 }] },
    });
    expect(cronToCalendar('@every 200ms')).toEqual({ ok: true, spec: { calendars: [], intervals: [{ every: 1000 }] } });
  });

  it('reads a CRON_TZ= or TZ= prefix as the time zone', () => {
    const r = cronToCalendar('CRON_TZ=Asia/Shanghai 0 0 8 * * *');
    expect(r.ok && r.timezone).toBe('Asia/Shanghai');
    const t = cronToCalendar('TZ=Europe/Paris @daily');
    expect(t.ok && t.timezone).toBe('Europe/Paris');
    expect(cronToCalendar('0 0 8 * * *')).not.toHaveProperty('timezone');
  });
});

describe('cronToCalendar: which instants fire', () => {
  const cases: Array<[string, string, boolean]> = [
    ['0 */5 * * * *', '2026-11-30T10:05:00Z', true],
    ['0 */5 * * * *', '2026-11-30T10:05:01Z', false],
    ['0 */5 * * * *', '2026-11-30T10:07:00Z', false],
    ['0 0 9 * * MON-FRI', '2026-11-30T09:00:00Z', true], // a Monday
    ['0 0 9 * * MON-FRI', '2026-11-29T09:00:00Z', false], // a Sunday
    // dom 1 or 15, or any Monday (cron's OR)
    ['0 0 12 1,15 * MON', '2026-12-01T12:00:00Z', true], // Tuesday the 1st
    ['0 0 12 1,15 * MON', '2026-12-07T12:00:00Z', true], // Monday the 7th
    ['0 0 12 1,15 * MON', '2026-12-08T12:00:00Z', false], // Tuesday the 8th
    // dom restricted, dow * : AND (every day of the month filter)
    ['0 0 12 1 * *', '2026-12-01T12:00:00Z', true],
    ['0 0 12 1 * *', '2026-12-02T12:00:00Z', false],
    // second 0 is second 0 only (the SDK would widen a range without end to 0-1)
    ['0 30 6 * * *', '2026-12-02T06:30:01Z', false],
    ['0 30 6 * * *', '2026-12-02T06:30:00Z', true],
    ['0 0 0 * FEB-DEC/3 *', '2026-05-10T00:00:00Z', true], // May = Feb + 3
    ['0 0 0 * FEB-DEC/3 *', '2026-06-10T00:00:00Z', false],
  ];
  it.each(cases)('%s at %s → %s', (cron, iso, expected) => {
    expect(fires(cron, iso)).toBe(expected);
  });
});

describe('cronToCalendar: refusals name the field', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /empty/],
    ['* * *', /expected 6 fields/],
    ['0 0 0 0 * * * *', /expected 6 fields/],
    ['60 * * * * *', /second: 60 is outside 0-59/],
    ['0 0 24 * * *', /hour: 24 is outside 0-23/],
    ['0 0 0 32 * *', /day of month: 32/],
    ['0 0 0 0 * *', /day of month: 0/],
    ['0 0 0 * 13 *', /month: 13/],
    ['0 0 0 * * 7', /day of week: 7/],
    ['0 0 0 * FOO *', /month: "FOO"/],
    ['0 0 0 * * MON-', /not a range/],
    ['0 10-5 * * * *', /runs backwards/],
    ['0 */0 * * * *', /step must be a positive number/],
    ['0 a/b * * * *', /not a value/],
    ['@sometimes', /unknown descriptor/],
    ['@every soon', /not a duration/],
    ['@every', /not a duration/],
    ['CRON_TZ=Mars/Base 0 0 * * * *', /unknown time zone/],
  ];
  it.each(cases)('%j', (cron, error) => {
    const r = cronToCalendar(cron);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
  });
});
