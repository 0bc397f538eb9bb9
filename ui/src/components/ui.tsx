import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n';
import { errorText } from '../lib/api';

/** Dates and times in the chosen language (i18n/index.ts). */
export { fmtTime } from '../i18n';

export function Status({ value }: { value: string | null | undefined }) {
  if (!value) return null;
  return <span class={`status status-${value}`}>{t.status[value] ?? value}</span>;
}

export function ErrorText({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorText(error)}
    </p>
  );
}

/**
 * A form's footer: the error of its last submit in words (`errorTestId` names it for the tests), then
 * its buttons — the submit (*Save* unless `label` says otherwise), *Cancel* when `onCancel` is given,
 * then `children` (more buttons, a saved note).
 */
export function FormFooter({
  error,
  errorTestId,
  busy,
  label = t.common.save,
  action,
  onCancel,
  children,
}: {
  error?: unknown;
  errorTestId?: string;
  busy: boolean;
  label?: string;
  /** The submit button's `data-action`. */
  action?: string;
  onCancel?: () => void;
  children?: ComponentChildren;
}) {
  return (
    <>
      {error ? (
        <p class="error" role="alert" data-testid={errorTestId}>
          {errorText(error)}
        </p>
      ) : null}
      <div class="buttons">
        <button type="submit" class="primary" disabled={busy} data-action={action}>
          {label}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {t.common.cancel}
          </button>
        )}
        {children}
      </div>
    </>
  );
}

export function Loading() {
  return (
    <p class="muted" aria-live="polite">
      {t.common.loading}
    </p>
  );
}

/** Loads data for a component: re-runs when `deps` change; `reload` runs it again. */
export function useAsync<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const seq = useRef(0);
  const run = useCallback(async (quiet = false) => {
    const mine = ++seq.current;
    if (!quiet) setState((s) => ({ ...s, loading: true }));
    try {
      const data = await load();
      if (mine === seq.current) setState({ data, loading: false });
    } catch (error) {
      if (mine === seq.current) setState((s) => ({ ...s, error, loading: false }));
    }
  }, deps);
  useEffect(() => {
    void run();
  }, [run]);
  return { ...state, reload: run };
}

export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize && page === 1) return null;
  return (
    <nav class="pager" aria-label={t.common.pages}>
      <button type="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t.common.prev}
      </button>
      <span>{t.common.page(page, pages, total)}</span>
      <button type="button" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t.common.next}
      </button>
    </nav>
  );
}

/** A card with a heading; `error` (its data's load error) is shown first. */
export function Section({
  title,
  children,
  id,
  error,
}: {
  title: string;
  children: ComponentChildren;
  id?: string;
  error?: unknown;
}) {
  return (
    <section class="card" aria-labelledby={id ? `${id}-h` : undefined} id={id}>
      <h2 id={id ? `${id}-h` : undefined}>{title}</h2>
      <ErrorText error={error} />
      {children}
    </section>
  );
}

/** A form field: a label for the control with id `id`, then the control. */
export function Field({ id, label, children }: { id: string; label: ComponentChildren; children: ComponentChildren }) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}

/** A text field (a textarea when `multiline`) in its `Field`; `onValue` gets the typed text, `children` follow it. */
export function TextField({
  label,
  multiline,
  onValue,
  children,
  ...control
}: {
  id: string;
  label: ComponentChildren;
  name: string;
  value: string;
  multiline?: boolean;
  onValue: (value: string) => void;
  'aria-describedby'?: string;
  children?: ComponentChildren;
}) {
  const props = { ...control, onInput: (e: { currentTarget: { value: string } }) => onValue(e.currentTarget.value) };
  return (
    <Field id={control.id} label={label}>
      {multiline ? <textarea {...props} /> : <input {...props} />}
      {children}
    </Field>
  );
}

/** A text input wrapped in its label; `onValue` gets the typed text. */
export function LabelledInput({
  label,
  onValue,
  ...input
}: {
  label: ComponentChildren;
  name: string;
  value: string;
  onValue: (value: string) => void;
  required?: boolean;
  autocomplete?: string;
  autofocus?: boolean;
}) {
  return (
    <label>
      {label}
      <input {...input} onInput={(e) => onValue(e.currentTarget.value)} />
    </label>
  );
}

/** A `table.list`: one header cell per entry of `columns` (false entries are left out), the rows as children. */
export function ListTable({
  columns,
  testid,
  wrap = true,
  children,
}: {
  columns?: (ComponentChildren | false)[];
  testid?: string;
  /** Inside a horizontally scrolling `div.table-wrap`. */
  wrap?: boolean;
  children: ComponentChildren;
}) {
  const table = (
    <table class="list" data-testid={testid}>
      {columns && (
        <thead>
          <tr>
            {columns
              .filter((c) => c !== false)
              .map((c, i) => (
                <th key={i} scope="col">
                  {c}
                </th>
              ))}
          </tr>
        </thead>
      )}
      <tbody>{children}</tbody>
    </table>
  );
  return wrap ? <div class="table-wrap">{table}</div> : table;
}

/** A button of a table row: its label, whether it applies to the row, and the API call it makes. */
export type RowAction = { label: string; when?: boolean; run: () => Promise<unknown> };

/**
 * Buttons for table rows whose actions reload the list when done. The last outcome is shown on its row;
 * a new outcome replaces all others.
 */
export function useRowActions(reload: () => unknown) {
  const [outcomes, setOutcomes] = useState<Record<string, { ok: boolean; text: string }>>({});
  const runFor = async (id: string, a: RowAction) => {
    try {
      await a.run();
      void reload();
      setOutcomes({ [id]: { ok: true, text: t.action.done(a.label) } });
    } catch (err) {
      setOutcomes({ [id]: { ok: false, text: errorText(err) } });
    }
  };
  /** Row `id`'s buttons (those that apply) and the outcome of its last action. */
  return (id: string, actions: RowAction[]) => {
    const outcome = outcomes[id];
    return (
      <>
        {actions
          .filter((a) => a.when !== false)
          .map((a) => (
            <button key={a.label} type="button" onClick={() => void runFor(id, a)}>
              {a.label}
            </button>
          ))}
        {outcome && (
          <span class={outcome.ok ? 'ok small' : 'error small'} role="status">
            {outcome.text}
          </span>
        )}
      </>
    );
  };
}
