// "My settings" (docs/console.md): the user's own language, saved to their directory entry and
// applied at once, and their notification preferences — kinds per channel, quiet hours in a time
// zone, and a daily digest.
import { useEffect, useState } from 'preact/hooks';
import { applySavedUserLocale, locale, type Locale } from '../../i18n';
import { t } from './i18n';
import { ErrorText, FormFooter, Loading, useAsync } from '../../components/ui';
import { contentShown } from '../../lib/store';
import { loadMe, loadPreferences, saveLocale, savePreferences, type Preferences } from './api';
import css from './settings.module.css';
import { LocaleOptions } from '../../components/LanguageSwitch';

export function SettingsPage() {
  return (
    <div class={css.page}>
      <h1>{t.settings.title}</h1>
      <LanguageSettings />
      <NotificationSettings />
    </div>
  );
}

function LanguageSettings() {
  const me = useAsync(loadMe, []);
  const [choice, setChoice] = useState<string>('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (me.data) setChoice(me.data.user.locale ?? '');
  }, [me.data]);
  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const next = (choice || null) as Locale | null;
      await saveLocale(next);
      applySavedUserLocale(next);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  }
  return (
    <section class="card" aria-labelledby="lang-h">
      <h2 id="lang-h">{t.settings.language}</h2>
      <p class={css.help}>{t.settings.languageHelp}</p>
      <ErrorText error={me.error ?? error} />
      <form class={css.row} onSubmit={(e) => void save(e)}>
        <div class="field">
          <label for="settings-locale">{t.settings.language}</label>
          <select
            id="settings-locale"
            data-testid="settings-locale"
            value={choice}
            disabled={!me.data}
            onChange={(e) => setChoice((e.currentTarget as HTMLSelectElement).value)}
          >
            <option value="">{t.settings.followBrowser}</option>
            <LocaleOptions />
          </select>
        </div>
        <button type="submit" class="primary" disabled={busy || !me.data}>
          {t.settings.saveLanguage}
        </button>
      </form>
    </section>
  );
}

/** IANA zones the browser knows (the API takes the same list), UTC first. */
function timeZones(current: string): string[] {
  const all = ['UTC', ...((Intl as any).supportedValuesOf?.('timeZone') ?? [])] as string[];
  return all.includes(current) ? all : [current, ...all];
}

/** A time as the user reads it: in their chosen zone, which is named after it. */
function inZone(iso: string, zone: string): string {
  const format = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: zone,
  });
  return `${format.format(new Date(iso))} (${zone})`;
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
const hourLabel = (h: number) => `${String(h).padStart(2, '0')}:00`;
const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

interface Draft {
  channels: Record<string, string[]>;
  timeZone: string;
  quietOn: boolean;
  start: string;
  end: string;
  allowUrgent: boolean;
  digestOn: boolean;
  hour: number;
}

function draftOf(p: Preferences): Draft {
  const zones = timeZones(p.timeZone);
  const zone = p.updatedAt === null && zones.includes(browserZone()) ? browserZone() : p.timeZone;
  return {
    channels: Object.fromEntries(p.available.channels.map((c) => [c.id, p.channels[c.id] ?? c.kinds])),
    timeZone: zone,
    quietOn: p.quietHours !== null,
    start: p.quietHours?.start ?? '22:00',
    end: p.quietHours?.end ?? '07:00',
    allowUrgent: p.quietHours?.allowUrgent ?? true,
    digestOn: p.digest !== null,
    hour: p.digest?.hour ?? 8,
  };
}

function NotificationSettings() {
  const prefs = useAsync(loadPreferences, []);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<Preferences | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const current = saved ?? prefs.data;
  useEffect(() => {
    if (prefs.data) {
      setDraft(draftOf(prefs.data));
      contentShown();
    }
  }, [prefs.data]);
  if (prefs.error) return <ErrorText error={prefs.error} />;
  if (!current || !draft) return <Loading />;
  const set = (fields: Partial<Draft>) => {
    setSaved(null);
    setDraft({ ...draft, ...fields });
  };
  const toggle = (channelId: string, kind: string, on: boolean) => {
    const kinds = draft.channels[channelId] ?? [];
    set({ channels: { ...draft.channels, [channelId]: on ? [...kinds, kind] : kinds.filter((k) => k !== kind) } });
  };
  async function save(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const channels: Record<string, any[]> = {};
      // Only channels whose choice differs from what they send: a kind added to a channel later reaches the others.
      for (const c of current!.available.channels)
        if (!sameSet(draft!.channels[c.id] ?? c.kinds, c.kinds)) channels[c.id] = draft!.channels[c.id] ?? [];
      const next = await savePreferences({
        channels,
        timeZone: draft!.timeZone as any,
        quietHours: draft!.quietOn ? { start: draft!.start, end: draft!.end, allowUrgent: draft!.allowUrgent } : null,
        digest: draft!.digestOn ? { hour: draft!.hour } : null,
      });
      setSaved(next);
      setDraft(draftOf(next));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const urgent = new Set(current.available.urgentKinds);
  return (
    <section class="card" aria-labelledby="notify-h">
      <h2 id="notify-h">{t.settings.notifications}</h2>
      <form onSubmit={(e) => void save(e)} data-testid="notification-settings">
        <p class={css.help}>{t.settings.notificationsHelp}</p>
        {current.available.channels.length === 0 && <p class="muted">{t.settings.noChannels}</p>}
        {current.available.channels.map((c) => (
          <fieldset key={c.id} class={css.channel} data-testid={`channel-${c.name}`}>
            <legend>
              {c.name} <span class="tag">{c.kind}</span>
              {!c.enabled && <span class="muted"> {t.settings.channelOff}</span>}
            </legend>
            <div class={css.kinds}>
              {c.kinds.map((k) => (
                <label key={k} class={css.kind}>
                  <input
                    type="checkbox"
                    name={`${c.id}:${k}`}
                    checked={(draft.channels[c.id] ?? c.kinds).includes(k)}
                    onChange={(e) => toggle(c.id, k, (e.currentTarget as HTMLInputElement).checked)}
                  />
                  <span>
                    {t.settings.kinds[k] ?? t.settings.otherKind}
                    {urgent.has(k) && <span class={css.urgent}> {t.settings.urgent}</span>}
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
        ))}

        <div class={css.part}>
          <div class="field">
            <label for="settings-zone">{t.settings.timeZone}</label>
            <select
              id="settings-zone"
              class={css.narrow}
              data-testid="settings-zone"
              value={draft.timeZone}
              onChange={(e) => set({ timeZone: (e.currentTarget as HTMLSelectElement).value })}
            >
              {timeZones(draft.timeZone).map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
            <span class="muted small">{t.settings.timeZoneHelp}</span>
          </div>
        </div>

        <div class={css.part}>
          <h3>{t.settings.quiet}</h3>
          <label class={css.check}>
            <input
              type="checkbox"
              data-testid="quiet-on"
              checked={draft.quietOn}
              onChange={(e) => set({ quietOn: (e.currentTarget as HTMLInputElement).checked })}
            />
            <span>{t.settings.quietOn}</span>
          </label>
          {draft.quietOn && (
            <div class={css.indent}>
              <p class={css.help}>{t.settings.quietHelp}</p>
              <div class={css.row}>
                <div class="field">
                  <label for="quiet-start">{t.settings.quietStart}</label>
                  <input
                    id="quiet-start"
                    type="time"
                    required
                    value={draft.start}
                    onInput={(e) => set({ start: (e.currentTarget as HTMLInputElement).value })}
                  />
                </div>
                <div class="field">
                  <label for="quiet-end">{t.settings.quietEnd}</label>
                  <input
                    id="quiet-end"
                    type="time"
                    required
                    value={draft.end}
                    onInput={(e) => set({ end: (e.currentTarget as HTMLInputElement).value })}
                  />
                </div>
              </div>
              <label class={css.check}>
                <input
                  type="checkbox"
                  data-testid="quiet-urgent"
                  checked={draft.allowUrgent}
                  onChange={(e) => set({ allowUrgent: (e.currentTarget as HTMLInputElement).checked })}
                />
                <span>{t.settings.quietUrgent}</span>
              </label>
            </div>
          )}
        </div>

        <div class={css.part}>
          <h3>{t.settings.digest}</h3>
          <label class={css.check}>
            <input
              type="checkbox"
              data-testid="digest-on"
              checked={draft.digestOn}
              onChange={(e) => set({ digestOn: (e.currentTarget as HTMLInputElement).checked })}
            />
            <span>{t.settings.digestOn}</span>
          </label>
          {draft.digestOn && (
            <div class={css.indent}>
              <p class={css.help}>{t.settings.digestHelp}</p>
              <div class="field">
                <label for="digest-hour">{t.settings.digestHour}</label>
                <select
                  id="digest-hour"
                  class={css.narrow}
                  data-testid="digest-hour"
                  value={String(draft.hour)}
                  onChange={(e) => set({ hour: Number((e.currentTarget as HTMLSelectElement).value) })}
                >
                  {Array.from({ length: 24 }, (_, h) => (
                    <option key={h} value={String(h)}>
                      {hourLabel(h)}
                    </option>
                  ))}
                </select>
              </div>
              {current.digestNextAt && current.digest && (
                <p class="muted" data-testid="digest-next">
                  {t.settings.digestNext(inZone(current.digestNextAt, current.timeZone))}
                </p>
              )}
            </div>
          )}
        </div>

        <FormFooter error={error} busy={busy} label={t.settings.save}>
          {saved && (
            <p class={css.saved} role="status">
              {t.settings.saved}
            </p>
          )}
        </FormFooter>
      </form>
    </section>
  );
}
