import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n';
import { ApiError, api, call } from '../lib/api';
import { Link, navigate } from '../lib/router';
import { ErrorText, Loading, Section, TextField, useAsync } from '../components/ui';
import { FilesContext, uploadsInProgress } from '../components/Attachments';
import { FormFields, apiFieldErrors, defaultsOf, fieldsOf, validate, type Values } from '../components/FormFields';

export function StartList() {
  const { data, error, loading } = useAsync(() => call(api.GET('/api/v1/workflow/process-definitions/categories')), []);
  return (
    <>
      <h1>{t.start.title}</h1>
      {loading && <Loading />}
      <ErrorText error={error} />
      {data && !data.length && <p class="card">{t.start.noProcesses}</p>}
      <div class="grid">
        {data?.map((c) => (
          <Section key={c.category ?? ''} title={c.category ?? t.start.uncategorised}>
            <ul class="plain">
              {c.definitions.map((d) => (
                <li key={d.key}>
                  <Link href={`/start/${encodeURIComponent(d.key)}`} class="process-link">
                    {d.name}
                  </Link>
                  {d.description && <p class="muted small">{d.description}</p>}
                </li>
              ))}
            </ul>
          </Section>
        ))}
      </div>
    </>
  );
}

/** A new request has no files yet: they are uploaded through its attachment fields. */
const NO_FILES = {};

export function StartForm({ processKey }: { processKey: string }) {
  const def = useAsync(
    () => call(api.GET('/api/v1/workflow/process-definitions/key/{processKey}', { params: { path: { processKey } } })),
    [processKey],
  );
  const [values, setValues] = useState<Values>({});
  const [businessKey, setBusinessKey] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // The form's defaults fill the fields once the definition is here (what the user typed wins).
  useEffect(() => {
    const d = def.data?.dsl as any;
    const defaults = defaultsOf(fieldsOf(d?.ruleChain?.additionalInfo?.form ?? d?.form ?? null));
    if (Object.keys(defaults).length) setValues((v) => ({ ...defaults, ...v }));
  }, [def.data]);

  if (def.loading) return <Loading />;
  if (!def.data) return <ErrorText error={def.error} />;
  const dsl = def.data.dsl as any;
  const form = dsl?.ruleChain?.additionalInfo?.form ?? dsl?.form ?? null;
  const nodes: any[] = dsl?.metadata?.nodes ?? [];
  const first = nodes[dsl?.metadata?.firstNodeIndex ?? 0];
  const perms: Record<string, string> = first?.additionalInfo?.formPermissions ?? {};
  const fields = fieldsOf(form).map((f) => ({ ...f, permission: (perms[f.name] as any) ?? 'w' }));

  const submit = async (draft: boolean) => {
    const found = validate(fields, values);
    setErrors(found);
    setError(null);
    if (Object.keys(found).length) return;
    if (uploadsInProgress()) return setError(new Error(t.files.wait));
    setBusy(true);
    try {
      const started = await call(
        api.POST('/api/v1/workflow/process-instances/start', {
          body: {
            processKey,
            businessKey: businessKey || undefined,
            variables: values,
            ...(draft ? { draft: true } : {}),
          },
        }),
      );
      navigate(`/instances/${encodeURIComponent(started.instanceId)}?${draft ? 'draft=1' : 'started=1'}`);
    } catch (err) {
      if (err instanceof ApiError) setErrors(apiFieldErrors(err.data));
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p>
        <Link href="/start">← {t.start.back}</Link>
      </p>
      <h1>{def.data.name}</h1>
      {def.data.description && <p class="muted">{def.data.description}</p>}
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          void submit(false);
        }}
        noValidate
        aria-label={def.data.name}
      >
        <TextField
          id="businessKey"
          label={t.start.businessKey}
          name="businessKey"
          value={businessKey}
          onValue={setBusinessKey}
          aria-describedby="businessKey-help"
        >
          <small id="businessKey-help" class="muted">
            {t.start.businessKeyHelp}
          </small>
        </TextField>
        <FilesContext.Provider value={{ files: NO_FILES, processKey }}>
          <FormFields
            fields={fields}
            form={form}
            values={values}
            errors={errors}
            onChange={setValues}
            idPrefix="start"
          />
        </FilesContext.Provider>
        <ErrorText error={error} />
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>
            {t.start.submit}
          </button>
          <button type="button" disabled={busy} onClick={() => void submit(true)}>
            {t.start.saveDraft}
          </button>
        </div>
      </form>
    </>
  );
}
