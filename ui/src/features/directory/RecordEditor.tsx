// The create / edit form of a user, a role or a department: the fields of each kind, the form's
// values for a record, and the request made from them (every filled field on create; only the
// changed ones on edit).
import { useState } from 'preact/hooks';
import { t } from '../../i18n';
import { api, call } from '../../lib/api';
import { FormFooter } from '../../components/ui';

export type Kind = 'user' | 'role' | 'dept';
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
export function RecordEditor({
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
      <FormFooter error={error} errorTestId="editor-error" busy={busy} onCancel={() => onDone(false)} />
    </form>
  );
}
