// "Try it": who would start it and with which form values; the server walks the process and
// answers each step — the approvers it names (and why), the case each switch takes, what is
// still open. The path is drawn on the designer's view.
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { PeoplePicker } from '../../../components/PeoplePicker';
import { errorText } from '../../../lib/api';
import { session } from '../../../lib/session';
import { simulate, type SimStep, type Simulation } from '../api';
import type { Doc } from '../model/doc';
import { Text } from '../panels/controls';
import { formFields } from '../panels/Permissions';
import type { SimMark } from './NodeCard';

/** What each simulated step shows on its card: the approvers named, or the case taken. */
export function simMarks(sim: Simulation | null): Map<string, SimMark> {
  const marks = new Map<string, SimMark>();
  for (const step of sim?.steps ?? []) marks.set(step.node.id, { approvers: approversOf(step), note: noteOf(step) });
  return marks;
}

function approversOf(step: SimStep): string[] {
  const a = step.assignment;
  if (!a) return [];
  const names = a.approvers.map((x) => (x.autoApproved ? `${x.displayName} (${t.designer.sim.auto})` : x.displayName));
  if (names.length === 0 && a.mode === 'pool')
    return [...a.candidates.roleIds, ...a.candidates.deptIds, ...a.candidates.userIds];
  return names;
}

function noteOf(step: SimStep): string | null {
  const s = t.designer.sim;
  if (step.assignment?.fallback) return s.nobody(step.assignment.fallback.policy);
  if (step.assignment?.mode === 'pool' || step.assignment?.mode === 'claim') return s.pool;
  const d = step.decision;
  if (d) {
    const hit = d.cases.find((c) => c.value === true);
    if (hit) return s.caseTaken(hit.caseIndex, hit.expression);
    if (d.taken.includes('Default')) return s.defaultTaken;
  }
  // The form values it waits for, by name (not the prediction's JSON).
  if (step.undecided) return `${s.undecided} ${[...new Set(step.undecidedBy.map((u) => u.variable))].join(', ')}`;
  return null;
}

export function SimulatePanel({ doc, onResult }: { doc: Doc; onResult: (sim: Simulation | null) => void }) {
  const s = t.designer.sim;
  // The one trying it starts it unless they pick someone else.
  const [initiator, setInitiator] = useState(session.get()?.userId ?? '');
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Simulation | null>(null);
  const [error, setError] = useState<unknown>(null);
  const fields = formFields(doc) as Array<{ name: string; label?: string; type?: string }>;
  const run = async (e: Event) => {
    e.preventDefault();
    const variables: Record<string, unknown> = {};
    for (const f of fields) {
      const v = values[f.name];
      if (v === undefined || v === '') continue;
      variables[f.name] =
        f.type === 'number' || f.type === 'money' ? Number(v) : f.type === 'boolean' ? v === 'true' : v;
    }
    try {
      const sim = await simulate(doc, initiator, variables);
      setResult(sim);
      setError(null);
      onResult(sim);
    } catch (err) {
      setError(err);
      onResult(null);
    }
  };
  return (
    <section class="card" aria-labelledby="sim-h" data-testid="simulate">
      <h2 id="sim-h">{s.title}</h2>
      <form onSubmit={(e) => void run(e)}>
        <PeoplePicker
          id="sim-initiator"
          kind="user"
          label={s.initiator}
          value={initiator ? [initiator] : []}
          onChange={(ids) => setInitiator(ids[0] ?? '')}
        />
        {fields.map((f) => (
          <Text
            key={f.name}
            id={`sim-${f.name}`}
            label={f.label || f.name}
            value={values[f.name] ?? ''}
            onValue={(v) => setValues({ ...values, [f.name]: v })}
          />
        ))}
        <button type="submit" class="primary">
          {s.run}
        </button>
      </form>
      {error ? (
        <p class="error" role="alert">
          {errorText(error)}
        </p>
      ) : null}
      {result && (
        <ol data-testid="sim-steps">
          {result.steps.map((step, i) => {
            const who = approversOf(step);
            const note = noteOf(step);
            // A path may pass a node twice (a return): the step's place is its identity.
            return (
              <li key={i} data-node-id={step.node.id}>
                <strong>{step.node.name ?? step.node.id}</strong>
                {who.length > 0 && (
                  <span>
                    {' '}
                    — {s.approvers}: {who.join(', ')}
                  </span>
                )}
                {note && <span class="muted"> — {note}</span>}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
