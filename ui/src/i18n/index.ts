// The console's words: the catalogue of the language chosen for this page load (locale.ts), and
// Intl formats for dates, numbers and relative times in that language.
import { en, type Catalogue } from './en';
import { locale, type Locale } from './locale';

/** The catalogues other than English load on demand (their own chunk): an English page fetches none. */
const catalogues: Record<Locale, () => Promise<Catalogue>> = {
  en: async () => en,
  'zh-CN': async () => (await import('./zh-CN')).zhCN,
};

/** Every string the console shows, in the chosen language (fetched before any page module runs). */
export const t: Catalogue = await catalogues[locale]().catch(() => en);

export {
  locale,
  LOCALES,
  LOCALE_NAMES,
  setLocale,
  adoptUserLocale,
  adoptTenantLocale,
  applySavedUserLocale,
  matchLocale,
} from './locale';
export type { Locale } from './locale';
export type { Catalogue } from './en';

const dateTime = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
const number = new Intl.NumberFormat(locale);
const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });

/** A date and time in the chosen language (English keeps the day-month-year order it always had). */
export function fmtTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

export function fmtNumber(n: number): string {
  return number.format(n);
}

/** How long ago (or from now) in words: "3 hours ago", "3小时前". */
export function fmtRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return '—';
  const diff = (new Date(iso).getTime() - now) / 1000;
  const abs = Math.abs(diff);
  const [value, unit]: [number, Intl.RelativeTimeFormatUnit] =
    abs < 60
      ? [diff, 'second']
      : abs < 3600
        ? [diff / 60, 'minute']
        : abs < 86400
          ? [diff / 3600, 'hour']
          : abs < 86400 * 30
            ? [diff / 86400, 'day']
            : abs < 86400 * 365
              ? [diff / (86400 * 30), 'month']
              : [diff / (86400 * 365), 'year'];
  return relative.format(Math.round(value), unit);
}
