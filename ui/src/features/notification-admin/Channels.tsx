// The tenant's channels: a list with edit, enable / disable, delete and "Send test"; the form for a
// new channel or an edited one (ChannelEditor.tsx) and the test panel (ChannelTest.tsx) open above it.
import { useState } from 'preact/hooks';
import { t } from './i18n';
import { errorText } from '../../lib/api';
import { ListTable, Loading, Section, useAsync } from '../../components/ui';
import { contentShown } from '../../lib/store';
import { MESSAGE_KINDS, deleteChannel, listChannels, replaceChannel, type Channel } from './api';
import { ChannelEditor } from './ChannelEditor';
import { ChannelTest } from './ChannelTest';
import { FIELDS, targetOf, toggledBody } from './channelForm';
import { fieldName, kindName, typeName } from './labels';
import css from './notification-admin.module.css';

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
        <ChannelEditor
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
        <ChannelTest key={open.channel.id} channel={open.channel} onClose={() => setOpen(null)} />
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
