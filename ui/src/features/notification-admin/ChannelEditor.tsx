// The form for a new channel and for editing one, with the fields of its type. Secrets are
// write-only: the form shows whether each is set and sends one only when typed (or `null` to remove
// an optional one).
import { useState } from 'preact/hooks';
import { LOCALES, LOCALE_NAMES } from '../../i18n';
import { t } from './i18n';
import { FormFooter } from '../../components/ui';
import { CHANNEL_TYPES, MESSAGE_KINDS, createChannel, replaceChannel, type Channel, type ChannelType } from './api';
import { FIELDS, bodyOf, draftOf, type Draft } from './channelForm';
import { fieldName, kindName, typeName } from './labels';
import css from './notification-admin.module.css';

export function ChannelEditor({
  channel,
  onDone,
}: {
  channel: Channel | null;
  onDone: (saved: Channel | null) => void;
}) {
  const isNew = channel === null;
  const [d, setD] = useState<Draft>(() => draftOf(channel));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const set = (fields: Partial<Draft>) => setD({ ...d, ...fields });
  const setValue = (name: string, value: string) => setD({ ...d, values: { ...d.values, [name]: value } });
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = bodyOf(d, isNew);
      onDone(isNew ? await createChannel(body) : await replaceChannel(channel.id, body));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  const id = (name: string) => `channel-${name}`;
  return (
    <form class={`editor ${css.editor}`} data-form="channel-editor" onSubmit={(e) => void submit(e)}>
      <h3>{isNew ? t.notifyAdmin.newChannel : t.notifyAdmin.editChannel(channel.name)}</h3>
      <div class="field">
        <label for={id('name')}>
          {t.notifyAdmin.name} <span class="muted small">({t.common.required})</span>
        </label>
        <input
          id={id('name')}
          name="name"
          required
          value={d.name}
          onInput={(e) => set({ name: e.currentTarget.value })}
        />
      </div>
      <div class="field">
        <label for={id('type')}>{t.notifyAdmin.type}</label>
        <select
          id={id('type')}
          name="type"
          value={d.type}
          disabled={!isNew}
          onChange={(e) => set({ type: e.currentTarget.value as ChannelType, remove: {} })}
        >
          {CHANNEL_TYPES.map((type) => (
            <option key={type} value={type}>
              {typeName(type)}
            </option>
          ))}
        </select>
        {!isNew && <span class="muted small">{t.notifyAdmin.typeFixed}</span>}
      </div>
      {FIELDS[d.type].map((f) => {
        const stored = channel?.secretsSet.includes(f.name) ?? false;
        const required = f.secret ? isNew && !!f.required : !!f.required;
        return (
          <div key={f.name} class="field" data-field={f.name}>
            <label for={id(f.name)}>
              {fieldName(f.name)}
              {required && <span class="muted small"> ({t.common.required})</span>}
              {f.secret && !isNew && (
                <span class={stored ? css.secretSet : css.secretUnset}>
                  {stored ? t.notifyAdmin.secretSet : t.notifyAdmin.secretNotSet}
                </span>
              )}
            </label>
            {f.input === 'tls' ? (
              <select
                id={id(f.name)}
                name={f.name}
                value={d.values.tls}
                onChange={(e) => setValue('tls', e.currentTarget.value)}
              >
                {['starttls', 'tls', 'none'].map((mode) => (
                  <option key={mode} value={mode}>
                    {t.notifyAdmin.tls[mode as 'tls']}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={id(f.name)}
                name={f.name}
                {...(f.secret
                  ? { type: 'password' as const }
                  : f.input === 'number'
                    ? { type: 'number' as const }
                    : f.input === 'url'
                      ? { type: 'url' as const }
                      : { type: 'text' as const })}
                required={required}
                autocomplete={f.secret ? 'new-password' : 'off'}
                disabled={f.secret && d.remove[f.name]}
                value={d.values[f.name] ?? ''}
                onInput={(e) => setValue(f.name, e.currentTarget.value)}
              />
            )}
            {f.help && <span class="muted small">{f.help}</span>}
            {f.secret && !isNew && <span class="muted small">{t.notifyAdmin.secretKeep}</span>}
            {f.secret && !isNew && !f.required && stored && (
              <label class="check small">
                <input
                  type="checkbox"
                  name={`remove-${f.name}`}
                  checked={!!d.remove[f.name]}
                  onChange={(e) => set({ remove: { ...d.remove, [f.name]: e.currentTarget.checked } })}
                />
                {t.notifyAdmin.secretRemove}
              </label>
            )}
          </div>
        );
      })}
      <div class="field">
        <label for={id('locale')}>{t.notifyAdmin.language}</label>
        <select
          id={id('locale')}
          name="locale"
          value={d.locale}
          onChange={(e) => set({ locale: e.currentTarget.value })}
        >
          <option value="">{t.notifyAdmin.languageDefault}</option>
          {LOCALES.map((l) => (
            <option key={l} value={l} lang={l}>
              {LOCALE_NAMES[l]}
            </option>
          ))}
        </select>
        <span class="muted small">{t.notifyAdmin.languageHelp}</span>
      </div>
      <fieldset class={css.kinds}>
        <legend>{t.notifyAdmin.sends}</legend>
        {MESSAGE_KINDS.map((k) => (
          <label key={k} class="check">
            <input
              type="checkbox"
              name={`kind-${k}`}
              checked={d.kinds.includes(k)}
              onChange={(e) =>
                set({
                  kinds: e.currentTarget.checked
                    ? MESSAGE_KINDS.filter((x) => x === k || d.kinds.includes(x))
                    : d.kinds.filter((x) => x !== k),
                })
              }
            />
            {kindName(k)}
          </label>
        ))}
      </fieldset>
      <label class="check">
        <input
          type="checkbox"
          name="enabled"
          checked={d.enabled}
          onChange={(e) => set({ enabled: e.currentTarget.checked })}
        />
        {t.notifyAdmin.enabled}
      </label>
      <FormFooter error={error} errorTestId="editor-error" busy={busy} onCancel={() => onDone(null)} />
    </form>
  );
}
