// Which language the console speaks (docs/console.md "Languages"). Chosen once, when the page
// loads: the stored choice (the switch in the header, or the user's `locale` from the API), else
// the browser's languages, else the tenant's default language (from the API), else English. Switching stores the choice and reloads the page, so every
// module-level string is simply read from the one catalogue of that load.

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** Each language's name in its own words (shown as written, whatever the console's language). */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', 'zh-CN': '简体中文' };

export const LOCALE_KEY = 'approval-center.locale';
/** The user's `locale` last adopted from the API. */
const USER_LOCALE_KEY = 'approval-center.user-locale';
/** The tenant's default language last read from the API (the last choice, not a choice of the user's). */
const TENANT_LOCALE_KEY = 'approval-center.tenant-locale';

/** A BCP 47 tag as one of ours: zh, zh-CN, zh-Hans, zh-SG → zh-CN; en-* → en; anything else → null. */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase();
  if (lower === 'zh' || lower.startsWith('zh-cn') || lower.startsWith('zh-hans') || lower.startsWith('zh-sg'))
    return 'zh-CN';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return null;
}

/** The first of the browser's languages we speak. */
export function fromBrowser(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const l = matchLocale(tag);
    if (l) return l;
  }
  return null;
}

function storedLocale(key = LOCALE_KEY): Locale | null {
  try {
    return matchLocale(localStorage.getItem(key));
  } catch {
    return null;
  }
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** The language of this page load. */
export const locale: Locale =
  storedLocale() ?? fromBrowser(browserLanguages()) ?? storedLocale(TENANT_LOCALE_KEY) ?? 'en';

/**
 * The tenant's default language from the API (`/auth/me`): kept for the next loads, and adopted at
 * once (one reload) when neither a stored choice nor the browser's languages decide this page's.
 */
export function adoptTenantLocale(tag: string | null | undefined) {
  const l = matchLocale(tag);
  try {
    if (l) localStorage.setItem(TENANT_LOCALE_KEY, l);
    else localStorage.removeItem(TENANT_LOCALE_KEY);
  } catch {
    return; // no storage: a reload would not keep it
  }
  if (storedLocale() || fromBrowser(browserLanguages())) return;
  if ((l ?? 'en') !== locale) location.reload();
}

if (typeof document !== 'undefined') document.documentElement.lang = locale;

/** Store a choice; reloads the page when it changes the language (`reload: false` only stores it). */
export function setLocale(next: Locale, { reload = true } = {}) {
  try {
    localStorage.setItem(LOCALE_KEY, next);
  } catch {
    /* private mode: the choice lasts this page only */
  }
  if (reload && next !== locale) location.reload();
}

/**
 * The user's `locale` from the API wins over the stored and the browser's choice: when it names
 * one of ours that differs from this page's, it is stored and the page reloads once.
 */
export function adoptUserLocale(tag: string | null | undefined) {
  const l = matchLocale(tag);
  if (!l) return;
  // Adopted when it changes (a login, or the directory's value changed), so a switch made later in
  // the header holds until the user's own setting changes again.
  try {
    if (localStorage.getItem(USER_LOCALE_KEY) === l) return;
    localStorage.setItem(USER_LOCALE_KEY, l);
  } catch {
    /* no storage: adopt it this once */
  }
  if (l !== locale) setLocale(l);
}

/**
 * The user saved their own language in "My settings" (already stored by the API): it is applied at
 * once (one reload), and remembered as adopted so the next /auth/me does not reload again. `null`
 * hands the choice back to the browser.
 */
export function applySavedUserLocale(next: Locale | null) {
  try {
    if (next) {
      localStorage.setItem(USER_LOCALE_KEY, next);
      localStorage.setItem(LOCALE_KEY, next);
    } else {
      localStorage.removeItem(USER_LOCALE_KEY);
      localStorage.removeItem(LOCALE_KEY);
    }
  } catch {
    /* no storage: the reload follows the browser */
  }
  location.reload();
}
