// The condition editor of a switch or inclusive: each case's expression, checked as you type by
// the DSL's own compiler against the form's variables, and by the server a moment later.
import { useEffect, useState } from 'preact/hooks';
import { formVariableTypes } from '@dsl/conditions.js';
import { compileCondition } from '@dsl/expressions.js';
import { formVariables } from '@dsl/variables.js';
import { t } from '../i18n';
import { checkConditions } from '../api';
import { problemText } from '../problemText';
import s from '../designer.module.css';
import { Text, type NodePanelProps } from './controls';

type ServerResult = { nodeId: string; caseIndex: number; valid: boolean; error: string | null };

export function CasesPanel({ node, doc, store, problems }: NodePanelProps) {
  const f = t.designer.f;
  const cases: Array<{ case: string; then: string }> = Array.isArray((node.configuration as any)?.cases)
    ? (node.configuration as any).cases
    : [];
  const types = formVariableTypes(doc);
  const vars = formVariables(doc);
  const listId = `${node.id}-vars`;
  const [server, setServer] = useState<ServerResult[] | null>(null);
  // The server's verdict a moment after the last keystroke.
  useEffect(() => {
    const timer = setTimeout(() => {
      checkConditions(doc).then(
        (r: any) => setServer(r.results),
        () => setServer(null),
      );
    }, 500);
    return () => clearTimeout(timer);
  }, [node.configuration]);
  return (
    <fieldset>
      <legend>{f.cases}</legend>
      {vars.length > 0 && (
        <p class="small">
          {f.variables}:{' '}
          {vars.map((v) => (
            <code key={v} class={s.var}>
              msg.{v}
            </code>
          ))}
        </p>
      )}
      <datalist id={listId}>
        {vars.map((v) => (
          <option key={v} value={`msg.${v}`} />
        ))}
      </datalist>
      {cases.map((c, i) => {
        const compiled = compileCondition(c.case ?? '', types);
        // The DSL's own warning (dsl/variables.ts), as the problem list shows it: a variable nobody sets.
        const warning = compiled.ok
          ? (problems ?? [])
              .filter((p) => p.code === 'condition.unknownVariable' && p.field === `configuration.cases[${i}].case`)
              .map(problemText)
              .join(' ')
          : '';
        const error = !compiled.ok ? compiled.error : warning || null;
        const remote = server?.find((r) => r.nodeId === node.id && r.caseIndex === i + 1);
        const hint = `${node.id}-case-${i}-hint`;
        return (
          // By place: a switch's cases are ordered (the first match wins), and two may share a `then`.
          <div key={i} class={s.caseRow} data-case={i}>
            <Text
              id={`${node.id}-case-${i}`}
              label={`${f.caseExpr(i + 1)} → ${c.then}`}
              value={c.case ?? ''}
              list={listId}
              invalid={!!error}
              describedBy={hint}
              onValue={(v) => store.setCase(node.id, i, v)}
            />
            <p
              id={hint}
              class={!compiled.ok ? 'error small' : warning ? `${s.warnText} small` : 'ok small'}
              aria-live="polite"
              data-testid="case-check"
            >
              {error ?? f.caseOk}
              {remote && !remote.valid && remote.error !== error && ` (${remote.error})`}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}
