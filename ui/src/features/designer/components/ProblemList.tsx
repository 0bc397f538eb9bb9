// Every problem, listed; choosing one selects its step. The server's own verdict follows. Errors
// first; warnings (deploy accepts them, e.g. a case on an undeclared variable) after, marked so.
// Each names its step and field as the user sees them (the JSON path stays in a tooltip).
import { t } from '../i18n';
import type { Doc } from '../model/doc';
import { isWarning, type DesignProblem } from '../model/problems';
import { problemField, problemText, stepName } from '../problemText';

const errorsFirst = (list: readonly DesignProblem[]) => [
  ...list.filter((p) => !isWarning(p)),
  ...list.filter(isWarning),
];

export function ProblemList({
  problems,
  server,
  onSelect,
  doc,
}: {
  problems: DesignProblem[];
  server: DesignProblem[] | null;
  onSelect: (id: string | null) => void;
  /** For the steps' names and the form's labels. */
  doc?: Doc;
}) {
  const d = t.designer;
  // By place too: one field may have the same problem twice (two unknown variables in one case).
  const item = (p: DesignProblem, i: number) => {
    const field = problemField(p.field, doc);
    return (
      <li
        key={`${i}:${p.nodeId ?? ''}:${p.field ?? ''}:${p.code ?? ''}`}
        data-node-id={p.nodeId ?? ''}
        data-code={p.code ?? ''}
        data-severity={p.severity ?? 'error'}
      >
        {isWarning(p) && <strong>{d.warning}: </strong>}
        <button type="button" class="link" onClick={() => onSelect(p.nodeId)}>
          {stepName(p.nodeId, doc)}
        </button>
        {field && (
          <>
            {' › '}
            <span data-field={p.field ?? ''} title={p.field ?? undefined}>
              {field}
            </span>
          </>
        )}
        {d.problemWords.sep}
        {problemText(p)}
      </li>
    );
  };
  const errors = problems.filter((p) => !isWarning(p)).length;
  const warnings = problems.length - errors;
  const serverErrors = server?.filter((p) => !isWarning(p)).length ?? 0;
  return (
    <section class="card" aria-labelledby="problems-h" data-testid="designer-problems">
      <h2 id="problems-h" aria-live="polite" data-count={errors} data-warnings={warnings}>
        {d.problems(errors)}
        {warnings > 0 && ` ${d.warnings(warnings)}`}
      </h2>
      {problems.length > 0 && <ul class="problems">{errorsFirst(problems).map(item)}</ul>}
      {server && server.length > 0 && (
        <>
          {/* Warnings only: the server accepts it, and says with what. */}
          <p
            class={serverErrors > 0 ? 'error' : 'ok small'}
            data-testid={serverErrors === 0 && errors === 0 ? 'server-ok' : undefined}
          >
            {serverErrors > 0 ? d.serverProblems : d.serverWarnings}:
          </p>
          <ul class="problems" data-testid="server-problems">
            {errorsFirst(server).map(item)}
          </ul>
        </>
      )}
      {server && server.length === 0 && errors === 0 && (
        <p class="ok small" data-testid="server-ok">
          {d.serverOk}
        </p>
      )}
    </section>
  );
}
