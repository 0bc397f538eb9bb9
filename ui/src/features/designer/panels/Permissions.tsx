// Designer switches (which actions approvers may take here) and field permissions (read, write,
// hidden per form field). Only explicit choices are written: "as the form says" removes the key.
import { t } from '../i18n';
import type { Doc, Node } from '../model/doc';
import type { DesignerStore } from '../store';
import { Check, Select } from './controls';

export const NODE_ACTIONS = [
  'transfer',
  'delegate',
  'return',
  'addSign',
  'reduceSign',
  'addComment',
  'terminate',
  'recall',
];
export const PROCESS_ACTIONS = ['withdraw', 'urge', 'suspend', 'terminate', 'resubmit', 'recall'];

export function formFields(doc: Doc): Array<{ name: string; label?: string }> {
  const form: any = doc.ruleChain.additionalInfo?.form ?? (doc as any).form;
  return Array.isArray(form?.fields) ? form.fields.filter((f: any) => typeof f?.name === 'string') : [];
}

export function ActionSwitches({
  id,
  legend,
  actions,
  value,
  onValue,
}: {
  id: string;
  legend: string;
  actions: string[];
  value: Record<string, boolean> | undefined;
  onValue: (action: string, allowed: boolean) => void;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {actions.map((a) => (
        <Check
          key={a}
          id={`${id}-${a}`}
          label={t.designer.f.actions[a] ?? a}
          checked={value?.[a] !== false}
          onValue={(v) => onValue(a, v)}
        />
      ))}
    </fieldset>
  );
}

export function NodeSwitches({ node, store }: { node: Node; store: DesignerStore }) {
  return (
    <ActionSwitches
      id={`${node.id}-act`}
      legend={t.designer.f.switches}
      actions={NODE_ACTIONS}
      value={node.additionalInfo?.actionPermissions}
      // Allowed is the default: true removes the key, so only refusals are written.
      onValue={(a, v) => store.setField(node.id, ['additionalInfo', 'actionPermissions', a], v ? undefined : false)}
    />
  );
}

export function FieldPermissions({ node, doc, store }: { node: Node; doc: Doc; store: DesignerStore }) {
  const f = t.designer.f;
  const fields = formFields(doc);
  const perms = node.additionalInfo?.formPermissions ?? {};
  return (
    <fieldset data-testid="field-permissions">
      <legend>{f.permissions}</legend>
      {fields.length === 0 && <p class="muted small">{f.noFields}</p>}
      {fields.map((field) => (
        <Select
          key={field.name}
          id={`${node.id}-perm-${field.name}`}
          label={field.label ?? field.name}
          value={perms[field.name] ?? ''}
          options={f.permissionValues}
          onValue={(v) => store.setField(node.id, ['additionalInfo', 'formPermissions', field.name], v || undefined)}
        />
      ))}
    </fieldset>
  );
}
