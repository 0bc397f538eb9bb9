// The language switch (header and login page): stores the choice and reloads the page (i18n/locale.ts).
import { LOCALES, LOCALE_NAMES, locale, setLocale, t, type Locale } from '../i18n';

export function LanguageSwitch() {
  return (
    <select
      class="lang"
      aria-label={t.language}
      title={t.language}
      data-testid="language"
      value={locale}
      onChange={(e) => setLocale((e.currentTarget as HTMLSelectElement).value as Locale)}
    >
      <LocaleOptions />
    </select>
  );
}

/** One option per language the console speaks, each named in its own language. */
export function LocaleOptions() {
  return (
    <>
      {LOCALES.map((l) => (
        <option key={l} value={l} lang={l}>
          {LOCALE_NAMES[l]}
        </option>
      ))}
    </>
  );
}
