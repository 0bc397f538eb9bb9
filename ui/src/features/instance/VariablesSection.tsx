// The instance's form data: shown with each field's permission at the caller's step, and saved when
// a field is editable there (by the task's assignee) or while the caller's own draft is open.
import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n';
import { ApiError, api, call, errorText, type Task } from '../../lib/api';
import { session } from '../../lib/session';
import { Section } from '../../components/ui';
import { FormFields, apiFieldErrors, fieldsOf, validate, type Values } from '../../components/FormFields';

export function VariablesSection({
  form,
  instance,
  tasks,
  onDone,
}: {
  form: any;
  instance: any;
  tasks: Task[];
  onDone: () => void;
}) {
  const me = session.get()!.userId;
  const fields = fieldsOf(form);
  const [values, setValues] = useState<Values>(instance.variables ?? {});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [msg, setMsg] = useState<{ ok: boolean; text: string } | null>(null);
  useEffect(() => setValues(instance.variables ?? {}), [instance]);
  if (!fields.length) return null;
  const writable = fields.some((f: any) => f.permission === 'w');
  const myTask = tasks.find((x) => x.assignee === me && x.status === 'active');
  const draft = instance.status === 'draft' && instance.initiatorId === me;
  const save = async () => {
    const found = validate(fields, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    const changed: Values = {};
    for (const f of fields)
      if ((f as any).permission === 'w' && values[f.name] !== undefined) changed[f.name] = values[f.name];
    try {
      if (myTask)
        await call(
          api.POST('/api/v1/workflow/tasks/{id}/variables', {
            params: { path: { id: myTask.id } },
            body: { variables: changed },
          }),
        );
      else
        await call(
          api.POST('/api/v1/workflow/process-instances/{id}/variables', {
            params: { path: { id: instance.id } },
            body: { variables: changed },
          }),
        );
      setMsg({ ok: true, text: t.instance.saved });
      onDone();
    } catch (err) {
      if (err instanceof ApiError) setErrors(apiFieldErrors(err.data));
      setMsg({ ok: false, text: errorText(err) });
    }
  };
  return (
    <Section title={t.instance.variables} id="variables">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <FormFields fields={fields} form={form} values={values} errors={errors} onChange={setValues} idPrefix="var" />
        {msg && (
          <p class={msg.ok ? 'ok' : 'error'} role={msg.ok ? 'status' : 'alert'}>
            {msg.text}
          </p>
        )}
        <div class="buttons">
          {writable && (myTask || draft) && <button type="submit">{t.instance.saveVariables}</button>}
        </div>
      </form>
    </Section>
  );
}
