// Every problem, listed; choosing one selects its step. The server's own verdict follows.
import { t } from '../../../i18n';
import type { DesignProblem } from '../model/problems';
import { problemText } from '../problemText';

export function ProblemList({
  problems,
  server,
  onSelect,
}: {
  problems: DesignProblem[];
  server: DesignProblem[] | null;
  onSelect: (id: string | null) => void;
}) {
  const d = t.designer;
  const item = (p: DesignProblem) => (
    <li data-node-id={p.nodeId ?? ''} data-code={p.code ?? ''}>
      <button type="button" class="link" onClick={() => onSelect(p.nodeId)}>
        {p.nodeId ?? d.processSettings}
      </button>{' '}
      <code>{p.field}</code> {problemText(p)}
    </li>
  );
  return (
    <section class="card" aria-labelledby="problems-h" data-testid="designer-problems">
      <h2 id="problems-h" aria-live="polite" data-count={problems.length}>
        {d.problems(problems.length)}
      </h2>
      {problems.length > 0 && <ul class="problems">{problems.map(item)}</ul>}
      {server && server.length > 0 && (
        <>
          <p class="error">{d.serverProblems}:</p>
          <ul class="problems" data-testid="server-problems">
            {server.map(item)}
          </ul>
        </>
      )}
      {server && server.length === 0 && problems.length === 0 && (
        <p class="ok small" data-testid="server-ok">
          {d.serverOk}
        </p>
      )}
    </section>
  );
}
