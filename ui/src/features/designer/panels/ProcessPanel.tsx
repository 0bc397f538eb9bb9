// The process itself: name, key, category, description, its form (fields here, a stored form by
// key, or an external page), repeated approvers and what the initiator may do.
import { FORM_FIELD_TYPES } from '@dsl/forms.js';
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n';
import { loadForms } from '../api';
import type { Doc } from '../model/doc';
import type { DesignerStore } from '../store';
import s from '../designer.module.css';
import { Check, Num, Select, Text, useChoices } from './controls';
import { ActionSwitches, PROCESS_ACTIONS, formFields } from './Permissions';

const MB = 1024 * 1024;
const ACCEPT_EXAMPLE = 'image/*, .pdf';
const acceptList = (text: string) =>
  text
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** An attachment field's `accept`: typed as comma-separated text, stored as a list (empty: left out). */
function AcceptInput({
  id,
  value,
  onValue,
}: {
  id: string;
  value: unknown;
  onValue: (v: string[] | undefined) => void;
}) {
  const list = Array.isArray(value) ? value.map(String) : [];
  const [text, setText] = useState(list.join(', '));
  // An undo or another edit changes the list: show it, unless it is what is being typed.
  useEffect(() => {
    if (acceptList(text).join() !== list.join()) setText(list.join(', '));
  }, [list.join()]);
  return (
    <>
      <Text
        id={id}
        label={t.designer.f.fieldAccept}
        value={text}
        placeholder={ACCEPT_EXAMPLE}
        describedBy={`${id}-help`}
        onValue={(v) => {
          setText(v);
          const next = acceptList(v);
          onValue(next.length ? next : undefined);
        }}
      />
      <small class="muted" id={`${id}-help`}>
        {t.designer.f.fieldAcceptHelp(ACCEPT_EXAMPLE)}
      </small>
    </>
  );
}

const typeOptions = Object.fromEntries(FORM_FIELD_TYPES.map((x) => [x, t.designer.fieldTypes[x] ?? x]));

export function ProcessPanel({ doc, store }: { doc: Doc; store: DesignerStore }) {
  const f = t.designer.f;
  const rc = doc.ruleChain;
  const info: any = rc.additionalInfo ?? {};
  const set = (path: (string | number)[], v: unknown) => store.setProcess(path, v);
  const formType = info.formType ?? 'design';
  const forms = useChoices(loadForms);
  // A designer's wrapper keeps the form at the top level; edits go where it already is.
  const wrapped = !info.form && (doc as any).form;
  const fields = formFields(doc) as Array<Record<string, any>>;
  const setFields = (next: Array<Record<string, any>>) =>
    wrapped
      ? store.run('process', (d) => ({ ...d, form: { ...(d as any).form, fields: next } }), 'form')
      : set(['additionalInfo', 'form'], { ...(info.form ?? {}), fields: next });
  const setFieldAt = (i: number, key: string, v: unknown) =>
    setFields(fields.map((x, k) => (k === i ? { ...x, [key]: v } : x)));
  return (
    <>
      <Text id="p-name" label={f.name} value={rc.name ?? ''} onValue={(v) => set(['name'], v)} />
      <Text id="p-key" label={f.key} value={rc.id ?? ''} onValue={(v) => set(['id'], v)} />
      <Text
        id="p-category"
        label={f.category}
        value={info.category ?? ''}
        onValue={(v) => set(['additionalInfo', 'category'], v || undefined)}
      />
      <Text
        id="p-description"
        label={f.description}
        multiline
        value={info.description ?? ''}
        onValue={(v) => set(['additionalInfo', 'description'], v || undefined)}
      />
      <Select
        id="p-form-type"
        label={f.formType}
        value={formType}
        options={f.formTypes}
        onValue={(v) => set(['additionalInfo', 'formType'], v)}
      />
      {formType === 'system' && (
        <Select
          id="p-form-key"
          label={f.formKey}
          value={info.formKey ?? ''}
          options={Object.fromEntries([['', '—'], ...(forms ?? []).map((x) => [x.id, `${x.label} (${x.id})`])])}
          onValue={(v) => set(['additionalInfo', 'formKey'], v || undefined)}
        />
      )}
      {formType === 'external' && (
        <Text
          id="p-form-url"
          label={f.formUrl}
          value={info.formUrl ?? ''}
          onValue={(v) => set(['additionalInfo', 'formUrl'], v || undefined)}
        />
      )}
      {formType === 'design' && (
        <fieldset data-testid="form-fields">
          <legend>{f.fields}</legend>
          {/* Fields have no id but their place: the name is what is being typed here. */}
          {fields.map((field, i) => (
            <div key={i} class={s.fieldRow} data-field={i}>
              <Text
                id={`p-field-${i}-name`}
                label={f.fieldName}
                value={field.name ?? ''}
                onValue={(v) => setFieldAt(i, 'name', v)}
              />
              <Text
                id={`p-field-${i}-label`}
                label={f.fieldLabel}
                value={field.label ?? ''}
                onValue={(v) => setFieldAt(i, 'label', v || undefined)}
              />
              <Select
                id={`p-field-${i}-type`}
                label={f.fieldType}
                value={field.type ?? 'text'}
                options={typeOptions}
                onValue={(v) => setFieldAt(i, 'type', v)}
              />
              <Check
                id={`p-field-${i}-required`}
                label={f.fieldRequired}
                checked={!!field.required}
                onValue={(v) => setFieldAt(i, 'required', v || undefined)}
              />
              {field.type === 'attachment' && (
                <div data-testid="attachment-options">
                  <Check
                    id={`p-field-${i}-multiple`}
                    label={f.fieldMultiple}
                    checked={!!field.multiple}
                    // One file has no most-files limit: `max` goes with `multiple`.
                    onValue={(v) =>
                      setFields(
                        fields.map((x, k) =>
                          k === i ? { ...x, multiple: v || undefined, max: v ? x.max : undefined } : x,
                        ),
                      )
                    }
                  />
                  <AcceptInput
                    id={`p-field-${i}-accept`}
                    value={field.accept}
                    onValue={(v) => setFieldAt(i, 'accept', v)}
                  />
                  <Num
                    id={`p-field-${i}-max-size`}
                    label={f.fieldMaxSize}
                    value={
                      typeof field.maxFileSize === 'number'
                        ? Math.round((field.maxFileSize / MB) * 100) / 100
                        : undefined
                    }
                    onValue={(v) => setFieldAt(i, 'maxFileSize', v && v > 0 ? Math.round(v * MB) : undefined)}
                  />
                  {field.multiple && (
                    <Num
                      id={`p-field-${i}-max`}
                      label={f.fieldMaxFiles}
                      value={typeof field.max === 'number' ? field.max : undefined}
                      onValue={(v) => setFieldAt(i, 'max', v && v > 0 ? Math.floor(v) : undefined)}
                    />
                  )}
                </div>
              )}
              <button type="button" onClick={() => setFields(fields.filter((_, k) => k !== i))}>
                {f.removeField}
              </button>
            </div>
          ))}
          <button
            type="button"
            data-testid="add-field"
            onClick={() => setFields([...fields, { name: `field${fields.length + 1}`, type: 'text', label: '' }])}
          >
            {f.addField}
          </button>
        </fieldset>
      )}
      <Select
        id="p-repeated"
        label={f.autoApproveRepeated}
        value={info.autoApproveRepeated ?? 'none'}
        options={f.repeated}
        onValue={(v) => set(['additionalInfo', 'autoApproveRepeated'], v === 'none' ? undefined : v)}
      />
      <ActionSwitches
        id="p-act"
        legend={f.processSwitches}
        actions={PROCESS_ACTIONS}
        value={info.actionPermissions}
        onValue={(a, v) => set(['additionalInfo', 'actionPermissions', a], v ? undefined : false)}
      />
    </>
  );
}
