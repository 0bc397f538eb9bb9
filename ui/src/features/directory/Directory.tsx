// The directory for admins (system:directory:manage): the tenant's default language, then users,
// roles and departments, each listed with create and edit forms; users are deactivated (and
// activated again), roles and departments deleted (the API refuses one still in use, shown in words
// next to the button). Each list is searched and paged on the server, its search and page in the
// URL (`?users.q=wang&users.page=2`), so a view survives a reload and can be shared.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { api, call, errorText } from '../../lib/api';
import { location, useLocation } from '../../lib/router';
import { session } from '../../lib/session';
import { ListTable, Pager, Section, useAsync } from '../../components/ui';
import { words } from '../../components/PeoplePicker.words';
import { NetworkAllowlist } from './NetworkAllowlist';
import { RecordEditor, type Kind } from './RecordEditor';
import { TenantLanguage } from './TenantLanguage';

type Note = { key: string; ok: boolean; text: string };

function RowNote({ note, id }: { note: Note | null; id: string }) {
  if (!note || note.key !== id) return null;
  return (
    <div class={note.ok ? 'ok small' : 'error small'} role="status" data-testid="row-note">
      {note.text}
    </div>
  );
}

type Row = Record<string, unknown>;

const PAGE_SIZE = 50;
const SEARCH_DEBOUNCE_MS = 250;

/** One list's search text and page, read from and written to the URL (replacing the entry: typing is not history). */
function useListQuery(list: string) {
  const { query } = useLocation();
  const q = query.get(`${list}.q`) ?? '';
  const page = Math.max(1, Math.floor(Number(query.get(`${list}.page`))) || 1);
  const set = (next: { q: string; page: number }) => {
    const params = new URLSearchParams(window.location.search);
    if (next.q) params.set(`${list}.q`, next.q);
    else params.delete(`${list}.q`);
    if (next.page > 1) params.set(`${list}.page`, String(next.page));
    else params.delete(`${list}.page`);
    const search = params.toString();
    const url = window.location.pathname + (search ? `?${search}` : '');
    history.replaceState(null, '', url);
    location.set(url);
  };
  return { q, page, set };
}

/** A list's page from the server for the URL's search text and page. */
function usePagedList<T>(
  list: string,
  load: (query: { q?: string; page: number; pageSize: number }) => Promise<{ items: T[]; total: number }>,
) {
  const { q, page, set } = useListQuery(list);
  const data = useAsync(() => load({ ...(q ? { q } : {}), page, pageSize: PAGE_SIZE }), [q, page]);
  return { ...data, q, page, set };
}

/** The search box of a list: what is typed goes to the URL once typing pauses (and back to page 1). */
function ListSearch({
  id,
  label,
  q,
  onSearch,
}: {
  id: string;
  label: string;
  q: string;
  onSearch: (q: string) => void;
}) {
  const [text, setText] = useState(q);
  // Back and forward (or a link) change the URL's search: the box follows, unless it already says that.
  useEffect(() => {
    if (q !== text.trim()) setText(q);
  }, [q]);
  useEffect(() => {
    if (text.trim() === q) return;
    const timer = setTimeout(() => onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={id}
        type="search"
        autocomplete="off"
        value={text}
        onInput={(e) => setText(e.currentTarget.value)}
      />
    </div>
  );
}

type RowRun = (run: () => Promise<unknown>, ok: string) => void;

/**
 * One kind's section: a button for a new record, the create / edit form, and its records, one row each, with
 * an edit button and the row's own action (`action`, or a delete button given `remove`). A row action reloads
 * the list; its outcome, like a save's, is shown on the row.
 */
function Listing<T extends Row>({
  kind,
  title,
  id,
  list,
  columns,
  keyOf,
  nameOf = keyOf,
  rowProps,
  cells,
  action,
  remove,
  searchLabel,
}: {
  kind: Kind;
  title: string;
  /** The section's id and the table's test id. */
  id: string;
  list: {
    data?: { items: T[]; total: number };
    error?: unknown;
    reload: (quiet?: boolean) => Promise<void>;
    q: string;
    page: number;
    set: (next: { q: string; page: number }) => void;
  };
  /** The search box's label. */
  searchLabel: string;
  /** The column headings but the last (the actions'). */
  columns: string[];
  keyOf: (x: T) => string;
  /** The first cell's text. */
  nameOf?: (x: T) => string;
  /** The row's attributes: its data-* id and class. */
  rowProps: (x: T) => Record<string, string | undefined>;
  /** The cells between the first and the actions. */
  cells: (x: T) => ComponentChildren;
  action?: (x: T, run: RowRun) => ComponentChildren;
  /** Deletes a record (once the user confirms it). */
  remove?: (key: string) => Promise<unknown>;
}) {
  const [open, setOpen] = useState<{ key: string | null; record: Row | null } | null>(null);
  const [note, setNote] = useState<Note | null>(null);

  const done = (saved: boolean) => {
    const key = open?.key ?? '';
    setOpen(null);
    if (saved) {
      setNote({ key, ok: true, text: t.admin.saved });
      void list.reload(true);
    }
  };
  const rowAction = async (key: string, run: () => Promise<unknown>, ok: string) => {
    try {
      await run();
      await list.reload(true);
      setNote({ key, ok: true, text: ok });
    } catch (err) {
      setNote({ key, ok: false, text: errorText(err) });
    }
  };

  return (
    <Section title={title} id={id} error={list.error}>
      <button type="button" data-action={`new-${kind}`} onClick={() => setOpen({ key: null, record: null })}>
        {t.admin.create[kind]}
      </button>
      {open && <RecordEditor kind={kind} editing={open.key} record={open.record} onDone={done} />}
      <ListSearch id={`${id}-search`} label={searchLabel} q={list.q} onSearch={(q) => list.set({ q, page: 1 })} />
      <ListTable testid={id} columns={[...columns, t.admin.actions]}>
        {list.data?.items.map((x) => {
          const key = keyOf(x);
          return (
            <tr key={key} {...rowProps(x)}>
              <td>
                {nameOf(x)}
                <RowNote note={note} id={key} />
              </td>
              {cells(x)}
              <td class="buttons">
                <button type="button" data-action="edit" onClick={() => setOpen({ key, record: x })}>
                  {t.admin.editButton}
                </button>
                {action?.(x, (run, ok) => void rowAction(key, run, ok))}
                {remove && (
                  <button
                    type="button"
                    class="danger"
                    data-action="delete"
                    onClick={() => {
                      if (window.confirm(t.admin.confirmDelete(key)))
                        void rowAction(key, () => remove(key), t.admin.deleted);
                    }}
                  >
                    {t.admin.delete}
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </ListTable>
      {list.data && list.data.items.length === 0 && list.q && <p class="muted">{words.none}</p>}
      {list.data && (
        <Pager
          page={list.page}
          pageSize={PAGE_SIZE}
          total={list.data.total}
          onPage={(page) => list.set({ q: list.q, page })}
        />
      )}
    </Section>
  );
}

export function Directory() {
  const users = usePagedList('users', (query) => call(api.GET('/api/v1/users', { params: { query } })));
  const roles = usePagedList('roles', (query) => call(api.GET('/api/v1/roles', { params: { query } })));
  const depts = usePagedList('departments', (query) => call(api.GET('/api/v1/departments', { params: { query } })));

  return (
    <>
      <h1>{t.admin.directory}</h1>
      <TenantLanguage />
      <Listing
        kind="user"
        title={t.admin.users}
        id="users"
        list={users}
        searchLabel={words.search.user}
        columns={[
          t.login.username,
          t.admin.displayName,
          t.admin.department,
          t.admin.manager,
          t.admin.rolesCol,
          t.admin.activeCol,
        ]}
        keyOf={(x) => x.id}
        nameOf={(x) => x.username}
        rowProps={(x) => ({ 'data-user-id': x.id, class: x.active ? undefined : 'muted' })}
        cells={(x) => (
          <>
            <td>{x.displayName ?? ''}</td>
            <td>{x.deptId ?? '—'}</td>
            <td>{x.managerId ?? '—'}</td>
            <td>{x.roles.join(', ')}</td>
            <td>{x.active ? t.common.yes : t.common.no}</td>
          </>
        )}
        action={(x, run) => (
          <button
            type="button"
            data-action={x.active ? 'deactivate' : 'activate'}
            onClick={() =>
              run(
                () =>
                  call(
                    api.PATCH('/api/v1/users/{id}', { params: { path: { id: x.id } }, body: { active: !x.active } }),
                  ),
                x.active ? t.admin.deactivated : t.admin.activated,
              )
            }
          >
            {x.active ? t.admin.deactivateUser : t.admin.activateUser}
          </button>
        )}
      />
      <Listing
        kind="role"
        title={t.admin.roles}
        id="roles"
        list={roles}
        searchLabel={words.search.role}
        columns={[t.admin.key, t.admin.name, t.admin.permissions]}
        keyOf={(x) => x.code}
        rowProps={(x) => ({ 'data-role': x.code })}
        cells={(x) => (
          <>
            <td>{x.name}</td>
            <td>{x.permissions.join(', ')}</td>
          </>
        )}
        remove={(code) => call(api.DELETE('/api/v1/roles/{code}', { params: { path: { code } } }))}
      />
      <Listing
        kind="dept"
        title={t.admin.departments}
        id="departments"
        list={depts}
        searchLabel={words.search.dept}
        columns={[t.admin.key, t.admin.name, t.admin.parent, t.admin.leader]}
        keyOf={(x) => x.id}
        rowProps={(x) => ({ 'data-dept-id': x.id })}
        cells={(x) => (
          <>
            <td>{x.name}</td>
            <td>{x.parentId ?? '—'}</td>
            <td>{x.leaderId ?? '—'}</td>
          </>
        )}
        remove={(id) => call(api.DELETE('/api/v1/departments/{id}', { params: { path: { id } } }))}
      />
      {session.get()?.can.admin && <NetworkAllowlist />}
    </>
  );
}
