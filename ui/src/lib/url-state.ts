// A list's filters and page live in the URL (`?q=…&status=…&page=2`): a view survives a reload and
// can be shared as a link, and Back undoes a filter change.
import { navigate, useLocation } from './router';

export type UrlFilters<K extends string> = Record<K, string> & { page: number };

/**
 * The URL's values of `keys` ('' when absent) and its page (1 when absent or not a positive whole
 * number), and `set`, which writes the next values into the URL: a filter change goes back to page 1,
 * a page change keeps the filters.
 */
export function useUrlFilters<K extends string>(keys: readonly K[]) {
  const { path, query } = useLocation();
  const values = Object.fromEntries(keys.map((k) => [k, query.get(k) ?? ''])) as Record<K, string>;
  const raw = Number(query.get('page') ?? 1);
  const page = Number.isSafeInteger(raw) && raw > 0 ? raw : 1;
  const set = (next: Partial<Record<K, string>> & { page?: number }) => {
    const q = new URLSearchParams();
    // Parameters this list does not own (another part of the page's) are kept as they are.
    for (const [k, v] of query) if (!(keys as readonly string[]).includes(k) && k !== 'page') q.set(k, v);
    for (const k of keys) {
      const v = (k in next ? next[k] : values[k])?.trim();
      if (v) q.set(k, v);
    }
    const p = next.page ?? 1;
    if (p > 1) q.set('page', String(p));
    navigate(`${path}${q.size ? `?${q}` : ''}`);
  };
  const active = keys.filter((k) => values[k] !== '');
  return { values, page, set, active };
}

/** A date input's day (yyyy-mm-dd) as the start (or, `end`, the last moment) of that day in local time. */
export function dayBound(day: string, end = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (Number.isNaN(d.getTime())) return undefined;
  if (end) {
    d.setDate(d.getDate() + 1);
    d.setMilliseconds(-1);
  }
  return d.toISOString();
}
