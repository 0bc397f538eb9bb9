// A form built from a definition's form fields: { name, type, label, required, options }.
import { t } from '../i18n';

export interface Field {
  name: string;
  type?: string;
  label?: string;
  required?: boolean;
  options?: Array<string | { value: string; label?: string }>;
  permission?: 'r' | 'w' | 'h';
  placeholder?: string;
  description?: string;
}

export type Values = Record<string, unknown>;

export function fieldsOf(form: unknown): Field[] {
  const fields = (form as { fields?: unknown } | null)?.fields;
  return Array.isArray(fields) ? (fields.filter((f) => f && typeof f.name === 'string') as Field[]) : [];
}

const numeric = (f: Field) =>
  ['number', 'integer', 'int', 'float', 'decimal', 'money', 'amount'].includes((f.type ?? '').toLowerCase());
const boolean = (f: Field) => ['boolean', 'bool', 'checkbox', 'switch'].includes((f.type ?? '').toLowerCase());
const list = (f: Field) => ['array', 'list', 'users', 'tags'].includes((f.type ?? '').toLowerCase());

/** The value to send for what the user typed. */
function parse(f: Field, raw: string | boolean): unknown {
  if (typeof raw === 'boolean') return raw;
  if (raw === '') return undefined;
  if (numeric(f)) return Number(raw);
  if (list(f))
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  return raw;
}

function show(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** Client-side checks; the API's own answer (400 with fields) is shown as well. */
export function validate(fields: Field[], values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    if (f.permission === 'r' || f.permission === 'h') continue;
    const v = values[f.name];
    const label = f.label ?? f.name;
    if (f.required && (v === undefined || v === '' || (Array.isArray(v) && !v.length)))
      errors[f.name] = t.start.fieldRequired(label);
    else if (v !== undefined && numeric(f) && Number.isNaN(v as number)) errors[f.name] = t.start.notANumber(label);
  }
  return errors;
}

export function FormFields({
  fields,
  values,
  errors,
  onChange,
  idPrefix = 'f',
}: {
  fields: Field[];
  values: Values;
  errors: Record<string, string>;
  onChange: (v: Values) => void;
  idPrefix?: string;
}) {
  return (
    <div class="fields">
      {fields.map((f) => {
        if (f.permission === 'h') return null;
        const id = `${idPrefix}-${f.name}`;
        const readOnly = f.permission === 'r';
        const err = errors[f.name];
        const label = f.label ?? f.name;
        const set = (raw: string | boolean) => {
          const next = { ...values };
          const v = parse(f, raw);
          if (v === undefined) delete next[f.name];
          else next[f.name] = v;
          onChange(next);
        };
        const common = {
          id,
          name: f.name,
          'aria-invalid': err ? true : undefined,
          'aria-describedby': err ? `${id}-err` : undefined,
          disabled: readOnly,
          required: f.required && !readOnly,
        };
        let input;
        const type = (f.type ?? 'string').toLowerCase();
        if (boolean(f))
          input = (
            <input
              type="checkbox"
              {...common}
              checked={values[f.name] === true}
              onChange={(e) => set(e.currentTarget.checked)}
            />
          );
        else if (f.options?.length || type === 'select' || type === 'enum')
          input = (
            <select {...common} value={show(values[f.name])} onChange={(e) => set(e.currentTarget.value)}>
              <option value="">—</option>
              {(f.options ?? []).map((o) => {
                const value = typeof o === 'string' ? o : o.value;
                return <option value={value}>{typeof o === 'string' ? o : (o.label ?? o.value)}</option>;
              })}
            </select>
          );
        else if (type === 'textarea' || type === 'text' || type === 'longtext')
          input = <textarea {...common} value={show(values[f.name])} onInput={(e) => set(e.currentTarget.value)} />;
        else
          input = (
            <input
              {...common}
              type={
                (numeric(f)
                  ? 'number'
                  : type === 'date'
                    ? 'date'
                    : type === 'datetime'
                      ? 'datetime-local'
                      : type === 'email'
                        ? 'email'
                        : 'text') as any
              }
              step={numeric(f) ? 'any' : undefined}
              value={show(values[f.name])}
              onInput={(e) => set(e.currentTarget.value)}
            />
          );
        return (
          <div class={`field${boolean(f) ? ' check' : ''}`}>
            <label for={id}>
              {label}
              {f.required && !readOnly && (
                <span class="req" aria-label={t.common.required}>
                  {' '}
                  *
                </span>
              )}
            </label>
            {input}
            {f.description && <small class="muted">{f.description}</small>}
            {err && (
              <span class="error" id={`${id}-err`} role="alert">
                {err}
              </span>
            )}
          </div>
        );
      })}
    </div>
  );
}

/** Field errors of a 400 answer (`data.fields[].path` = `variables.<name>`), by field name. */
export function apiFieldErrors(data: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of Array.isArray(data?.fields) ? data.fields : []) {
    if (typeof f === 'string') {
      out[f] = t.action.notWritable; // 403 FIELD_NOT_WRITABLE names the fields
      continue;
    }
    const m = /^variables\.([^.]+)/.exec(f?.path ?? '');
    if (m) out[m[1]!] = f.message;
  }
  return out;
}
