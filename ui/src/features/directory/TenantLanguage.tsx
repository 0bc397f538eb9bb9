import { useState } from 'preact/hooks';
import { adoptTenantLocale, t, type Locale } from '../../i18n';
import { api, call } from '../../lib/api';
import { session } from '../../lib/session';
import { Section, useAsync } from '../../components/ui';
import { LocaleOptions } from '../../components/LanguageSwitch';

/**
 * The tenant's default language (GET/PUT /api/v1/tenant-settings): the last choice for everyone of
 * the tenant with no language of their own and a browser asking for none of ours. Anyone here sees
 * it; an administrator (workflow:admin) changes it.
 */
export function TenantLanguage() {
  const settings = useAsync(() => call(api.GET('/api/v1/tenant-settings')), []);
  const [choice, setChoice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState(false);
  const canChange = session.get()?.can.admin === true;
  const value = choice ?? settings.data?.defaultLocale ?? '';
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSaved(false);
    try {
      const done = await call(
        api.PUT('/api/v1/tenant-settings', { body: { defaultLocale: (value || null) as Locale | null } }),
      );
      setSaved(true);
      // This browser keeps it as its own last choice too (a reload only when nothing else decides).
      adoptTenantLocale(done.defaultLocale);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t.admin.tenantLanguage} id="tenant-language" error={settings.error ?? error}>
      <p class="muted">{t.admin.tenantLanguageHelp}</p>
      <form class="filters" onSubmit={(e) => void save(e)}>
        <div class="field">
          <label for="tenant-locale">{t.admin.tenantLanguage}</label>
          <select
            id="tenant-locale"
            data-testid="tenant-locale"
            value={value}
            disabled={!settings.data || !canChange}
            onChange={(e) => {
              setSaved(false);
              setChoice((e.currentTarget as HTMLSelectElement).value);
            }}
          >
            <option value="">{t.admin.tenantLanguageNone}</option>
            <LocaleOptions />
          </select>
        </div>
        <button
          type="submit"
          class="primary"
          data-action="save-tenant-language"
          disabled={busy || !settings.data || !canChange}
        >
          {t.admin.saveTenantLanguage}
        </button>
        {saved && (
          <span class="ok" role="status" data-testid="tenant-language-saved">
            {t.admin.saved}
          </span>
        )}
      </form>
      {!canChange && <p class="muted small">{t.admin.tenantLanguageAdminOnly}</p>}
    </Section>
  );
}
