// The tenant's private-address allowlist (GET / PUT /api/v1/network-allowlist): its entries listed
// (entry, description, who added it), one added or removed at a time. The API replaces the list as
// a whole, so each change sends the entries as listed (descriptions kept) with the one added or
// without the one removed. Loopback, link-local and metadata addresses stay refused anyway.
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { ApiError, api, call, errorText } from '../../lib/api';
import { ListTable, Section, useAsync } from '../../components/ui';

type Entry = { entry: string; description: string | null };

export function NetworkAllowlist() {
  const list = useAsync(() => call(api.GET('/api/v1/network-allowlist')), []);
  const [entry, setEntry] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  const entries: Entry[] = (list.data?.entries ?? []).map((e) => ({ entry: e.entry, description: e.description }));

  const put = async (next: Entry[], ok: string, refused: (err: unknown) => string) => {
    setBusy(true);
    try {
      await call(api.PUT('/api/v1/network-allowlist', { body: { entries: next } }));
      setNote({ ok: true, text: ok });
      await list.reload(true);
      return true;
    } catch (err) {
      setNote({ ok: false, text: refused(err) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async () => {
    const value = entry.trim();
    if (!value) return;
    if (entries.some((e) => e.entry === value.toLowerCase()))
      return setNote({ ok: false, text: t.allowlist.duplicate(value) });
    const added = await put(
      [...entries, { entry: value, description: description.trim() || null }],
      t.allowlist.added(value),
      // A 400 here is the new entry's form (the listed ones were accepted before): say so in words.
      (err) => (err instanceof ApiError && err.status === 400 ? t.allowlist.invalid(value) : errorText(err)),
    );
    if (added) {
      setEntry('');
      setDescription('');
    }
  };

  return (
    <Section title={t.allowlist.title} id="network-allowlist" error={list.error}>
      <p class="muted">{t.allowlist.help}</p>
      {list.data &&
        (entries.length ? (
          <ListTable
            testid="allowlist"
            columns={[t.allowlist.entry, t.allowlist.description, t.allowlist.addedBy, t.admin.actions]}
          >
            {list.data.entries.map((e) => (
              <tr key={e.entry} data-entry={e.entry}>
                <td>{e.entry}</td>
                <td>{e.description ?? '—'}</td>
                <td>{e.createdBy ?? '—'}</td>
                <td class="buttons">
                  <button
                    type="button"
                    class="danger"
                    data-action="remove-entry"
                    disabled={busy}
                    aria-label={t.allowlist.removeLabel(e.entry)}
                    onClick={() =>
                      void put(
                        entries.filter((x) => x.entry !== e.entry),
                        t.allowlist.removed(e.entry),
                        errorText,
                      )
                    }
                  >
                    {t.allowlist.remove}
                  </button>
                </td>
              </tr>
            ))}
          </ListTable>
        ) : (
          <p data-testid="allowlist-empty">{t.allowlist.empty}</p>
        ))}
      <form
        class="editor"
        data-form="allowlist-add"
        onSubmit={(e) => {
          e.preventDefault();
          void add();
        }}
      >
        <label>
          {t.allowlist.entry}
          <input
            id="allowlist-entry"
            type="text"
            required
            value={entry}
            placeholder="10.0.0.0/8"
            autocomplete="off"
            onInput={(e) => setEntry(e.currentTarget.value)}
          />
          <span class="muted small">
            {t.allowlist.entryHelp('10.0.0.0/8', 'erp.intranet.example', '*.intranet.example')}
          </span>
        </label>
        <label>
          {t.allowlist.descriptionOptional}
          <input
            id="allowlist-description"
            type="text"
            value={description}
            autocomplete="off"
            onInput={(e) => setDescription(e.currentTarget.value)}
          />
        </label>
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {t.allowlist.add}
          </button>
        </div>
      </form>
      {note && (
        <p class={note.ok ? 'ok' : 'error'} role={note.ok ? 'status' : 'alert'} data-testid="allowlist-note">
          {note.text}
        </p>
      )}
    </Section>
  );
}
