// The one form schema (docs/forms.md): embedded forms (`formType: "design"`) and stored forms
// (`/api/v1/forms`) are both checked by `formSchemaProblems`, and every value a client sends for a
// form (start, submit-draft, set-variables) is checked by `formValueProblems`. Pure code.
import { z } from 'zod';
import { compilePattern, PatternError, patternMatches } from './matches.js';
import { finding, schemaFinding, type Finding } from './problems.js';

/** The field types of the schema, as the console renders them. */
export const FORM_FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'money',
  'date',
  'datetime',
  'select',
  'multi-select',
  'user',
  'department',
  'boolean',
  'attachment',
] as const;
export type FormFieldType = (typeof FORM_FIELD_TYPES)[number];

/** Older spellings accepted in embedded forms, each read as its canonical type. */
export const FORM_TYPE_ALIASES: Record<string, FormFieldType | 'array' | 'object'> = {
  double: 'number',
  bool: 'boolean',
  list: 'array',
  map: 'object',
  string: 'text',
  email: 'text',
  integer: 'number',
  int: 'number',
  float: 'number',
  amount: 'money',
  radio: 'select',
  multiselect: 'multi-select',
  checkbox: 'multi-select',
  switch: 'boolean',
};

/** Generic types older forms use: any array / any object, no further checks. */
const GENERIC_TYPES = ['array', 'object'] as const;

export const MAX_FORM_FIELDS = 200;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const optionValue = z.union([z.string(), z.number()]);
const option = z.union([optionValue, z.object({ value: optionValue, label: z.string().max(200).optional() }).strict()]);
const bound = z.union([z.number(), z.string().max(40)]);

const layout = z
  .object({
    section: z.string().min(1).max(100).optional(),
    row: z.number().int().min(0).max(1000).optional(),
    column: z.number().int().min(0).max(23).optional(),
    span: z.number().int().min(1).max(24).optional(),
  })
  .strict();

export const formFieldSchema = z
  .object({
    name: z.string().regex(NAME, 'must be an identifier (letters, digits, _; not starting with a digit)').max(100),
    label: z.string().max(200).optional(),
    type: z
      .enum([...FORM_FIELD_TYPES, ...GENERIC_TYPES, ...(Object.keys(FORM_TYPE_ALIASES) as [string, ...string[]])])
      .optional(),
    required: z.boolean().optional(),
    default: z.unknown().optional(),
    options: z.array(option).max(500).optional(),
    min: bound.optional(),
    max: bound.optional(),
    pattern: z.string().max(500).optional(),
    multiple: z.boolean().optional().describe('user, department, attachment: a list of references'),
    accept: z
      .array(z.string().min(1).max(100))
      .max(50)
      .optional()
      .describe('attachment: the types taken, judged from the bytes (MIME types, image/* wildcards, .pdf extensions)'),
    maxFileSize: z.number().int().positive().optional().describe('attachment: the largest file, in bytes'),
    placeholder: z.string().max(200).optional(),
    description: z.string().max(1000).optional(),
    layout: layout.optional(),
  })
  .strict();
export type FormFieldSpec = z.infer<typeof formFieldSchema>;

export const formSchema = z
  .object({
    title: z.string().max(200).optional(),
    description: z.string().max(2000).optional(),
    columns: z.number().int().min(1).max(4).optional().describe('grid columns of the form (default 1)'),
    sections: z
      .array(
        z
          .object({
            id: z.string().min(1).max(100),
            title: z.string().max(200).optional(),
            columns: z.number().int().min(1).max(4).optional(),
          })
          .strict(),
      )
      .max(50)
      .optional(),
    fields: z.array(formFieldSchema).max(MAX_FORM_FIELDS).optional(),
  })
  .strict();
export type FormSpec = z.infer<typeof formSchema>;

export interface FormProblem extends Finding {
  /** Dotted path inside the form, e.g. `fields[2].options` ('' for the form itself). */
  field: string;
}

/** The canonical type of a field (untyped fields are text, as they always were). */
export function canonicalType(type: string | undefined): FormFieldType | 'array' | 'object' {
  if (!type) return 'text';
  if (Object.hasOwn(FORM_TYPE_ALIASES, type)) return FORM_TYPE_ALIASES[type];
  return type as FormFieldType | 'array' | 'object';
}

const optionValues = (f: FormFieldSpec) =>
  (f.options ?? []).map((o) => (typeof o === 'object' && o !== null ? o.value : o));

const zodPath = (path: PropertyKey[]) =>
  path.reduce<string>((s, p) => (typeof p === 'number' ? `${s}[${p}]` : s ? `${s}.${String(p)}` : String(p)), '');

/** Everything wrong with a form schema; empty when it is valid. */
export function formSchemaProblems(input: unknown): FormProblem[] {
  const parsed = formSchema.safeParse(input);
  if (!parsed.success)
    return parsed.error.issues.map((i) => ({ field: zodPath(i.path), ...schemaFinding('form.invalid', i) }));
  const form = parsed.data;
  const problems: FormProblem[] = [];
  const report = (field: string, f: Finding) => problems.push({ field, ...f });
  const sections = new Set<string>();
  (form.sections ?? []).forEach((s, i) => {
    if (sections.has(s.id)) report(`sections[${i}].id`, finding('form.duplicateSection', { id: s.id }));
    sections.add(s.id);
  });
  const names = new Set<string>();
  (form.fields ?? []).forEach((f, i) => {
    const at = (k: string) => `fields[${i}].${k}`;
    if (names.has(f.name)) report(at('name'), finding('form.duplicateField', { name: f.name }));
    names.add(f.name);
    const type = canonicalType(f.type);
    const choice = type === 'select' || type === 'multi-select';
    if (choice && !f.options?.length) report(at('options'), finding('form.optionsRequired', { type }));
    if (!choice && f.options !== undefined) report(at('options'), finding('form.optionsNotAllowed'));
    if (choice) {
      const values = optionValues(f).map(String);
      if (new Set(values).size !== values.length) report(at('options'), finding('form.optionsNotDistinct'));
    }
    const textual = type === 'text' || type === 'textarea';
    if (f.pattern !== undefined) {
      if (!textual) report(at('pattern'), finding('form.patternNotAllowed'));
      else
        try {
          compilePattern(f.pattern);
        } catch (e) {
          if (!(e instanceof PatternError)) throw e;
          report(at('pattern'), finding('form.patternInvalid', { error: e.message }));
        }
    }
    if (f.multiple !== undefined && !['user', 'department', 'attachment'].includes(type))
      report(at('multiple'), finding('form.multipleNotAllowed'));
    for (const k of ['accept', 'maxFileSize'] as const)
      if (f[k] !== undefined && type !== 'attachment') report(at(k), finding('form.attachmentOnly', { key: k }));
    for (const k of ['min', 'max'] as const) {
      const b = f[k];
      if (b === undefined) continue;
      if (type === 'date' || type === 'datetime') {
        if (typeof b !== 'string' || !validTime(b, type)) report(at(k), finding('form.boundNotTime', { type }));
      } else if (['text', 'textarea', 'number', 'money', 'multi-select', 'attachment'].includes(type)) {
        if (typeof b !== 'number' || !Number.isFinite(b)) report(at(k), finding('value.notNumber'));
        else if (type !== 'number' && type !== 'money' && (!Number.isInteger(b) || b < 0))
          report(at(k), finding('form.boundNotCount'));
      } else report(at(k), finding('form.boundNotAllowed', { type, bound: k }));
    }
    if (f.min !== undefined && f.max !== undefined && problems.every((p) => !p.field.startsWith(`fields[${i}].m`))) {
      if (compare(f.min, f.max, type) > 0) report(at('min'), finding('form.minAboveMax'));
    }
    if (f.layout?.section !== undefined && !sections.has(f.layout.section))
      report(at('layout.section'), finding('form.unknownSection', { section: f.layout.section }));
    if (f.default !== undefined && f.default !== null) {
      const bad = valueProblem(f, f.default);
      if (bad) report(at('default'), finding('form.defaultInvalid', { error: bad }));
    }
  });
  return problems;
}

function validTime(v: string, type: 'date' | 'datetime'): boolean {
  if (type === 'date') {
    if (!DATE.test(v)) return false;
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
  }
  return DATETIME.test(v) && !Number.isNaN(Date.parse(v));
}

function compare(a: number | string, b: number | string, type: string): number {
  if (type === 'datetime') return Date.parse(String(a)) - Date.parse(String(b));
  if (type === 'date') return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
  return Number(a) - Number(b);
}

const isMissing = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function bounds(f: FormFieldSpec, measured: number | string, what: string, type: string): string | null {
  if (f.min !== undefined && compare(measured, f.min, type) < 0) return `${what} below the minimum ${f.min}`;
  if (f.max !== undefined && compare(measured, f.max, type) > 0) return `${what} above the maximum ${f.max}`;
  return null;
}

function reference(v: unknown, multiple: boolean | undefined, kind: string): string | null {
  const one = (x: unknown) => typeof x === 'string' && x.trim() !== '';
  if (multiple) return Array.isArray(v) && v.every(one) ? null : `expected a list of ${kind} ids`;
  return one(v) ? null : `expected a ${kind} id`;
}

/** Why a (present) value does not fit its field, or null when it does. */
function valueProblem(f: FormFieldSpec, v: unknown): string | null {
  const type = canonicalType(f.type);
  switch (type) {
    case 'text':
    case 'textarea': {
      if (typeof v !== 'string') return 'expected text';
      const lengthProblem = bounds(f, [...v].length, 'length', 'number');
      if (lengthProblem) return lengthProblem;
      if (f.pattern !== undefined) {
        try {
          if (!patternMatches(v, `^(?:${f.pattern})$`)) return `does not match the pattern ${f.pattern}`;
        } catch (e) {
          if (e instanceof PatternError) return e.message;
          throw e;
        }
      }
      return null;
    }
    case 'number':
    case 'money':
      if (typeof v !== 'number' || !Number.isFinite(v)) return `expected a ${type === 'money' ? 'money amount' : type}`;
      return bounds(f, v, 'value', 'number');
    case 'date':
    case 'datetime':
      if (typeof v !== 'string' || !validTime(v, type))
        return type === 'date' ? 'expected a date (YYYY-MM-DD)' : 'expected an ISO-8601 date-time with a time zone';
      return bounds(f, v, 'value', type);
    case 'boolean':
      return typeof v === 'boolean' ? null : 'expected true or false';
    case 'select': {
      const values = optionValues(f);
      return values.some((o) => o === v) ? null : `not one of the options (${values.join(', ')})`;
    }
    case 'multi-select': {
      if (!Array.isArray(v)) return 'expected a list of options';
      const values = optionValues(f);
      const unknown = v.filter((x) => !values.some((o) => o === x));
      if (unknown.length) return `not among the options: ${unknown.map(String).join(', ')}`;
      if (new Set(v).size !== v.length) return 'an option is chosen twice';
      return bounds(f, v.length, 'count', 'number');
    }
    case 'user':
      return reference(v, f.multiple, 'user');
    case 'department':
      return reference(v, f.multiple, 'department');
    case 'attachment':
      return reference(v, f.multiple, 'attachment');
    case 'array':
      return Array.isArray(v) ? null : 'expected a list';
    case 'object':
      return typeof v === 'object' && !Array.isArray(v) ? null : 'expected an object';
    default:
      return null;
  }
}

export interface FieldValueProblem {
  /** The field (variable) name. */
  path: string;
  message: string;
}

/**
 * Values checked against a form: each field's type, options and bounds, and (with requireAll)
 * required fields. Variables the form does not declare are left alone. `only` limits the check to
 * the names being written (a partial update).
 */
export function formValueProblems(
  form: unknown,
  values: Record<string, unknown>,
  opts: { requireAll: boolean; only?: readonly string[] },
): FieldValueProblem[] {
  const fields = (form as { fields?: unknown } | null | undefined)?.fields;
  if (!Array.isArray(fields)) return [];
  const problems: FieldValueProblem[] = [];
  for (const f of fields as FormFieldSpec[]) {
    if (!f || typeof f.name !== 'string') continue;
    if (opts.only && !opts.only.includes(f.name) && !opts.requireAll) continue;
    const v = Object.hasOwn(values, f.name) ? values[f.name] : undefined;
    if (isMissing(v)) {
      if (f.required && opts.requireAll) problems.push({ path: f.name, message: 'required' });
      // An explicit empty value is still checked for its type (an empty list for text is wrong).
      if (v === undefined || v === null) continue;
      if (v === '' && ['text', 'textarea'].includes(canonicalType(f.type))) continue;
      if (Array.isArray(v) && ['multi-select', 'array'].includes(canonicalType(f.type))) continue;
      if (Array.isArray(v) && f.multiple) continue;
    }
    const bad = valueProblem(f, v);
    if (bad) problems.push({ path: f.name, message: bad });
  }
  return problems;
}

/** The CEL type conditions see for a field (docs/forms.md#conditions). */
export function fieldCelType(f: { type?: unknown; multiple?: unknown }): string | undefined {
  if (typeof f.type !== 'string') return undefined;
  const type = canonicalType(f.type);
  if (f.multiple === true) return 'list';
  switch (type) {
    case 'number':
    case 'money':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'multi-select':
    case 'array':
      return 'list';
    case 'object':
      return 'map';
    case 'text':
    case 'textarea':
    case 'date':
    case 'datetime':
    case 'user':
    case 'department':
    case 'attachment':
      return 'string';
    case 'select':
      // Options may be numbers: only an all-text option list is typed.
      return (f as FormFieldSpec).options?.every((o) => typeof (typeof o === 'object' ? o.value : o) === 'string')
        ? 'string'
        : 'dyn';
    default:
      return f.type; // a CEL type name written directly
  }
}
