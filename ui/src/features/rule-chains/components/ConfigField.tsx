// One configuration key of a node, drawn from its ComponentForm field: a check box for a bool, a
// number for an int or float, a text area for a script or an expression, JSON for a map, a list or a
// struct, a line of text otherwise. JSON that does not parse stays in the box (with a note) and is
// not written into the document.
import { useEffect, useState } from 'preact/hooks';
import type { ComponentField } from '../types';
import { t } from '../i18n';
import css from '../rule-chains.module.css';

type Kind = 'bool' | 'number' | 'json' | 'script' | 'select' | 'text';

function kindOf(f: ComponentField, value: unknown): Kind {
  const type = (f.type || '').toLowerCase();
  const hint = String(f.component?.type ?? '').toLowerCase();
  if (f.component?.options?.length || f.options?.length) return 'select';
  if (type === 'bool' || type === 'boolean') return 'bool';
  if (/^(int|int32|int64|uint|float|float32|float64|number|integer)$/.test(type)) return 'number';
  if (/^(map|object|struct|array|slice|json)/.test(type) || type.startsWith('[]') || type.startsWith('map['))
    return 'json';
  if (value !== null && typeof value === 'object') return 'json';
  if (f.kind === 'script' || f.kind === 'expr') return 'script';
  if (/textarea|code|script|editor/.test(hint) || /script|expr|template|body|condition/i.test(f.name)) return 'script';
  if (typeof value === 'string' && value.includes('\n')) return 'script';
  return 'text';
}

export function ConfigField({
  field,
  value,
  problems,
  readOnly,
  onValue,
}: {
  field: ComponentField;
  value: unknown;
  problems: string[];
  readOnly: boolean;
  onValue: (v: unknown) => void;
}) {
  const kind = kindOf(field, value);
  const id = `cfg-${field.name}`;
  const label = field.label || field.name;
  const invalid = problems.length > 0;
  const described = [field.desc ? `${id}-desc` : '', invalid ? `${id}-problem` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    name: field.name,
    disabled: readOnly,
    'aria-invalid': invalid || undefined,
    'aria-describedby': described || undefined,
    class: invalid ? css.invalid : undefined,
  };
  const [text, setText] = useState(() => (kind === 'json' ? JSON.stringify(value ?? null, null, 2) : ''));
  const [jsonError, setJsonError] = useState(false);
  // The document changed under the box (another panel, a reload): show it, unless the box holds a draft.
  useEffect(() => {
    if (kind !== 'json') return;
    try {
      if (JSON.stringify(JSON.parse(text)) === JSON.stringify(value ?? null)) return;
    } catch {
      /* a draft that does not parse: replaced by the new value below */
    }
    setText(JSON.stringify(value ?? null, null, 2));
    setJsonError(false);
  }, [value]);

  let control;
  if (kind === 'bool')
    control = (
      <input {...common} type="checkbox" checked={value === true} onChange={(e) => onValue(e.currentTarget.checked)} />
    );
  else if (kind === 'number')
    control = (
      <input
        {...common}
        type="number"
        value={typeof value === 'number' ? String(value) : ''}
        onInput={(e) => {
          const raw = e.currentTarget.value;
          onValue(raw === '' ? undefined : Number(raw));
        }}
      />
    );
  else if (kind === 'select')
    control = (
      <select {...common} value={String(value ?? '')} onChange={(e) => onValue(e.currentTarget.value)}>
        {(field.component?.options ?? (field.options ?? []).map((v) => ({ value: v, label: v }))).map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label ?? String(o.value)}
          </option>
        ))}
      </select>
    );
  else if (kind === 'json')
    control = (
      <textarea
        {...common}
        class={`${css.code} ${invalid || jsonError ? css.invalid : ''}`}
        rows={Math.min(10, Math.max(3, text.split('\n').length))}
        spellcheck={false}
        value={text}
        onInput={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          try {
            onValue(JSON.parse(next));
            setJsonError(false);
          } catch {
            setJsonError(true);
          }
        }}
      />
    );
  else if (kind === 'script')
    control = (
      <textarea
        {...common}
        class={`${css.code} ${invalid ? css.invalid : ''}`}
        rows={field.kind === 'expr' ? 2 : Math.min(12, Math.max(3, String(value ?? '').split('\n').length + 1))}
        spellcheck={false}
        value={typeof value === 'string' ? value : ''}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    );
  else
    control = (
      <input
        {...common}
        value={value === undefined || value === null ? '' : String(value)}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
    );

  return (
    <div class={`field ${kind === 'bool' ? css.checkField : ''}`} data-field={field.name}>
      <label for={id}>
        {label}
        {field.required && <span class="muted small"> ({t.common.required})</span>}
        {label !== field.name && <code class={css.key}>{field.name}</code>}
      </label>
      {control}
      {field.desc && (
        <p id={`${id}-desc`} class="muted small">
          {field.desc}
        </p>
      )}
      {field.ignored && <p class="muted small">{t.ruleChains.ignoredField}</p>}
      {jsonError && <p class="error small">{t.ruleChains.badJson}</p>}
      {invalid && (
        <p id={`${id}-problem`} class="error small" data-testid="field-problem">
          {problems.join(' ')}
        </p>
      )}
    </div>
  );
}
