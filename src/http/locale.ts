// The language of an answer's words (docs/http.md "Languages"): the request's Accept-Language,
// read with its q-values; zh, zh-CN, zh-Hans (and zh-SG) answer in Simplified Chinese, anything else
// in English. Codes and every machine-readable field are the same in every language.

export const API_LOCALES = ['en', 'zh-CN'] as const;
export type ApiLocale = (typeof API_LOCALES)[number];

function ours(tag: string): ApiLocale | null {
  const t = tag.toLowerCase();
  if (t === 'zh' || t.startsWith('zh-cn') || t.startsWith('zh-hans') || t.startsWith('zh-sg')) return 'zh-CN';
  if (t === 'en' || t.startsWith('en-')) return 'en';
  return null;
}

/** The best of our languages for an Accept-Language header (RFC 9110 §12.5.4); English when none fits. */
export function localeOf(acceptLanguage: string | null | undefined): ApiLocale {
  if (!acceptLanguage) return 'en';
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
  return 'en';
}
