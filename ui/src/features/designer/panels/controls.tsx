// Small labelled controls the panels are built from; each reports a value, the panel turns it
// into one command on the document store.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Choice } from '../api';
import type { Doc, Node } from '../model/doc';
import type { DesignProblem } from '../model/problems';
import type { DesignerStore } from '../store';

/** What the selected step's panels get: the step, the document, the store and the step's problems. */
export interface NodePanelProps {
  node: Node;
  doc: Doc;
  store: DesignerStore;
  problems: DesignProblem[] | undefined;
}

export function Text(props: {
  id: string;
  label: ComponentChildren;
  value: string;
  onValue: (v: string) => void;
  multiline?: boolean;
  placeholder?: string;
  list?: string;
  invalid?: boolean;
  describedBy?: string;
}) {
  const { id, label, value, onValue, multiline, placeholder, list, invalid, describedBy } = props;
  const common = {
    id,
    name: id,
    value,
    placeholder,
    'aria-invalid': invalid || undefined,
    'aria-describedby': describedBy,
    onInput: (e: { currentTarget: { value: string } }) => onValue(e.currentTarget.value),
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {multiline ? <textarea rows={3} {...common} /> : <input {...common} list={list} autocomplete="off" />}
    </div>
  );
}

export function Num({
  id,
  label,
  value,
  onValue,
  help,
}: {
  id: string;
  label: string;
  value: number | undefined;
  onValue: (v: number | undefined) => void;
  help?: string;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        name={id}
        type="number"
        value={value ?? ''}
        onInput={(e) => {
          const text = e.currentTarget.value;
          onValue(text === '' ? undefined : Number(text));
        }}
      />
      {help && <span class="muted small">{help}</span>}
    </div>
  );
}

export function Select({
  id,
  label,
  value,
  options,
  onValue,
}: {
  id: string;
  label: string;
  value: string;
  options: Record<string, string>;
  onValue: (v: string) => void;
}) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={id} value={value} onChange={(e) => onValue(e.currentTarget.value)}>
        {value !== '' && !(value in options) && <option value={value}>{value}</option>}
        {Object.entries(options).map(([k, text]) => (
          <option key={k} value={k}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Check({
  id,
  label,
  checked,
  onValue,
}: {
  id: string;
  label: string;
  checked: boolean;
  onValue: (v: boolean) => void;
}) {
  return (
    <label class="check" for={id}>
      <input id={id} name={id} type="checkbox" checked={checked} onChange={(e) => onValue(e.currentTarget.checked)} />{' '}
      {label}
    </label>
  );
}

const loaded = new Map<unknown, Promise<Choice[] | null>>();
/** A directory or catalogue list, loaded once per page per `key` (null: the caller may not read it). */
export function useChoices(load: () => Promise<Choice[]>, key: unknown = load): Choice[] | null | undefined {
  const [list, setList] = useState<Choice[] | null | undefined>(undefined);
  useEffect(() => {
    if (!loaded.has(key))
      loaded.set(
        key,
        load().catch(() => null),
      );
    void loaded.get(key)!.then(setList);
  }, [key]);
  return list;
}
