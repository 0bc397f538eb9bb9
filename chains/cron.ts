// RuleGo's schedule cron (robfig/cron v3 with seconds: "sec min hour dom month dow", names
// JAN–DEC and SUN–SAT, `*`, `?`, lists, ranges, steps, @yearly…@hourly, @every <duration>,
// a CRON_TZ=/TZ= prefix) into the structured shape of a Temporal Schedule's spec. Five fields are
// accepted too (no seconds: second 0).
//
// One difference of meaning is kept exact: cron matches a day when the day of month OR the day
// of week matches if both are restricted (neither is * or ?), while a Temporal calendar needs
// every field to match; such a cron becomes two calendars (one per day field). `@every d` becomes
// an interval (Temporal aligns it to the epoch; robfig counted from the scheduler's start).
// The types below mirror @temporalio/client's CalendarSpec/IntervalSpec structurally, so chains/
// stays free of the SDK.

export const MONTH_NAMES = [
  'JANUARY',
  'FEBRUARY',
  'MARCH',
  'APRIL',
  'MAY',
  'JUNE',
  'JULY',
  'AUGUST',
  'SEPTEMBER',
  'OCTOBER',
  'NOVEMBER',
  'DECEMBER',
] as const;
export const DAY_NAMES = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'] as const;
export type MonthName = (typeof MONTH_NAMES)[number];
export type DayName = (typeof DAY_NAMES)[number];

export interface RangeLike<U> {
  start: U;
  /** Always given (= start for one value). */
  end: U;
  step?: number;
}

export interface CalendarSpecLike {
  second: RangeLike<number>[];
  minute: RangeLike<number>[];
  hour: RangeLike<number>[];
  dayOfMonth: RangeLike<number>[];
  month: RangeLike<MonthName>[];
  dayOfWeek: RangeLike<DayName>[];
  comment?: string;
}

export interface IntervalSpecLike {
  /** Milliseconds. */
  every: number;
}

/** The part of Temporal's ScheduleSpec a cron gives (add `timezone`). */
export interface ScheduleSpecLike {
  calendars: CalendarSpecLike[];
  intervals: IntervalSpecLike[];
}

export type CronResult = { ok: true; spec: ScheduleSpecLike; timezone?: string } | { ok: false; error: string };

interface Bounds {
  name: string;
  min: number;
  max: number;
  names?: Record<string, number>;
}

const abbrev = (names: readonly string[], first: number) =>
  Object.fromEntries(names.map((n, i) => [n.slice(0, 3), i + first]));
const FIELDS: Bounds[] = [
  { name: 'second', min: 0, max: 59 },
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: abbrev(MONTH_NAMES, 1) },
  { name: 'day of week', min: 0, max: 6, names: abbrev(DAY_NAMES, 0) },
];

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 0 1 1 *',
  '@annually': '0 0 0 1 1 *',
  '@monthly': '0 0 0 1 * *',
  '@weekly': '0 0 0 * * 0',
  '@daily': '0 0 0 * * *',
  '@midnight': '0 0 0 * * *',
  '@hourly': '0 0 * * * *',
};

class CronError extends Error {}

interface Field {
  ranges: RangeLike<number>[];
  /** `*` or `?` (robfig's star bit): the day fields combine with AND only then. */
  star: boolean;
}

function value(text: string, b: Bounds): number {
  const named = b.names?.[text.toUpperCase()];
  if (named !== undefined) return named;
  if (!/^\d+$/.test(text)) throw new CronError(`${b.name}: "${text}" is not a number${b.names ? ' or a name' : ''}`);
  const n = Number(text);
  if (n < b.min || n > b.max) throw new CronError(`${b.name}: ${n} is outside ${b.min}-${b.max}`);
  return n;
}

function field(text: string, b: Bounds): Field {
  const ranges: RangeLike<number>[] = [];
  let star = false;
  for (const part of text.split(',')) {
    const m = /^([^/]+)(?:\/(\d+))?$/.exec(part);
    if (!m) throw new CronError(`${b.name}: "${part}" is not a value, range or step`);
    const [, span, stepText] = m;
    const step = stepText === undefined ? 1 : Number(stepText);
    if (step < 1) throw new CronError(`${b.name}: the step must be a positive number`);
    let start: number;
    let end: number;
    if (span === '*' || span === '?') {
      [start, end] = [b.min, b.max];
      if (step === 1) star = true;
    } else {
      const [lo, hi, extra] = span.split('-');
      if (extra !== undefined || lo === '' || hi === '') throw new CronError(`${b.name}: "${span}" is not a range`);
      start = value(lo, b);
      // `a/step` runs from a to the field's end, as robfig reads it.
      end = hi !== undefined ? value(hi, b) : stepText !== undefined ? b.max : start;
      if (start > end) throw new CronError(`${b.name}: the range ${span} runs backwards`);
    }
    // `end` always: the SDK encodes a range without one as end 1, which widens {start: 0} to 0-1.
    ranges.push(step > 1 ? { start, end, step } : { start, end });
  }
  return { ranges, star };
}

const GO_UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Go's time.ParseDuration, in milliseconds. */
function goDuration(text: string): number {
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let at = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    total += Number(m[1]) * GO_UNITS[m[2]];
    at = re.lastIndex;
  }
  if (!text || at !== text.length) throw new CronError(`@every: "${text}" is not a duration (e.g. 90s, 1h30m)`);
  return total;
}

const named =
  <N extends string>(names: readonly N[], offset: number) =>
  (r: RangeLike<number>): RangeLike<N> => {
    const out: RangeLike<N> = { start: names[r.start - offset], end: names[r.end - offset] };
    if (r.step !== undefined) out.step = r.step;
    return out;
  };

function convert(expression: string): ScheduleSpecLike {
  const text = DESCRIPTORS[expression.toLowerCase()] ?? expression;
  if (text.toLowerCase().startsWith('@every')) {
    const ms = Math.floor(goDuration(text.slice('@every'.length).trim()) / 1000) * 1000;
    // robfig runs a sub-second interval every second.
    return { calendars: [], intervals: [{ every: Math.max(ms, 1000) }] };
  }
  if (text.startsWith('@')) throw new CronError(`unknown descriptor ${text}`);
  const parts = text.split(/\s+/);
  if (parts.length === 5) parts.unshift('0');
  if (parts.length !== 6)
    throw new CronError(`expected 6 fields (second minute hour day-of-month month day-of-week), found ${parts.length}`);
  const [second, minute, hour, dom, month, dow] = parts.map((p, i) => field(p, FIELDS[i]));
  const base = {
    second: second.ranges,
    minute: minute.ranges,
    hour: hour.ranges,
    month: month.ranges.map(named(MONTH_NAMES, 1)),
  };
  const days = dow.ranges.map(named(DAY_NAMES, 0));
  const anyDom: RangeLike<number>[] = [{ start: 1, end: 31 }];
  const anyDow: RangeLike<DayName>[] = [{ start: 'SUNDAY', end: 'SATURDAY' }];
  if (dom.star || dow.star) return { calendars: [{ ...base, dayOfMonth: dom.ranges, dayOfWeek: days }], intervals: [] };
  return {
    calendars: [
      { ...base, dayOfMonth: dom.ranges, dayOfWeek: anyDow },
      { ...base, dayOfMonth: anyDom, dayOfWeek: days },
    ],
    intervals: [],
  };
}

/** Converts a RuleGo cron; the error says which field is wrong and why. */
export function cronToCalendar(cron: string): CronResult {
  if (typeof cron !== 'string' || !cron.trim()) return { ok: false, error: 'the cron is empty' };
  let text = cron.trim();
  let timezone: string | undefined;
  const tz = /^(?:CRON_TZ|TZ)=(\S+)\s+/.exec(text);
  if (tz) {
    timezone = tz[1];
    text = text.slice(tz[0].length);
    if (!isTimeZone(timezone)) return { ok: false, error: `unknown time zone ${timezone}` };
  }
  try {
    const spec = convert(text);
    return timezone ? { ok: true, spec, timezone } : { ok: true, spec };
  } catch (e) {
    if (e instanceof CronError) return { ok: false, error: e.message };
    throw e;
  }
}

/** Whether `name` is a time zone the runtime knows (IANA names, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
