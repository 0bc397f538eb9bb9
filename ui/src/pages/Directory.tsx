// The directory for admins (system:directory:manage): the tenant's default language, then users,
// roles and departments, each listed with create and edit forms; users are deactivated (and
// activated again), roles and departments deleted (the API refuses one still in use, shown in words
// next to the button).
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { LOCALES, LOCALE_NAMES, adoptTenantLocale, t, type Locale } from '../i18n';
import { api, call, errorText } from '../lib/api';
import { session } from '../lib/session';
import { ListTable, Section, useAsync } from '../components/ui';
import { NetworkAllowlist } from '../features/settings/NetworkAllowlist';

type Kind = 'user' | 'role' | 'dept';
type Values = Record<string, string | boolean>;

interface Field {
  name: string;
  label: string;
  type?: 'text' | 'password' | 'checkbox' | 'list';
  /** Needed when creating; fixed (not editable) once created. */
  key?: boolean;
  required?: boolean;
  /** Sent as null when left empty (a cleared reference). */
  nullable?: boolean;
  /** Only when creating (a password is set on create; leave it empty on edit to keep it). */
  createOnly?: boolean;
  help?: string;
}

const FIELDS: Record<Kind, Field[]> = {
  user: [
    { name: 'id', label: t.admin.id, key: true, help: t.admin.idHelp },
    { name: 'username', label: t.login.username, required: true },
    { name: 'displayName', label: t.admin.displayName },
    { name: 'password', label: t.login.password, type: 'password', help: t.admin.passwordHelp },
    { name: 'deptId', label: t.admin.department, nullable: true },
    { name: 'managerId', label: t.admin.manager, nullable: true },
    { name: 'roles', label: t.admin.rolesCol, type: 'list', help: t.admin.listHelp },
    { name: 'active', label: t.admin.activeCol, type: 'checkbox' },
  ],
  role: [
    { name: 'code', label: t.admin.key, key: true, required: true },
    { name: 'name', label: t.admin.name },
    { name: 'permissions', label: t.admin.permissions, type: 'list', help: t.admin.listHelp },
  ],
  dept: [
    { name: 'id', label: t.admin.key, key: true, help: t.admin.idHelp },
    { name: 'name', label: t.admin.name, required: true },
    { name: 'parentId', label: t.admin.parent, nullable: true },
    { name: 'leaderId', label: t.admin.leader, nullable: true },
  ],
};

const list = (v: string) =>
  v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The form's values for a record (or the defaults for a new one). */
function valuesOf(kind: Kind, record: Record<string, unknown> | null): Values {
  const out: Values = {};
  for (const f of FIELDS[kind]) {
    const v = record?.[f.name];
    if (f.type === 'checkbox') out[f.name] = record ? v === true : true;
    else if (f.type === 'list') out[f.name] = Array.isArray(v) ? v.join(', ') : '';
    else if (f.type === 'password') out[f.name] = '';
    else out[f.name] = typeof v === 'string' ? v : '';
  }
  return out;
}

/** The request body: every filled field on create; only the changed ones on edit. */
function bodyOf(kind: Kind, values: Values, initial: Values, isNew: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of FIELDS[kind]) {
    const v = values[f.name]!;
    if (!isNew && (f.key || v === initial[f.name])) continue;
    if (f.type === 'checkbox') body[f.name] = v;
    else if (f.type === 'list') body[f.name] = list(String(v));
    else if (v === '') {
      if (f.nullable && !isNew) body[f.name] = null;
    } else body[f.name] = String(v).trim();
  }
  return body;
}

async function save(kind: Kind, key: string | null, body: Record<string, unknown>) {
  const b = body as any;
  if (kind === 'user')
    return key
      ? call(api.PATCH('/api/v1/users/{id}', { params: { path: { id: key } }, body: b }))
      : call(api.POST('/api/v1/users', { body: b }));
  if (kind === 'role')
    return key
      ? call(api.PATCH('/api/v1/roles/{code}', { params: { path: { code: key } }, body: b }))
      : call(api.POST('/api/v1/roles', { body: b }));
  return key
    ? call(api.PATCH('/api/v1/departments/{id}', { params: { path: { id: key } }, body: b }))
    : call(api.POST('/api/v1/departments', { body: b }));
}

/** A create / edit form for one record; `editing` is the record's key, or null for a new one. */
function Editor({
  kind,
  editing,
  record,
  onDone,
}: {
  kind: Kind;
  editing: string | null;
  record: Record<string, unknown> | null;
  onDone: (saved: boolean) => void;
}) {
  const initial = valuesOf(kind, record);
  const [values, setValues] = useState<Values>(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const isNew = editing === null;
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = bodyOf(kind, values, initial, isNew);
      if (!isNew && !Object.keys(body).length) return onDone(false);
      await save(kind, editing, body);
      onDone(true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const fid = (name: string) => `${kind}-${name}`;
  return (
    <form class="editor" data-form={`${kind}-editor`} onSubmit={(e) => void submit(e)}>
      <h3>{isNew ? t.admin.create[kind] : t.admin.edit(editing)}</h3>
      {FIELDS[kind].map((f) => {
        if (f.key && !isNew) return null;
        if (f.createOnly && !isNew) return null;
        const v = values[f.name];
        if (f.type === 'checkbox')
          return (
            <label key={f.name} class="check">
              <input
                id={fid(f.name)}
                type="checkbox"
                checked={v === true}
                onChange={(e) => setValues({ ...values, [f.name]: e.currentTarget.checked })}
              />
              {f.label}
            </label>
          );
        const required = f.required || (kind === 'user' && f.name === 'password' && isNew);
        return (
          <label key={f.name}>
            {f.label}
            {required && <span class="muted small"> ({t.common.required})</span>}
            <input
              id={fid(f.name)}
              name={f.name}
              {...(f.type === 'password' ? { type: 'password' as const } : { type: 'text' as const })}
              required={required}
              value={String(v ?? '')}
              autocomplete={f.type === 'password' ? 'new-password' : 'off'}
              onInput={(e) => setValues({ ...values, [f.name]: e.currentTarget.value })}
            />
            {f.help && <span class="muted small">{f.help}</span>}
          </label>
        );
      })}
      {error ? (
        <p class="error" role="alert" data-testid="editor-error">
          {errorText(error)}
        </p>
      ) : null}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy}>
          {t.common.save}
        </button>
        <button type="button" onClick={() => onDone(false)}>
          {t.common.cancel}
        </button>
      </div>
    </form>
  );
}

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
}: {
  kind: Kind;
  title: string;
  /** The section's id and the table's test id. */
  id: string;
  list: { data?: { items: T[] }; error?: unknown; reload: (quiet?: boolean) => Promise<void> };
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
      {open && <Editor kind={kind} editing={open.key} record={open.record} onDone={done} />}
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
    </Section>
  );
}

/**
 * The tenant's default language (GET/PUT /api/v1/tenant-settings): the last choice for everyone of
 * the tenant with no language of their own and a browser asking for none of ours. Anyone here sees
 * it; an administrator (workflow:admin) changes it.
 */
function TenantLanguage() {
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
            {LOCALES.map((l) => (
              <option key={l} value={l} lang={l}>
                {LOCALE_NAMES[l]}
              </option>
            ))}
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

export function Directory() {
  const users = useAsync(() => call(api.GET('/api/v1/users', { params: { query: { pageSize: 200 } } })), []);
  const roles = useAsync(() => call(api.GET('/api/v1/roles', { params: { query: { pageSize: 200 } } })), []);
  const depts = useAsync(() => call(api.GET('/api/v1/departments', { params: { query: { pageSize: 200 } } })), []);

  return (
    <>
      <h1>{t.admin.directory}</h1>
      <TenantLanguage />
      <Listing
        kind="user"
        title={t.admin.users}
        id="users"
        list={users}
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
