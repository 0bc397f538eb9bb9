// The tenant's channels: a list with edit, enable / disable, delete and "Send test"; a form for a new
// channel and for editing one, with the fields of its type. Secrets are write-only: the form shows
// whether each is set and sends one only when typed (or `null` to remove an optional one).
import { useState } from 'preact/hooks';
import { LOCALES, LOCALE_NAMES, t } from '../../i18n';
import { errorText } from '../../lib/api';
import { ErrorText, ListTable, Loading, Section, useAsync } from '../../components/ui';
import { contentShown } from '../../lib/store';
import {
  CHANNEL_TYPES,
  MESSAGE_KINDS,
  createChannel,
  deleteChannel,
  listChannels,
  replaceChannel,
  testChannel,
  type Channel,
  type ChannelBody,
  type ChannelType,
  type MessageKind,
  type TestResult,
} from './api';
import { fieldName, kindName, typeName } from './labels';
import css from './notification-admin.module.css';

interface FieldSpec {
  name: string;
  /** Write-only: never answered; the form says whether it is set. */
  secret?: boolean;
  /** Needed on create (a secret) or always (a plain field). */
  required?: boolean;
  input?: 'text' | 'number' | 'url' | 'tls';
  help?: string;
}

const chatUrl: FieldSpec = { name: 'url', secret: true, required: true, input: 'url', help: t.notifyAdmin.help.url };

/** The settings of each type (docs/channels.md: the settings table). */
const FIELDS: Record<ChannelType, FieldSpec[]> = {
  email: [
    { name: 'host', required: true },
    { name: 'port', input: 'number' },
    { name: 'tls', input: 'tls' },
    { name: 'user' },
    { name: 'password', secret: true },
    { name: 'from', required: true, help: t.notifyAdmin.help.from('approvals@example.com') },
    { name: 'replyTo' },
  ],
  slack: [chatUrl],
  teams: [chatUrl],
  wecom: [chatUrl],
  feishu: [chatUrl, { name: 'secret', secret: true, help: t.notifyAdmin.help.feishuSecret }],
  dingtalk: [chatUrl, { name: 'secret', secret: true, help: t.notifyAdmin.help.dingtalkSecret }],
  webhook: [
    { name: 'url', required: true, input: 'url', help: t.notifyAdmin.help.webhookUrl },
    { name: 'secret', secret: true, required: true, help: t.notifyAdmin.help.webhookSecret },
  ],
};

interface Draft {
  name: string;
  type: ChannelType;
  enabled: boolean;
  kinds: MessageKind[];
  locale: string;
  /** Plain settings and typed secrets, as typed. */
  values: Record<string, string>;
  /** Optional secrets to remove. */
  remove: Record<string, boolean>;
}

function draftOf(channel: Channel | null): Draft {
  if (!channel)
    return {
      name: '',
      type: 'email',
      enabled: true,
      kinds: [...MESSAGE_KINDS],
      locale: '',
      values: { port: '587', tls: 'starttls' },
      remove: {},
    };
  const values: Record<string, string> = {};
  for (const f of FIELDS[channel.kind]) {
    const v = channel.settings[f.name];
    if (!f.secret && v !== undefined && v !== null) values[f.name] = String(v);
  }
  return {
    name: channel.name,
    type: channel.kind,
    enabled: channel.enabled,
    kinds: channel.kinds.filter((k): k is MessageKind => (MESSAGE_KINDS as string[]).includes(k)),
    locale: typeof channel.settings.locale === 'string' ? channel.settings.locale : '',
    values,
    remove: {},
  };
}

/** The request body of a draft: the whole channel; a secret only when typed (or removed). */
function bodyOf(d: Draft, isNew: boolean): ChannelBody {
  const settings: Record<string, unknown> = {};
  for (const f of FIELDS[d.type]) {
    const v = (d.values[f.name] ?? '').trim();
    if (f.secret && !isNew && d.remove[f.name]) settings[f.name] = null;
    else if (!v) continue;
    else settings[f.name] = f.input === 'number' ? Number(v) : v;
  }
  if (d.locale) settings.locale = d.locale;
  return { name: d.name.trim(), kind: d.type, enabled: d.enabled, kinds: d.kinds, settings } as ChannelBody;
}

/** The body that replaces `c` as it is, but for `enabled`: its answered settings are its plain ones. */
function toggledBody(c: Channel): ChannelBody {
  const settings: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.settings))
    if (k !== 'urlHint' && v !== null && v !== undefined) settings[k] = v;
  return { name: c.name, kind: c.kind, enabled: !c.enabled, kinds: c.kinds, settings } as ChannelBody;
}

/** Where a channel sends: the SMTP server, the origin of a chat URL (the rest is a secret), a webhook's URL. */
function targetOf(c: Channel): string {
  const s = c.settings;
  if (c.kind === 'email') return `${String(s.host ?? '')}:${String(s.port ?? '')}`;
  if (typeof s.url === 'string') return s.url;
  return typeof s.urlHint === 'string' ? s.urlHint : '—';
}

function SecretState({ channel }: { channel: Channel }) {
  const secrets = FIELDS[channel.kind].filter((f) => f.secret);
  return (
    <div class="small">
      {secrets.map((f) => {
        const set = channel.secretsSet.includes(f.name);
        return (
          <span key={f.name} class={set ? css.secretSet : css.secretUnset} data-secret={f.name} data-set={String(set)}>
            {fieldName(f.name)}: {set ? t.notifyAdmin.secretSet : t.notifyAdmin.secretNotSet}
          </span>
        );
      })}
    </div>
  );
}

function Editor({ channel, onDone }: { channel: Channel | null; onDone: (saved: Channel | null) => void }) {
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
      {error ? (
        <p class="error" role="alert" data-testid="editor-error">
          {errorText(error)}
        </p>
      ) : null}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {t.common.save}
        </button>
        <button type="button" onClick={() => onDone(null)}>
          {t.common.cancel}
        </button>
      </div>
    </form>
  );
}

function TestPanel({ channel, onClose }: { channel: Channel; onClose: () => void }) {
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  async function send(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setResult(null);
    try {
      setResult(await testChannel(channel.id, to.trim() || undefined));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class={`editor ${css.editor}`} data-testid="channel-test" onSubmit={(e) => void send(e)}>
      <h3>{t.notifyAdmin.testTitle(channel.name)}</h3>
      <div class="field">
        <label for="channel-test-to">{t.notifyAdmin.testTo}</label>
        <input
          id="channel-test-to"
          name="to"
          value={to}
          autocomplete="off"
          onInput={(e) => setTo(e.currentTarget.value)}
        />
        <span class="muted small">{t.notifyAdmin.testToHelp}</span>
      </div>
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t.notifyAdmin.testSending : t.notifyAdmin.testSend}
        </button>
        <button type="button" onClick={onClose}>
          {t.common.close}
        </button>
      </div>
      <ErrorText error={error} />
      {result && (
        <div data-testid="test-result" data-ok={String(result.ok)} class={css.result} role="status">
          <p class={result.ok ? 'ok' : 'error'}>
            <strong>{result.ok ? t.notifyAdmin.testOk : t.notifyAdmin.testRefused}</strong>
          </p>
          <dl class={`facts ${css.resultFacts}`}>
            <dt>{t.notifyAdmin.testSentTo}</dt>
            <dd>{result.to ?? '—'}</dd>
            <dt>{t.notifyAdmin.testStatus}</dt>
            <dd data-testid="test-status">{result.status ?? '—'}</dd>
            <dt>{t.notifyAdmin.testAnswer}</dt>
            <dd>
              <code class={css.answer} data-testid="test-answer">
                {result.response ?? '—'}
              </code>
            </dd>
            {result.error && (
              <>
                <dt>{t.notifyAdmin.testError}</dt>
                <dd class="error">{result.error}</dd>
              </>
            )}
            <dt>{t.notifyAdmin.testMessageId}</dt>
            <dd>
              <code class={css.answer}>{result.messageId}</code>
            </dd>
          </dl>
        </div>
      )}
    </form>
  );
}

type Open = { what: 'edit'; channel: Channel | null } | { what: 'test'; channel: Channel } | null;

export function Channels() {
  const list = useAsync(async () => {
    const page = await listChannels();
    contentShown();
    return page;
  }, []);
  const [open, setOpen] = useState<Open>(null);
  const [note, setNote] = useState<{ id: string; ok: boolean; text: string } | null>(null);
  const run = async (id: string, action: () => Promise<unknown>, ok: string) => {
    try {
      await action();
      await list.reload(true);
      setNote({ id, ok: true, text: ok });
    } catch (err) {
      setNote({ id, ok: false, text: errorText(err) });
    }
  };
  const items = list.data?.items ?? [];
  return (
    <Section title={t.notifyAdmin.tab.channels} id="channels" error={list.error}>
      <p class={css.help}>{t.notifyAdmin.channelsHelp}</p>
      <button type="button" data-action="new-channel" onClick={() => setOpen({ what: 'edit', channel: null })}>
        {t.notifyAdmin.addChannel}
      </button>
      {open?.what === 'edit' && (
        <Editor
          key={open.channel?.id ?? 'new'}
          channel={open.channel}
          onDone={(saved) => {
            setOpen(null);
            if (saved) {
              setNote({ id: saved.id, ok: true, text: t.notifyAdmin.saved });
              void list.reload(true);
            }
          }}
        />
      )}
      {open?.what === 'test' && (
        <TestPanel key={open.channel.id} channel={open.channel} onClose={() => setOpen(null)} />
      )}
      {note && !items.some((c) => c.id === note.id) && (
        <p class={note.ok ? 'ok' : 'error'} role="status" data-testid="list-note">
          {note.text}
        </p>
      )}
      {list.loading && !list.data && <Loading />}
      {list.data && !items.length && <p class="muted">{t.notifyAdmin.noChannels}</p>}
      {items.length > 0 && (
        <div class={`stack-on-phone ${css.stack}`}>
          <ListTable
            testid="channel-list"
            columns={[
              t.notifyAdmin.name,
              t.notifyAdmin.type,
              t.notifyAdmin.target,
              t.notifyAdmin.sends,
              t.notifyAdmin.state,
              t.admin.actions,
            ]}
          >
            {items.map((c) => (
              <tr key={c.id} data-channel={c.name} data-channel-id={c.id} class={c.enabled ? undefined : 'muted'}>
                <td>
                  <strong>{c.name}</strong>
                  {note?.id === c.id && (
                    <div class={note.ok ? 'ok small' : 'error small'} role="status" data-testid="row-note">
                      {note.text}
                    </div>
                  )}
                </td>
                <td data-label={t.notifyAdmin.type}>{typeName(c.kind)}</td>
                <td data-label={t.notifyAdmin.target} class={css.target}>
                  <code>{targetOf(c)}</code>
                  <SecretState channel={c} />
                </td>
                <td data-label={t.notifyAdmin.sends} title={c.kinds.map(kindName).join(', ')}>
                  {t.notifyAdmin.sendsCount(c.kinds.length, MESSAGE_KINDS.length)}
                </td>
                <td data-label={t.notifyAdmin.state}>
                  <span class={c.enabled ? css.on : css.off} data-testid="channel-state">
                    {c.enabled ? t.notifyAdmin.on : t.notifyAdmin.off}
                  </span>
                </td>
                <td class="buttons">
                  <button type="button" data-action="test" onClick={() => setOpen({ what: 'test', channel: c })}>
                    {t.notifyAdmin.sendTest}
                  </button>
                  <button type="button" data-action="edit" onClick={() => setOpen({ what: 'edit', channel: c })}>
                    {t.admin.editButton}
                  </button>
                  <button
                    type="button"
                    data-action={c.enabled ? 'disable' : 'enable'}
                    onClick={() =>
                      void run(
                        c.id,
                        () => replaceChannel(c.id, toggledBody(c)),
                        c.enabled ? t.notifyAdmin.disabledNote : t.notifyAdmin.enabledNote,
                      )
                    }
                  >
                    {c.enabled ? t.notifyAdmin.disable : t.notifyAdmin.enable}
                  </button>
                  <button
                    type="button"
                    class="danger"
                    data-action="delete"
                    onClick={() => {
                      if (!window.confirm(t.notifyAdmin.confirmDelete(c.name))) return;
                      if (open?.channel?.id === c.id) setOpen(null);
                      void run(c.id, () => deleteChannel(c.id), t.notifyAdmin.deleted);
                    }}
                  >
                    {t.admin.delete}
                  </button>
                </td>
              </tr>
            ))}
          </ListTable>
        </div>
      )}
    </Section>
  );
}
