import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n';
import { ApiError, api, call, type Definition } from '../lib/api';
import { Link, navigate } from '../lib/router';
import { useUrlFilters } from '../lib/url-state';
import { NoMatch } from '../components/ListFilters';
import { ErrorText, Field, Loading, Pager, Section, fmtTime, useAsync, useRowActions } from '../components/ui';
import { Diagram } from '../components/Diagram';

interface Problem {
  nodeId: string | null;
  field?: string;
  message: string;
}

const STATUSES = ['draft', 'active', 'retired'] as const;
const FILTERS = ['q', 'status', 'category'] as const;

export function Definitions() {
  const { values, page, set, active } = useUrlFilters(FILTERS);
  const { q, status, category } = values;
  const list = useAsync(
    () =>
      call(
        api.GET('/api/v1/workflow/process-definitions', {
          params: {
            query: {
              page,
              pageSize: 20,
              ...(q ? { q } : {}),
              ...(category ? { category } : {}),
              ...((STATUSES as readonly string[]).includes(status)
                ? { status: status as (typeof STATUSES)[number] }
                : {}),
            },
          },
        }),
      ),
    [page, q, status, category],
  );
  const cats = useAsync(() => call(api.GET('/api/v1/workflow/process-definitions/categories')), []);
  const [text, setText] = useState(q);
  useEffect(() => setText(q), [q]);
  const labels = { q: t.lists.search, status: t.lists.status, category: t.lists.category };
  const shown = (k: (typeof FILTERS)[number]) => (k === 'status' ? (t.definitionStatus[status] ?? status) : values[k]);
  const [versionsOf, setVersionsOf] = useState<string | null>(null);
  const rowActions = useRowActions(() => list.reload(true));
  // Activate a definition that is not active, retire the active one: POST …/process-definitions/{id}/<action>.
  const lifecycle = (d: Definition) =>
    (['activate', 'retire'] as const).map((action) => ({
      label: t.admin[action],
      when: action === 'retire' ? d.status === 'active' : d.status !== 'active',
      run: () =>
        call(api.POST(`/api/v1/workflow/process-definitions/{id}/${action}`, { params: { path: { id: d.id } } })),
    }));

  return (
    <>
      <h1>
        {t.admin.definitions}{' '}
        <button type="button" class="primary" data-testid="new-process" onClick={() => navigate('/admin/designer/new')}>
          {t.admin.newProcess}
        </button>
      </h1>
      <ImportPanel onDeployed={() => void list.reload(true)} />
      <Section title={t.admin.definitions} id="definitions">
        <form
          class="filters"
          role="search"
          data-testid="definition-filters"
          onSubmit={(e) => {
            e.preventDefault();
            set({ q: text });
          }}
        >
          <label>
            {t.lists.search}
            <input
              type="search"
              name="q"
              value={text}
              placeholder={t.lists.searchDefinitions}
              maxLength={200}
              onInput={(e) => setText(e.currentTarget.value)}
            />
          </label>
          <label>
            {t.lists.status}
            <select name="status" value={status} onChange={(e) => set({ status: e.currentTarget.value })}>
              <option value="">{t.lists.anyStatus}</option>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t.definitionStatus[s] ?? s}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t.lists.category}
            <select name="category" value={category} onChange={(e) => set({ category: e.currentTarget.value })}>
              <option value="">{t.lists.anyCategory}</option>
              {category && !cats.data?.some((c) => c.category === category) && (
                <option value={category}>{category}</option>
              )}
              {cats.data
                ?.filter((c) => c.category)
                .map((c) => (
                  <option key={c.category} value={c.category!}>
                    {c.category}
                  </option>
                ))}
            </select>
          </label>
          <button type="submit">{t.lists.search}</button>
        </form>
        {list.loading && !list.data && <Loading />}
        <ErrorText error={list.error} />
        {list.data && !list.data.items.length && (
          <NoMatch
            filters={active.map((k) => ({ key: k, label: labels[k], value: shown(k) }))}
            onClear={(k) => set(k ? { [k]: '' } : { q: '', status: '', category: '' })}
          />
        )}
        {!!list.data?.items.length && (
          <div class="table-wrap stack-on-phone">
            <table class="list">
              <thead>
                <tr>
                  {[t.admin.name, t.admin.key, t.admin.version, t.admin.status, t.admin.deployed].map((c) => (
                    <th key={c} scope="col">
                      {c}
                    </th>
                  ))}
                  <th scope="col">
                    <span class="sr-only">{t.instance.actions}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.items.map((d) => (
                  <tr key={d.id} data-definition-key={d.key}>
                    <td>
                      <Link href={`/admin/definitions/${encodeURIComponent(d.id)}`}>{d.name}</Link>
                      <div class="muted small">{d.category ?? ''}</div>
                    </td>
                    <td data-label={t.admin.key}>{d.key}</td>
                    <td data-label={t.admin.version}>{d.version ?? '—'}</td>
                    <td data-label={t.admin.status}>
                      <DefinitionStatus value={d.status} />
                    </td>
                    <td data-label={t.admin.deployed}>{fmtTime(d.deployedAt)}</td>
                    <td class="buttons">
                      <button
                        type="button"
                        data-edit={d.id}
                        onClick={() => navigate(`/admin/designer/${encodeURIComponent(d.id)}`)}
                      >
                        {t.admin.editButton}
                      </button>
                      <button
                        type="button"
                        onClick={() => setVersionsOf(versionsOf === d.key ? null : d.key)}
                        aria-expanded={versionsOf === d.key}
                      >
                        {t.admin.versions}
                      </button>
                      {rowActions(d.id, lifecycle(d))}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.data && <Pager page={page} pageSize={20} total={list.data.total} onPage={(p) => set({ page: p })} />}
      </Section>
      {versionsOf && <Versions processKey={versionsOf} />}
    </>
  );
}

/** A definition's status in its own words (active, retired), not a request's ("in approval"). */
function DefinitionStatus({ value }: { value: string }) {
  return <span class={`status status-${value}`}>{t.definitionStatus[value] ?? value}</span>;
}

function Versions({ processKey }: { processKey: string }) {
  const v = useAsync(
    () =>
      call(
        api.GET('/api/v1/workflow/process-definitions/key/{processKey}/versions', {
          params: { path: { processKey }, query: { pageSize: 100 } },
        }),
      ),
    [processKey],
  );
  return (
    <Section title={`${t.admin.versions}: ${processKey}`} id="versions" error={v.error}>
      <ul class="plain">
        {v.data?.items.map((d) => (
          <li key={d.id}>
            <Link href={`/admin/definitions/${encodeURIComponent(d.id)}`}>v{d.version ?? '—'}</Link>{' '}
            <DefinitionStatus value={d.status} />{' '}
            <span class="muted small">{fmtTime(d.deployedAt ?? d.createdAt)}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function DefinitionView({ id }: { id: string }) {
  const d = useAsync(
    () => call(api.GET('/api/v1/workflow/process-definitions/{id}', { params: { path: { id } } })),
    [id],
  );
  if (d.loading) return <Loading />;
  if (!d.data) return <ErrorText error={d.error} />;
  return (
    <>
      <p>
        <Link href="/admin/definitions">← {t.admin.definitions}</Link>
      </p>
      <h1>
        {d.data.name} v{d.data.version ?? '—'} <DefinitionStatus value={d.data.status} />
        <button type="button" onClick={() => navigate(`/admin/designer/${encodeURIComponent(id)}`)}>
          {t.admin.editButton}
        </button>
      </h1>
      <Section title={t.instance.diagram} id="diagram">
        <Diagram dsl={d.data.dsl} title={`${t.instance.diagram}: ${d.data.name}`} />
      </Section>
      <Section title={t.admin.dsl} id="dsl">
        <pre class="code">{JSON.stringify(d.data.dsl, null, 2)}</pre>
      </Section>
    </>
  );
}

function ImportPanel({ onDeployed }: { onDeployed: () => void }) {
  const [dsl, setDsl] = useState<any>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [deployed, setDeployed] = useState<Definition | null>(null);
  const [conditions, setConditions] = useState<{ valid: boolean; results: any[] } | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (e: Event) => {
    const file = (e.currentTarget as HTMLInputElement).files?.[0];
    setProblems(null);
    setError(null);
    setDeployed(null);
    setConditions(null);
    setFileError(null);
    if (!file) return setDsl(null);
    try {
      setDsl(JSON.parse(await file.text()));
    } catch (err) {
      setDsl(null);
      setFileError(`${file.name}: ${err instanceof Error ? err.message : 'not JSON'}`);
    }
  };

  const deploy = async (e: Event) => {
    e.preventDefault();
    if (!dsl) return;
    setBusy(true);
    setProblems(null);
    setError(null);
    try {
      const d = await call(api.POST('/api/v1/workflow/process-definitions/import', { body: { dsl } as any }));
      setDeployed(d);
      onDeployed();
    } catch (err) {
      if (err instanceof ApiError && Array.isArray(err.data?.problems)) setProblems(err.data.problems);
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const validateConditions = async () => {
    if (!dsl) return;
    try {
      setConditions(
        await call(api.POST('/api/v1/workflow/process-definitions/validate-conditions', { body: { dsl } })),
      );
      setError(null);
    } catch (err) {
      if (err instanceof ApiError && Array.isArray(err.data?.problems)) setProblems(err.data.problems);
      setError(err);
    }
  };

  const byNode: Record<string, string[]> = {};
  for (const p of problems ?? [])
    if (p.nodeId) (byNode[p.nodeId] ??= []).push(`${p.field ? `${p.field}: ` : ''}${p.message}`);
  for (const r of conditions?.results ?? [])
    if (!r.valid && r.nodeId) (byNode[r.nodeId] ??= []).push(`case ${r.caseIndex}: ${r.error}`);

  return (
    <Section title={t.admin.importTitle} id="import">
      <form onSubmit={(e) => void deploy(e)}>
        <Field id="dsl-file" label={t.admin.importFile}>
          <input id="dsl-file" name="file" type="file" accept="application/json,.json" onChange={(e) => void pick(e)} />
        </Field>
        {fileError && (
          <p class="error" role="alert">
            {fileError}
          </p>
        )}
        <div class="buttons">
          <button type="submit" class="primary" disabled={!dsl || busy}>
            {t.admin.import}
          </button>
          <button type="button" disabled={!dsl} onClick={() => void validateConditions()}>
            {t.admin.validate}
          </button>
        </div>
      </form>
      {conditions?.valid && (
        <p class="ok" role="status">
          {t.admin.conditionsOk}
        </p>
      )}
      {deployed && (
        <p class="ok" role="status" data-testid="deployed">
          {t.admin.imported(deployed.key, deployed.version)}{' '}
          <Link href={`/start/${encodeURIComponent(deployed.key)}`}>{t.admin.startIt}</Link>
        </p>
      )}
      {error && !problems && <ErrorText error={error} />}
      {problems && (
        <div role="alert" data-testid="problems">
          <p class="error">{t.admin.problems}:</p>
          <ul class="problems">
            {problems.map((p, i) => (
              <li key={i} data-node-id={p.nodeId ?? ''}>
                {p.nodeId && <strong>{p.nodeId}</strong>} {p.field && <code>{p.field}</code>} {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {dsl && <Diagram dsl={dsl} problems={byNode} title={`${t.instance.diagram}: ${dsl?.ruleChain?.name ?? ''}`} />}
      {deployed && (
        <button type="button" onClick={() => navigate(`/start/${encodeURIComponent(deployed.key)}`)}>
          {t.admin.startIt}
        </button>
      )}
    </Section>
  );
}
