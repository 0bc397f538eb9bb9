// The directory for admins (system:directory:manage): users, roles and departments, each listed
// with create and edit forms; users are deactivated (and activated again), roles and departments
// deleted (the API refuses one still in use, shown in words next to the button).
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { api, call, errorText } from '../lib/api';
import { ErrorText, ListTable, Section, useAsync } from '../components/ui';

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
            <label class="check">
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
          <label>
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

/** One section's editing state: which record's form is open, and the last row action's outcome. */
function useEditing() {
  const [open, setOpen] = useState<{ key: string | null; record: Record<string, unknown> | null } | null>(null);
  const [note, setNote] = useState<{ key: string; ok: boolean; text: string } | null>(null);
  return { open, setOpen, note, setNote };
}

function RowNote({ note, id }: { note: { key: string; ok: boolean; text: string } | null; id: string }) {
  if (!note || note.key !== id) return null;
  return (
    <div class={note.ok ? 'ok small' : 'error small'} role="status" data-testid="row-note">
      {note.text}
    </div>
  );
}

function DeleteButton({ onDelete }: { onDelete: () => void }) {
  return (
    <button type="button" class="danger" data-action="delete" onClick={onDelete}>
      {t.admin.delete}
    </button>
  );
}

export function Directory() {
  const users = useAsync(() => call(api.GET('/api/v1/users', { params: { query: { pageSize: 200 } } })), []);
  const roles = useAsync(() => call(api.GET('/api/v1/roles', { params: { query: { pageSize: 200 } } })), []);
  const depts = useAsync(() => call(api.GET('/api/v1/departments', { params: { query: { pageSize: 200 } } })), []);
  const u = useEditing();
  const r = useEditing();
  const d = useEditing();

  const done = (ed: ReturnType<typeof useEditing>, reload: () => unknown) => (saved: boolean) => {
    const key = ed.open?.key ?? '';
    ed.setOpen(null);
    if (saved) {
      ed.setNote({ key, ok: true, text: t.admin.saved });
      void reload();
    }
  };
  /** A row action (deactivate, delete): its outcome is shown on the row. */
  const rowAction = async (ed: ReturnType<typeof useEditing>, key: string, run: () => Promise<unknown>, ok: string) => {
    try {
      await run();
      ed.setNote({ key, ok: true, text: ok });
    } catch (err) {
      ed.setNote({ key, ok: false, text: errorText(err) });
    }
  };
  /** Deletes a row once the user confirms it. */
  const deleteRow = (ed: ReturnType<typeof useEditing>, key: string, run: () => Promise<unknown>) => {
    if (window.confirm(t.admin.confirmDelete(key))) void rowAction(ed, key, run, t.admin.deleted);
  };

  return (
    <>
      <h1>{t.admin.directory}</h1>
      <Section title={t.admin.users} id="users">
        <ErrorText error={users.error} />
        <button type="button" data-action="new-user" onClick={() => u.setOpen({ key: null, record: null })}>
          {t.admin.create.user}
        </button>
        {u.open && (
          <Editor kind="user" editing={u.open.key} record={u.open.record} onDone={done(u, () => users.reload(true))} />
        )}
        <ListTable
          testid="users"
          columns={[
            t.login.username,
            t.admin.displayName,
            t.admin.department,
            t.admin.manager,
            t.admin.rolesCol,
            t.admin.activeCol,
            t.admin.actions,
          ]}
        >
          {users.data?.items.map((x) => (
            <tr data-user-id={x.id} class={x.active ? undefined : 'muted'}>
              <td>
                {x.username}
                <RowNote note={u.note} id={x.id} />
              </td>
              <td>{x.displayName ?? ''}</td>
              <td>{x.deptId ?? '—'}</td>
              <td>{x.managerId ?? '—'}</td>
              <td>{x.roles.join(', ')}</td>
              <td>{x.active ? t.common.yes : t.common.no}</td>
              <td class="buttons">
                <button type="button" data-action="edit" onClick={() => u.setOpen({ key: x.id, record: x })}>
                  {t.admin.editButton}
                </button>
                <button
                  type="button"
                  data-action={x.active ? 'deactivate' : 'activate'}
                  onClick={() =>
                    void rowAction(
                      u,
                      x.id,
                      async () => {
                        await call(
                          api.PATCH('/api/v1/users/{id}', {
                            params: { path: { id: x.id } },
                            body: { active: !x.active },
                          }),
                        );
                        await users.reload(true);
                      },
                      x.active ? t.admin.deactivated : t.admin.activated,
                    )
                  }
                >
                  {x.active ? t.admin.deactivateUser : t.admin.activateUser}
                </button>
              </td>
            </tr>
          ))}
        </ListTable>
      </Section>
      <Section title={t.admin.roles} id="roles">
        <ErrorText error={roles.error} />
        <button type="button" data-action="new-role" onClick={() => r.setOpen({ key: null, record: null })}>
          {t.admin.create.role}
        </button>
        {r.open && (
          <Editor kind="role" editing={r.open.key} record={r.open.record} onDone={done(r, () => roles.reload(true))} />
        )}
        <ListTable testid="roles" columns={[t.admin.key, t.admin.name, t.admin.permissions, t.admin.actions]}>
          {roles.data?.items.map((x) => (
            <tr data-role={x.code}>
              <td>
                {x.code}
                <RowNote note={r.note} id={x.code} />
              </td>
              <td>{x.name}</td>
              <td>{x.permissions.join(', ')}</td>
              <td class="buttons">
                <button type="button" data-action="edit" onClick={() => r.setOpen({ key: x.code, record: x })}>
                  {t.admin.editButton}
                </button>
                <DeleteButton
                  onDelete={() =>
                    deleteRow(r, x.code, async () => {
                      await call(api.DELETE('/api/v1/roles/{code}', { params: { path: { code: x.code } } }));
                      await roles.reload(true);
                    })
                  }
                />
              </td>
            </tr>
          ))}
        </ListTable>
      </Section>
      <Section title={t.admin.departments} id="departments">
        <ErrorText error={depts.error} />
        <button type="button" data-action="new-dept" onClick={() => d.setOpen({ key: null, record: null })}>
          {t.admin.create.dept}
        </button>
        {d.open && (
          <Editor kind="dept" editing={d.open.key} record={d.open.record} onDone={done(d, () => depts.reload(true))} />
        )}
        <ListTable
          testid="departments"
          columns={[t.admin.key, t.admin.name, t.admin.parent, t.admin.leader, t.admin.actions]}
        >
          {depts.data?.items.map((x) => (
            <tr data-dept-id={x.id}>
              <td>
                {x.id}
                <RowNote note={d.note} id={x.id} />
              </td>
              <td>{x.name}</td>
              <td>{x.parentId ?? '—'}</td>
              <td>{x.leaderId ?? '—'}</td>
              <td class="buttons">
                <button type="button" data-action="edit" onClick={() => d.setOpen({ key: x.id, record: x })}>
                  {t.admin.editButton}
                </button>
                <DeleteButton
                  onDelete={() =>
                    deleteRow(d, x.id, async () => {
                      await call(api.DELETE('/api/v1/departments/{id}', { params: { path: { id: x.id } } }));
                      await depts.reload(true);
                    })
                  }
                />
              </td>
            </tr>
          ))}
        </ListTable>
      </Section>
    </>
  );
}
