// The condition builder's model: rows of field → operator → value joined by one "and" or "or",
// written as the CEL the engine runs (`msg.days > 3 && msg.type == "annual"`) and read back from
// it. The reader takes exactly what the writer writes (spacing, `and`/`or` and single quotes
// aside); anything else stays in the code view, with the reason. Pure code.
import { canonicalType } from '@dsl/forms.js';

export type FieldKind = 'number' | 'text' | 'choice' | 'boolean' | 'date';
export type Scalar = string | number;

export interface BuilderField {
  name: string;
  label: string;
  kind: FieldKind;
  /** choice fields: their options. */
  options: Array<{ value: Scalar; label: string }>;
}

export type Operator =
  | 'eq'
  | 'ne'
  | 'lt'
  | 'le'
  | 'gt'
  | 'ge'
  | 'contains'
  | 'startsWith'
  | 'in'
  | 'isTrue'
  | 'isFalse'
  | 'before'
  | 'after';

export interface Rule {
  field: string;
  op: Operator;
  /** Scalar for comparisons, a list for `in`, null for isTrue/isFalse. */
  value: Scalar | Scalar[] | null;
}

export interface Condition {
  join: 'and' | 'or';
  rules: Rule[];
}

/** Why a condition cannot be shown as rows (the code view says it). */
export type Unreadable =
  | { reason: 'syntax' }
  | { reason: 'mixedJoin' }
  | { reason: 'grouping' }
  | { reason: 'unknownField'; name: string }
  | { reason: 'operator'; name: string };

export const OPERATORS: Record<FieldKind, Operator[]> = {
  number: ['eq', 'ne', 'lt', 'le', 'gt', 'ge'],
  text: ['eq', 'ne', 'contains', 'startsWith'],
  choice: ['eq', 'ne', 'in'],
  boolean: ['isTrue', 'isFalse'],
  date: ['before', 'after', 'eq'],
};

const COMPARE: Partial<Record<Operator, string>> = {
  eq: '==',
  ne: '!=',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
  before: '<',
  after: '>',
};

/** The fields a condition can name, from the process form (types the builder has no rows for are left out). */
export function builderFields(form: unknown): BuilderField[] {
  const fields = (form as { fields?: unknown } | null | undefined)?.fields;
  if (!Array.isArray(fields)) return [];
  const out: BuilderField[] = [];
  for (const f of fields as Array<Record<string, unknown> | null>) {
    if (!f || typeof f.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name)) continue;
    if (f.multiple === true) continue;
    const kind = kindOf(typeof f.type === 'string' ? f.type : undefined);
    if (!kind) continue;
    const options = Array.isArray(f.options)
      ? (f.options as unknown[]).flatMap((o) => {
          const value = o && typeof o === 'object' ? (o as { value?: unknown }).value : o;
          if (typeof value !== 'string' && typeof value !== 'number') return [];
          const label = o && typeof o === 'object' ? (o as { label?: unknown }).label : undefined;
          return [{ value, label: typeof label === 'string' && label ? label : String(value) }];
        })
      : [];
    // A choice without options (the form check refuses it) is tested as text.
    out.push({
      name: f.name,
      label: typeof f.label === 'string' && f.label ? f.label : f.name,
      kind: kind === 'choice' && options.length === 0 ? 'text' : kind,
      options,
    });
  }
  return out;
}

function kindOf(type: string | undefined): FieldKind | null {
  switch (canonicalType(type)) {
    case 'number':
    case 'money':
      return 'number';
    case 'text':
    case 'textarea':
      return 'text';
    case 'select':
      return 'choice';
    case 'boolean':
      return 'boolean';
    case 'date':
    case 'datetime':
      return 'date';
    default:
      return null;
  }
}

/** A new row for `field`: its first operator and an empty value. */
export function newRule(field: BuilderField): Rule {
  const op = OPERATORS[field.kind][0];
  return { field: field.name, op, value: emptyValue(op) };
}

export const emptyValue = (op: Operator): Rule['value'] =>
  op === 'in' ? [] : op === 'isTrue' || op === 'isFalse' ? null : '';

/** Whether the row says something (an empty value writes nothing). */
export function complete(rule: Rule): boolean {
  if (rule.op === 'isTrue' || rule.op === 'isFalse') return true;
  if (rule.op === 'in') return Array.isArray(rule.value) && rule.value.length > 0;
  return rule.value !== null && !Array.isArray(rule.value) && String(rule.value).trim() !== '';
}

const literal = (v: Scalar, kind: FieldKind | undefined): string => {
  if (typeof v === 'number') return String(v);
  if (kind === 'number' && /^-?\d+(\.\d+)?$/.test(v.trim())) return String(Number(v.trim()));
  return JSON.stringify(v);
};

function writeRule(rule: Rule, kind: FieldKind | undefined): string {
  const left = `msg.${rule.field}`;
  switch (rule.op) {
    case 'isTrue':
      return `${left} == true`;
    case 'isFalse':
      return `${left} == false`;
    case 'contains':
    case 'startsWith':
      return `${left}.${rule.op}(${JSON.stringify(String(rule.value))})`;
    case 'in':
      return `${left} in [${(rule.value as Scalar[]).map((v) => literal(v, kind)).join(', ')}]`;
    default:
      return `${left} ${COMPARE[rule.op]} ${literal(rule.value as Scalar, kind)}`;
  }
}

/** The CEL of the complete rows ('' when none is). */
export function writeCondition(c: Condition, fields: readonly BuilderField[]): string {
  const kinds = new Map(fields.map((f) => [f.name, f.kind]));
  return c.rules
    .filter(complete)
    .map((r) => writeRule(r, kinds.get(r.field)))
    .join(c.join === 'and' ? ' && ' : ' || ');
}

// ---- reading ----

type Tok =
  | { t: 'msg'; name: string }
  | { t: 'op'; v: string }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number }
  | {
      t: 'word';
      v: string;
    };

function tokens(src: string): Tok[] | null {
  const out: Tok[] = [];
  let i = 0;
  while (i < src.length) {
    const rest = src.slice(i);
    const ws = /^\s+/.exec(rest);
    if (ws) {
      i += ws[0].length;
      continue;
    }
    const field = /^msg\.([A-Za-z_][A-Za-z0-9_]*)/.exec(rest);
    const op = /^(&&|\|\||==|!=|<=|>=|<|>|\[|\]|,|\(|\)|\.)/.exec(rest);
    const num = /^-?\d+(\.\d+)?(?![\w.])/.exec(rest);
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest);
    if (field) {
      out.push({ t: 'msg', name: field[1] });
      i += field[0].length;
    } else if (rest[0] === '"' || rest[0] === "'") {
      const end = stringEnd(src, i);
      if (end < 0) return null;
      const body = src.slice(i + 1, end);
      let text: string;
      try {
        text = JSON.parse(`"${rest[0] === "'" ? body.replace(/\\'/g, "'").replace(/"/g, '\\"') : body}"`) as string;
      } catch {
        return null;
      }
      out.push({ t: 'str', v: text });
      i = end + 1;
    } else if (num) {
      out.push({ t: 'num', v: Number(num[0]) });
      i += num[0].length;
    } else if (op) {
      out.push({ t: 'op', v: op[0] });
      i += op[0].length;
    } else if (word) {
      out.push({ t: 'word', v: word[0] });
      i += word[0].length;
    } else return null;
  }
  return out;
}

function stringEnd(src: string, start: number): number {
  const quote = src[start];
  for (let i = start + 1; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === quote) return i;
  }
  return -1;
}

const OP_OF: Record<string, Operator> = { '==': 'eq', '!=': 'ne', '<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge' };

/** The rows of a condition the builder wrote; why not, for anything else. An empty condition is no rows. */
export function readCondition(
  src: string,
  fields: readonly BuilderField[],
): { ok: true; condition: Condition } | { ok: false; why: Unreadable } {
  const toks = tokens(src);
  if (!toks) return { ok: false, why: { reason: 'syntax' } };
  const byName = new Map(fields.map((f) => [f.name, f]));
  const rules: Rule[] = [];
  let join: 'and' | 'or' | null = null;
  let i = 0;
  const syntax = { ok: false as const, why: { reason: 'syntax' as const } };
  while (i < toks.length) {
    const head = toks[i++];
    if (head.t !== 'msg') {
      if (head.t === 'op' && head.v === '(') return { ok: false, why: { reason: 'grouping' } };
      if (head.t === 'word' && !['true', 'false', 'in'].includes(head.v))
        return { ok: false, why: { reason: 'operator', name: head.v } };
      return syntax;
    }
    const field = byName.get(head.name);
    if (!field) return { ok: false, why: { reason: 'unknownField', name: head.name } };
    const next = toks[i++];
    if (!next) return syntax;
    let rule: Rule;
    if (next.t === 'op' && next.v === '.') {
      const method = toks[i++];
      const [open, arg, close] = [toks[i++], toks[i++], toks[i++]];
      if (method?.t !== 'word' || !['contains', 'startsWith'].includes(method.v) || field.kind !== 'text')
        return { ok: false, why: { reason: 'operator', name: method?.t === 'word' ? method.v : '.' } };
      if (open?.t !== 'op' || open.v !== '(' || arg?.t !== 'str' || close?.t !== 'op' || close.v !== ')') return syntax;
      rule = { field: field.name, op: method.v as Operator, value: arg.v };
    } else if (next.t === 'word' && next.v === 'in') {
      if (toks[i]?.t !== 'op' || (toks[i] as { v: string }).v !== '[') return syntax;
      i++;
      const values: Scalar[] = [];
      for (;;) {
        const v = toks[i++];
        if (v?.t === 'str' || v?.t === 'num') values.push(v.v);
        else return syntax;
        const sep = toks[i++];
        if (sep?.t === 'op' && sep.v === ']') break;
        if (sep?.t !== 'op' || sep.v !== ',') return syntax;
      }
      if (field.kind !== 'choice') return { ok: false, why: { reason: 'operator', name: 'in' } };
      rule = { field: field.name, op: 'in', value: values };
    } else if (next.t === 'op' && Object.hasOwn(OP_OF, next.v)) {
      const v = toks[i++];
      let op = OP_OF[next.v];
      if (v?.t === 'word' && (v.v === 'true' || v.v === 'false')) {
        if (field.kind !== 'boolean' || (op !== 'eq' && op !== 'ne')) return syntax;
        rule = { field: field.name, op: (v.v === 'true') === (op === 'eq') ? 'isTrue' : 'isFalse', value: null };
      } else if (v?.t === 'str' || v?.t === 'num') {
        if (field.kind === 'date') {
          if (op === 'lt') op = 'before';
          else if (op === 'gt') op = 'after';
        }
        if (!OPERATORS[field.kind].includes(op)) return { ok: false, why: { reason: 'operator', name: next.v } };
        if (field.kind === 'number' && v.t !== 'num') return syntax;
        rule = { field: field.name, op, value: v.v };
      } else return syntax;
    } else return syntax;
    rules.push(rule);
    if (i < toks.length) {
      const j = toks[i++];
      const word = j.t === 'op' ? j.v : j.t === 'word' ? j.v : '';
      const kind = word === '&&' || word === 'and' ? 'and' : word === '||' || word === 'or' ? 'or' : null;
      if (!kind) return syntax;
      if (join && join !== kind) return { ok: false, why: { reason: 'mixedJoin' } };
      join = kind;
      if (i >= toks.length) return syntax;
    }
  }
  return { ok: true, condition: { join: join ?? 'and', rules } };
}
