// The tenant's private-address allowlist (PUT /api/v1/network-allowlist): one host, address or
// CIDR a line; saved as a whole. Loopback, link-local and metadata addresses stay refused anyway.
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { api, call, errorText } from '../../lib/api';
import { Section, useAsync } from '../../components/ui';

export function NetworkAllowlist() {
  const list = useAsync(() => call(api.GET('/api/v1/network-allowlist')), []);
  const [text, setText] = useState<string | null>(null);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const shown = text ?? (list.data?.entries ?? []).map((e) => e.entry).join('\n');
  const save = async () => {
    const entries = shown
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((entry) => ({ entry }));
    try {
      await call(api.PUT('/api/v1/network-allowlist', { body: { entries } }));
      setText(null);
      setNote({ ok: true, text: t.admin.saved });
      void list.reload();
    } catch (err) {
      setNote({ ok: false, text: errorText(err) });
    }
  };
  return (
    <Section title={t.allowlist.title} id="network-allowlist" error={list.error}>
      <p class="muted">{t.allowlist.help}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label>
          {t.allowlist.entries}
          <textarea
            rows={5}
            value={shown}
            data-testid="allowlist-entries"
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          />
        </label>
        <button type="submit">{t.allowlist.save}</button>
        {note && (
          <p class={note.ok ? 'ok' : 'error'} role={note.ok ? 'status' : 'alert'}>
            {note.text}
          </p>
        )}
      </form>
    </Section>
  );
}
