// A case's condition as rows a process owner fills without code: a form field, an operator suited
// to its type, a value of that type, all joined by "and" or "or". Every change writes the CEL the
// engine runs (model/condition.ts); rows not yet complete are kept here and write nothing.
import { useRef, useState } from 'preact/hooks';
import { t } from '../i18n';
import {
  OPERATORS,
  emptyValue,
  newRule,
  readCondition,
  writeCondition,
  type BuilderField,
  type Condition,
  type Operator,
  type Rule,
  type Scalar,
} from '../model/condition';
import s from './ConditionBuilder.module.css';

export function ConditionBuilder({
  id,
  fields,
  value,
  onValue,
}: {
  id: string;
  fields: BuilderField[];
  /** The case's CEL; it must be one the builder reads (the panel decides). */
  value: string;
  onValue: (cel: string) => void;
}) {
  const c = t.designer.cond;
  const written = useRef(value);
  const [condition, setCondition] = useState<Condition>(() => initial(value, fields));
  // Changed elsewhere (undo, the code view): read it again.
  if (value !== written.current) {
    written.current = value;
    const read = readCondition(value, fields);
    if (read.ok) setCondition(read.condition);
  }
  const update = (next: Condition) => {
    setCondition(next);
    const cel = writeCondition(next, fields);
    if (cel !== written.current) {
      written.current = cel;
      onValue(cel);
    }
  };
  const byName = new Map(fields.map((f) => [f.name, f]));
  const setRule = (i: number, rule: Rule) =>
    update({ ...condition, rules: condition.rules.map((r, k) => (k === i ? rule : r)) });
  return (
    <div data-testid="condition-builder" id={id}>
      {condition.rules.length > 1 && (
        <div class="field">
          <label for={`${id}-join`}>{c.join}</label>
          <select
            id={`${id}-join`}
            value={condition.join}
            onChange={(e) => update({ ...condition, join: e.currentTarget.value as 'and' | 'or' })}
          >
            <option value="and">{c.joins.and}</option>
            <option value="or">{c.joins.or}</option>
          </select>
        </div>
      )}
      {condition.rules.length === 0 && <p class="muted small">{c.noRules}</p>}
      <div class={s.rows}>
        {condition.rules.map((rule, i) => {
          const field = byName.get(rule.field) ?? fields[0];
          const at = `${id}-rule-${i}`;
          return (
            <div key={i} class={s.row} data-rule={i}>
              <select
                id={`${at}-field`}
                aria-label={`${c.field} ${i + 1}`}
                value={field.name}
                onChange={(e) => setRule(i, newRule(byName.get(e.currentTarget.value)!))}
              >
                {fields.map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.label}
                  </option>
                ))}
              </select>
              <select
                id={`${at}-op`}
                class={s.op}
                aria-label={`${c.operator} ${i + 1}`}
                value={rule.op}
                onChange={(e) => {
                  const op = e.currentTarget.value as Operator;
                  const keep = (op === 'in') === (rule.op === 'in') && op !== 'isTrue' && op !== 'isFalse';
                  setRule(i, { ...rule, op, value: keep ? rule.value : emptyValue(op) });
                }}
              >
                {OPERATORS[field.kind].map((op) => (
                  <option key={op} value={op}>
                    {(field.kind === 'number' && c.numberOps[op]) || c.ops[op]}
                  </option>
                ))}
              </select>
              <ValueInput
                id={`${at}-value`}
                label={`${c.value} ${i + 1}`}
                field={field}
                rule={rule}
                onRule={(r) => setRule(i, r)}
              />
              <button
                type="button"
                class="small-button"
                aria-label={`${c.removeRule} (${i + 1})`}
                title={c.removeRule}
                onClick={() => update({ ...condition, rules: condition.rules.filter((_, k) => k !== i) })}
              >
                ×
              </button>
            </div>
          );
        })}
      </div>
      <button
        type="button"
        data-testid="add-rule"
        onClick={() => update({ ...condition, rules: [...condition.rules, newRule(fields[0])] })}
      >
        + {c.addRule}
      </button>
    </div>
  );
}

/** A condition the rules can show, in words (`Leave days > 3 and Leave type is Annual`); null for any other. */
export function conditionSummary(cel: string, fields: BuilderField[]): string | null {
  const read = readCondition(cel, fields);
  if (!read.ok || read.condition.rules.length === 0) return null;
  const c = t.designer.cond;
  const byName = new Map(fields.map((f) => [f.name, f]));
  const shown = (field: BuilderField, v: Scalar) =>
    field.options.find((o) => o.value === v)?.label ??
    (typeof v === 'string' && field.kind === 'text' ? `“${v}”` : String(v));
  return read.condition.rules
    .map((r) => {
      const field = byName.get(r.field)!;
      const op = (field.kind === 'number' && c.numberOps[r.op]) || c.ops[r.op];
      if (r.value === null) return `${field.label} ${op}`;
      const value = Array.isArray(r.value) ? r.value.map((v) => shown(field, v)).join(', ') : shown(field, r.value);
      return `${field.label} ${op} ${value}`;
    })
    .join(` ${c.joinWords[read.condition.join]} `);
}

function initial(value: string, fields: BuilderField[]): Condition {
  const read = readCondition(value, fields);
  if (read.ok && read.condition.rules.length > 0) return read.condition;
  return { join: 'and', rules: fields.length > 0 ? [newRule(fields[0])] : [] };
}

function ValueInput({
  id,
  label,
  field,
  rule,
  onRule,
}: {
  id: string;
  label: string;
  field: BuilderField;
  rule: Rule;
  onRule: (rule: Rule) => void;
}) {
  if (rule.op === 'isTrue' || rule.op === 'isFalse') return null;
  const set = (value: Rule['value']) => onRule({ ...rule, value });
  const optionOf = (text: string): Scalar => field.options.find((o) => String(o.value) === text)?.value ?? text;
  if (field.kind === 'choice' && field.options.length > 0) {
    if (rule.op === 'in') {
      const chosen = Array.isArray(rule.value) ? rule.value : [];
      return (
        <fieldset class={s.choices} id={id} aria-label={label}>
          {field.options.map((o) => (
            <label key={String(o.value)} class="check">
              <input
                type="checkbox"
                value={String(o.value)}
                checked={chosen.includes(o.value)}
                onChange={(e) =>
                  set(
                    e.currentTarget.checked
                      ? field.options.map((x) => x.value).filter((v) => v === o.value || chosen.includes(v))
                      : chosen.filter((v) => v !== o.value),
                  )
                }
              />{' '}
              {o.label}
            </label>
          ))}
        </fieldset>
      );
    }
    return (
      <select
        id={id}
        aria-label={label}
        value={String(rule.value ?? '')}
        onChange={(e) => set(optionOf(e.currentTarget.value))}
      >
        <option value="" disabled>
          {t.designer.cond.pick}
        </option>
        {field.options.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
    );
  }
  const common = {
    id,
    'aria-label': label,
    value: Array.isArray(rule.value) ? rule.value.join(', ') : String(rule.value ?? ''),
    onInput: (e: { currentTarget: { value: string } }) => set(e.currentTarget.value),
  };
  if (field.kind === 'number') return <input type="number" step="any" {...common} />;
  if (field.kind === 'date') return <input type="date" {...common} />;
  return <input type="text" {...common} />;
}
