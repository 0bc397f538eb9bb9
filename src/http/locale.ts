// The language of an answer's words (docs/http.md "Languages"), chosen one way for every answer:
// the signed-in user's `locale`, else the request's Accept-Language (q-values honoured; zh, zh-CN,
// zh-Hans and zh-SG are Simplified Chinese), else the tenant's default language, else English.
// Codes and every machine-readable field are the same in every language.
import type { Context } from 'hono';
import type { AppEnv } from './context.js';

import { LOCALES, type Locale } from '../locales.js';

export const API_LOCALES = LOCALES;
export type ApiLocale = Locale;

function ours(tag: string): ApiLocale | null {
  const t = tag.toLowerCase();
  if (t === 'zh' || t.startsWith('zh-cn') || t.startsWith('zh-hans') || t.startsWith('zh-sg')) return 'zh-CN';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

/** A stored language (a user's, a tenant's, a channel's) as one of ours; null when it names none. */
export const apiLocale = (tag: unknown): ApiLocale | null => (typeof tag === 'string' ? ours(tag.trim()) : null);

/** The best of our languages an Accept-Language header asks for (RFC 9110 §12.5.4); null when none fits. */
export function acceptedLocale(acceptLanguage: string | null | undefined): ApiLocale | null {
  if (!acceptLanguage) return null;
  const ranked = acceptLanguage
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.tag && r.q > 0 && !Number.isNaN(r.q))
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranked) {
    const l = ours(r.tag);
    if (l) return l;
  }
  return null;
}

/** The Accept-Language header alone (no user, no tenant known): English when it names none of ours. */
export const localeOf = (acceptLanguage: string | null | undefined): ApiLocale =>
  acceptedLocale(acceptLanguage) ?? 'en';

/** The one order: the user's locale, the request's Accept-Language, the tenant's default, English. */
export function chooseLocale(o: { user?: unknown; acceptLanguage?: string | null; tenant?: unknown }): ApiLocale {
  return apiLocale(o.user) ?? acceptedLocale(o.acceptLanguage) ?? apiLocale(o.tenant) ?? 'en';
}

/** The language of this request's answer (before authentication: the header alone). */
export function requestLocale(c: Context<AppEnv>): ApiLocale {
  const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
  return chooseLocale({
    user: principal?.locale,
    acceptLanguage: c.req.header('accept-language'),
    tenant: principal?.tenantLocale,
  });
}
