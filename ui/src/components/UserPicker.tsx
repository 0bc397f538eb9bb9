// Picks users from the directory (GET /users, for those allowed to read it); for everyone else
// a text field suggesting the people already seen on the instance. The API checks the id.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n';
import { CheckList } from './CheckList';
import { api, call } from '../lib/api';
import { session } from '../lib/session';

// The directory as the open session sees it. A page holds one session (a logout or a login as
// someone else loads a fresh page: lib/session.ts); keying by token keeps that true here too.
let directory: { token: string | undefined; users: Promise<Array<{ id: string; label: string }> | null> } | null = null;
export function loadDirectory() {
  const token = session.get()?.token;
  if (directory?.token !== token) directory = null;
  directory ??= {
    token,
    users: call(api.GET('/api/v1/users', { params: { query: { page: 1, pageSize: 200 } } }))
      .then((p) =>
        p.items
          .filter((u) => u.active)
          .map((u) => ({ id: u.id, label: u.displayName ? `${u.displayName} (${u.username})` : u.username })),
      )
      .catch(() => null),
  };
  return directory.users;
}

export function UserPicker({
  id,
  label,
  multiple,
  value,
  onChange,
  known,
  exclude = [],
}: {
  id: string;
  label: string;
  multiple?: boolean;
  value: string[];
  onChange: (v: string[]) => void;
  known: string[];
  exclude?: string[];
}) {
  const [people, setPeople] = useState<Array<{ id: string; label: string }> | null | undefined>(undefined);
  const [filter, setFilter] = useState('');
  useEffect(() => {
    void loadDirectory().then(setPeople);
  }, []);
  if (people === undefined) return <p class="muted">{t.common.loading}</p>;
  if (people === null) {
    // Not allowed to read the directory: type the user ids, with suggestions.
    const listId = `${id}-known`;
    return (
      <div class="field">
        <label for={id}>{label}</label>
        <input
          id={id}
          name={id}
          list={listId}
          value={value.join(', ')}
          placeholder={multiple ? t.action.userIds : t.action.userId}
          onInput={(e) =>
            onChange(
              e.currentTarget.value
                .split(',')
                .map((s) => s.trim())
                .filter(Boolean),
            )
          }
        />
        <datalist id={listId}>
          {known
            .filter((k) => !exclude.includes(k))
            .map((k) => (
              <option key={k} value={k} />
            ))}
        </datalist>
      </div>
    );
  }
  const shown = people.filter(
    (p) =>
      !exclude.includes(p.id) &&
      (!filter || p.label.toLowerCase().includes(filter.toLowerCase()) || p.id.includes(filter)),
  );
  return (
    <fieldset class="picker">
      <legend>{label}</legend>
      <label class="small">
        {t.action.pickUser}
        <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} name={`${id}-search`} />
      </label>
      {multiple ? (
        <div class="picker-list" role="group" aria-label={label}>
          <CheckList name={id} items={shown} value={value} onChange={onChange} />
        </div>
      ) : (
        <select
          id={id}
          name={id}
          size={Math.min(6, Math.max(2, shown.length))}
          value={value[0] ?? ''}
          onChange={(e) => onChange([e.currentTarget.value])}
          aria-label={label}
        >
          {shown.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      )}
    </fieldset>
  );
}
