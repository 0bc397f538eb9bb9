// The condition editor of a switch or inclusive: each case as rules (field → operator → value, the
// condition builder) or as code for experts. A condition the rules wrote opens as rules again; one
// they cannot show opens as code, saying why. Checked as you type by the DSL's own compiler against
// the form's variables (an unknown name suggests the nearest form field), and by the server a moment later.
import { useEffect, useState } from 'preact/hooks';
import { formFieldLabels, formVariableTypes, invalidConditionFinding } from '@dsl/conditions.js';
import { compileCondition } from '@dsl/expressions.js';
import { t } from '../i18n';
import { checkConditions } from '../api';
import { ConditionBuilder } from '../components/ConditionBuilder';
import cb from '../components/ConditionBuilder.module.css';
import { builderFields, readCondition, type Unreadable } from '../model/condition';
import { problemText } from '../problemText';
import s from '../designer.module.css';
import { Text, type NodePanelProps } from './controls';

type ServerResult = { nodeId: string; caseIndex: number; expression: string; valid: boolean; error: string | null };
type Mode = 'builder' | 'code';

export function CasesPanel({ node, doc, store, problems }: NodePanelProps) {
  const f = t.designer.f;
  const c = t.designer.cond;
  const cases: Array<{ case: string; then: string }> = Array.isArray((node.configuration as any)?.cases)
    ? (node.configuration as any).cases
    : [];
  const types = formVariableTypes(doc);
  const labelled = formFieldLabels(doc);
  const fields = builderFields(doc.ruleChain?.additionalInfo?.form);
  const listId = `${node.id}-vars`;
  const [server, setServer] = useState<ServerResult[] | null>(null);
  // The way each case is edited, once chosen (by place); until then, rules when they can show it.
  const [modes, setModes] = useState<Record<string, Mode>>({});
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
      {labelled.length > 0 && (
        <p class="small">
          {f.variables}:{' '}
          {labelled.map((v) => (
            <code key={v.name} class={s.var} title={v.label}>
              msg.{v.name}
            </code>
          ))}
        </p>
      )}
      <datalist id={listId}>
        {labelled.map((v) => (
          <option key={v.name} value={`msg.${v.name}`} label={v.label} />
        ))}
      </datalist>
      {cases.map((entry, i) => {
        const expression = entry.case ?? '';
        const compiled = compileCondition(expression, types);
        // The DSL's own warning (dsl/variables.ts), as the problem list shows it: a variable nobody sets.
        const warning = compiled.ok
          ? (problems ?? [])
              .filter((p) => p.code === 'condition.unknownVariable' && p.field === `configuration.cases[${i}].case`)
              .map(problemText)
              .join(' ')
          : '';
        const error = !compiled.ok
          ? problemText(invalidConditionFinding(expression, compiled.error, labelled))
          : warning || null;
        // The server's answer for this very text (an older one may still be on its way).
        const remote = server?.find(
          (r) => r.nodeId === node.id && r.caseIndex === i + 1 && r.expression === expression,
        );
        const read = readCondition(expression, fields);
        const canBuild = fields.length > 0 && read.ok;
        const mode: Mode = canBuild ? (modes[`${node.id}:${i}`] ?? 'builder') : 'code';
        const setMode = (m: Mode) => setModes({ ...modes, [`${node.id}:${i}`]: m });
        const hint = `${node.id}-case-${i}-hint`;
        const label = `${f.caseExpr(i + 1)} → ${entry.then}`;
        return (
          // By place: a switch's cases are ordered (the first match wins), and two may share a `then`.
          <div key={i} class={s.caseRow} data-case={i} data-mode={mode}>
            <div class={cb.modes} role="group" aria-label={`${c.mode} (${label})`}>
              <button
                type="button"
                aria-pressed={mode === 'builder'}
                disabled={!canBuild}
                data-mode-button="builder"
                onClick={() => setMode('builder')}
              >
                {c.builder}
              </button>
              <button
                type="button"
                aria-pressed={mode === 'code'}
                data-mode-button="code"
                onClick={() => setMode('code')}
              >
                {c.code}
              </button>
            </div>
            {mode === 'builder' ? (
              <>
                <p class="small">
                  <strong>{label}</strong>
                </p>
                <ConditionBuilder
                  key={`${node.id}-${i}`}
                  id={`${node.id}-case-${i}-rules`}
                  fields={fields}
                  value={expression}
                  onValue={(v) => store.setCase(node.id, i, v)}
                />
                <p class={`small muted ${cb.cel}`}>
                  {c.written}: <code data-testid="case-cel">{expression}</code>
                </p>
              </>
            ) : (
              <>
                <Text
                  id={`${node.id}-case-${i}`}
                  label={label}
                  value={expression}
                  list={listId}
                  invalid={!!error}
                  describedBy={hint}
                  onValue={(v) => {
                    // Typing code keeps the code view, even once the rules could show it.
                    if (!modes[`${node.id}:${i}`]) setMode('code');
                    store.setCase(node.id, i, v);
                  }}
                />
                {expression.trim() !== '' && !read.ok && (
                  <p class="small muted" data-testid="case-why-code">
                    {fields.length === 0 ? c.noFields : c.asCode(whyWords(read.why))}
                  </p>
                )}
              </>
            )}
            <p
              id={hint}
              class={!compiled.ok ? 'error small' : warning ? `${s.warnText} small` : 'ok small'}
              aria-live="polite"
              data-testid="case-check"
            >
              {error ?? f.caseOk}
              {/* The server disagrees (it knows more, e.g. a stored form): its words too. */}
              {remote && !remote.valid && compiled.ok && ` (${remote.error})`}
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}

function whyWords(why: Unreadable): string {
  const w = t.designer.cond.why;
  switch (why.reason) {
    case 'unknownField':
      return w.unknownField(why.name);
    case 'operator':
      return w.operator(why.name);
    default:
      return w[why.reason];
  }
}
