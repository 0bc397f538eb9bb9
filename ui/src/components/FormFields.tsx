// Renders a form of the one form schema (docs/forms.md), embedded or stored: every field type,
// sections and grid columns, required marks, bounds and options, and the caller's permission per
// field (w editable, r read-only, h left out).
import { t } from '../i18n';
import { AttachmentField } from './Attachments';

type Option = string | number | { value: string | number; label?: string };

export interface Field {
  name: string;
  type?: string;
  label?: string;
  required?: boolean;
  default?: unknown;
  options?: Option[];
  min?: number | string;
  max?: number | string;
  pattern?: string;
  multiple?: boolean;
  /** Attachment fields: the types taken (MIME types, `image/*`, `.pdf`) and the most bytes per file. */
  accept?: string[];
  maxFileSize?: number;
  permission?: 'r' | 'w' | 'h';
  placeholder?: string;
  description?: string;
  layout?: { section?: string; row?: number; column?: number; span?: number };
}

export interface FormLayout {
  columns?: number;
  sections?: Array<{ id: string; title?: string; columns?: number }>;
}

export type Values = Record<string, unknown>;

export function fieldsOf(form: unknown): Field[] {
  const fields = (form as { fields?: unknown } | null)?.fields;
  return Array.isArray(fields) ? (fields.filter((f) => f && typeof f.name === 'string') as Field[]) : [];
}

/** Older spellings read as the schema's types (the same table as dsl/forms.ts). */
const ALIASES: Record<string, string> = {
  string: 'text',
  email: 'text',
  integer: 'number',
  int: 'number',
  float: 'number',
  double: 'number',
  decimal: 'number',
  amount: 'money',
  radio: 'select',
  enum: 'select',
  multiselect: 'multi-select',
  checkbox: 'multi-select',
  switch: 'boolean',
  bool: 'boolean',
  list: 'array',
  map: 'object',
  longtext: 'textarea',
};
export const typeOf = (f: Field) => {
  const raw = (f.type ?? 'text').toLowerCase();
  return ALIASES[raw] ?? raw;
};
const numeric = (f: Field) => ['number', 'money'].includes(typeOf(f));
const reference = (f: Field) => ['user', 'department', 'attachment'].includes(typeOf(f));
const optionValue = (o: Option) => (typeof o === 'object' ? o.value : o);
const optionLabel = (o: Option) => (typeof o === 'object' ? (o.label ?? String(o.value)) : String(o));

/** Initial values: each field's `default`. */
export function defaultsOf(fields: Field[]): Values {
  const out: Values = {};
  for (const f of fields) if (f.default !== undefined && f.default !== null) out[f.name] = f.default;
  return out;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** ISO date-time → the local `YYYY-MM-DDTHH:mm` a datetime-local input shows. */
function localInput(v: unknown): string {
  if (typeof v !== 'string' || !v) return '';
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The value to send for what the user typed. */
function parse(f: Field, raw: string): unknown {
  if (raw === '') return undefined;
  const type = typeOf(f);
  if (numeric(f)) return Number(raw);
  if (type === 'datetime') {
    const d = new Date(raw);
    return Number.isNaN(d.getTime()) ? raw : d.toISOString();
  }
  if (type === 'select') return (f.options ?? []).map(optionValue).find((v) => String(v) === raw) ?? raw;
  if (type === 'array' || (reference(f) && f.multiple))
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

const missing = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length);

/** Client-side checks (the API checks the same and answers 400 with the fields). */
export function validate(fields: Field[], values: Values): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const f of fields) {
    if (f.permission === 'r' || f.permission === 'h') continue;
    const v = values[f.name];
    const label = f.label ?? f.name;
    const type = typeOf(f);
    if (missing(v)) {
      if (f.required) errors[f.name] = t.start.fieldRequired(label);
      continue;
    }
    if (numeric(f)) {
      if (typeof v !== 'number' || Number.isNaN(v)) errors[f.name] = t.start.notANumber(label);
      else if (typeof f.min === 'number' && v < f.min) errors[f.name] = t.start.tooSmall(label, f.min);
      else if (typeof f.max === 'number' && v > f.max) errors[f.name] = t.start.tooLarge(label, f.max);
    } else if ((type === 'text' || type === 'textarea') && typeof v === 'string') {
      const n = [...v].length;
      if (typeof f.min === 'number' && n < f.min) errors[f.name] = t.start.tooShort(label, f.min);
      else if (typeof f.max === 'number' && n > f.max) errors[f.name] = t.start.tooLong(label, f.max);
      else if (f.pattern) {
        try {
          if (!new RegExp(`^(?:${f.pattern})$`, 'u').test(v)) errors[f.name] = t.start.pattern(label);
        } catch {
          // An RE2 pattern JavaScript cannot read: the API checks it.
        }
      }
    } else if (type === 'date' && typeof v === 'string') {
      if (typeof f.min === 'string' && v < f.min) errors[f.name] = t.start.tooSmall(label, f.min);
      else if (typeof f.max === 'string' && v > f.max) errors[f.name] = t.start.tooLarge(label, f.max);
    } else if ((type === 'multi-select' || type === 'attachment') && Array.isArray(v)) {
      if (typeof f.min === 'number' && v.length < f.min) errors[f.name] = t.start.tooFew(label, f.min);
      else if (typeof f.max === 'number' && v.length > f.max) errors[f.name] = t.start.tooMany(label, f.max);
    }
  }
  return errors;
}

function FieldInput({
  f,
  id,
  value,
  set,
  invalid,
  describedBy,
  readOnly,
}: {
  f: Field;
  id: string;
  value: unknown;
  set: (v: unknown) => void;
  invalid: boolean;
  describedBy: string | undefined;
  readOnly: boolean;
}) {
  const type = typeOf(f);
  const common = {
    id,
    name: f.name,
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy,
    disabled: readOnly,
    required: f.required && !readOnly,
    placeholder: f.placeholder,
  };
  const bound = (b: unknown) => (typeof b === 'number' || typeof b === 'string' ? b : undefined);
  switch (type) {
    case 'boolean':
      return (
        <input type="checkbox" {...common} checked={value === true} onChange={(e) => set(e.currentTarget.checked)} />
      );
    case 'select':
      return (
        <select {...common} value={show(value)} onChange={(e) => set(parse(f, e.currentTarget.value))}>
          <option value="">—</option>
          {(f.options ?? []).map((o, i) => (
            <option key={`${i}:${String(optionValue(o))}`} value={String(optionValue(o))}>
              {optionLabel(o)}
            </option>
          ))}
        </select>
      );
    case 'multi-select': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <div class="choices" role="group" aria-labelledby={`${id}-label`} aria-describedby={describedBy}>
          {(f.options ?? []).map((o, i) => {
            const v = optionValue(o);
            return (
              <label class="check" key={`${i}:${String(v)}`}>
                <input
                  type="checkbox"
                  id={`${id}-${i}`}
                  name={f.name}
                  value={String(v)}
                  disabled={readOnly}
                  checked={chosen.includes(v)}
                  onChange={(e) => {
                    const next = e.currentTarget.checked ? [...chosen, v] : chosen.filter((x) => x !== v);
                    set(next.length ? next : undefined);
                  }}
                />
                {optionLabel(o)}
              </label>
            );
          })}
        </div>
      );
    }
    case 'attachment':
      return (
        <AttachmentField
          id={id}
          name={f.name}
          value={value}
          set={set}
          readOnly={readOnly}
          multiple={f.multiple}
          accept={Array.isArray(f.accept) ? f.accept : undefined}
          maxFileSize={typeof f.maxFileSize === 'number' ? f.maxFileSize : undefined}
          max={typeof f.max === 'number' ? f.max : undefined}
          describedBy={describedBy}
          invalid={invalid}
        />
      );
    case 'textarea':
      return <textarea {...common} value={show(value)} onInput={(e) => set(parse(f, e.currentTarget.value))} />;
    case 'object':
      return <textarea {...common} value={show(value)} disabled />;
    default: {
      const inputType = numeric(f)
        ? 'number'
        : type === 'date'
          ? 'date'
          : type === 'datetime'
            ? 'datetime-local'
            : (f.type ?? '').toLowerCase() === 'email'
              ? 'email'
              : 'text';
      return (
        <input
          {...common}
          type={inputType as any}
          step={numeric(f) ? (type === 'money' ? '0.01' : 'any') : undefined}
          min={numeric(f) || type === 'date' ? bound(f.min) : undefined}
          max={numeric(f) || type === 'date' ? bound(f.max) : undefined}
          inputMode={type === 'money' ? 'decimal' : undefined}
          placeholder={f.placeholder ?? (reference(f) ? t.start.referenceHint(type, !!f.multiple) : undefined)}
          value={type === 'datetime' ? localInput(value) : show(value)}
          onInput={(e) => set(parse(f, e.currentTarget.value))}
        />
      );
    }
  }
}

function FieldBlock({
  f,
  idPrefix,
  values,
  errors,
  onChange,
}: {
  f: Field;
  idPrefix: string;
  values: Values;
  errors: Record<string, string>;
  onChange: (v: Values) => void;
}) {
  const id = `${idPrefix}-${f.name}`;
  const readOnly = f.permission === 'r';
  const err = errors[f.name];
  const label = f.label ?? f.name;
  const type = typeOf(f);
  const set = (v: unknown) => {
    const next = { ...values };
    if (v === undefined) delete next[f.name];
    else next[f.name] = v;
    onChange(next);
  };
  const help = f.description ? `${id}-help` : undefined;
  const describedBy = [err ? `${id}-err` : undefined, help].filter(Boolean).join(' ') || undefined;
  const span = f.layout?.span;
  return (
    <div
      class={`field${type === 'boolean' ? ' check' : ''} field-${type}`}
      style={span && span > 1 ? { gridColumn: `span ${span}` } : undefined}
      data-field={f.name}
    >
      <label for={type === 'multi-select' || (type === 'attachment' && readOnly) ? undefined : id} id={`${id}-label`}>
        {label}
        {f.required && !readOnly && (
          <span class="req" aria-label={t.common.required}>
            {' '}
            *
          </span>
        )}
        {type === 'money' && <span class="muted"> ({t.start.amount})</span>}
      </label>
      <FieldInput
        f={f}
        id={id}
        value={values[f.name]}
        set={set}
        invalid={!!err}
        describedBy={describedBy}
        readOnly={readOnly}
      />
      {f.description && (
        <small class="muted" id={help}>
          {f.description}
        </small>
      )}
      {err && (
        <span class="error" id={`${id}-err`} role="alert">
          {err}
        </span>
      )}
    </div>
  );
}

const byPosition = (a: Field, b: Field) =>
  (a.layout?.row ?? Infinity) - (b.layout?.row ?? Infinity) ||
  (a.layout?.column ?? Infinity) - (b.layout?.column ?? Infinity);

export function FormFields({
  fields,
  values,
  errors,
  onChange,
  idPrefix = 'f',
  form,
}: {
  fields: Field[];
  values: Values;
  errors: Record<string, string>;
  onChange: (v: Values) => void;
  idPrefix?: string;
  /** The form's own layout (columns, sections); fields without a section come first. */
  form?: FormLayout | null;
}) {
  const shown = fields.filter((f) => f.permission !== 'h');
  const grid = (list: Field[], columns: number | undefined) => (
    <div
      class="fields"
      style={
        columns && columns > 1
          ? { display: 'grid', gridTemplateColumns: `repeat(${columns}, 1fr)`, gap: '0 1rem' }
          : undefined
      }
    >
      {[...list].sort(byPosition).map((f) => (
        <FieldBlock key={f.name} f={f} idPrefix={idPrefix} values={values} errors={errors} onChange={onChange} />
      ))}
    </div>
  );
  const sections = Array.isArray(form?.sections) ? form.sections : [];
  const inSection = new Set(sections.map((s) => s.id));
  const loose = shown.filter((f) => !f.layout?.section || !inSection.has(f.layout.section));
  return (
    <>
      {loose.length > 0 && grid(loose, form?.columns)}
      {sections.map((s) => {
        const list = shown.filter((f) => f.layout?.section === s.id);
        if (!list.length) return null;
        return (
          <fieldset key={s.id} class="form-section" data-section={s.id}>
            {s.title && <legend>{s.title}</legend>}
            {grid(list, s.columns ?? form?.columns)}
          </fieldset>
        );
      })}
    </>
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
