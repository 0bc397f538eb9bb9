// "Try it": who would start it and with which form values; the server walks the process and
// answers each step — the approvers it names (and why), the case each switch takes, what is
// still open. The path is drawn on the designer's view.
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { PeoplePicker } from '../../../components/PeoplePicker';
import { errorText } from '../../../lib/api';
import { session } from '../../../lib/session';
import { simulate, type SimStep, type Simulation } from '../api';
import { builderFields, type BuilderField } from '../model/condition';
import type { Doc } from '../model/doc';
import { Text } from '../panels/controls';
import { formFields } from '../panels/Permissions';
import { conditionSummary } from './ConditionBuilder';
import type { SimMark } from './NodeCard';

/** The form's fields each simulation ran with: they put a taken case in words on the cards too. */
const fieldsOf = new WeakMap<Simulation, BuilderField[]>();

/** What each simulated step shows on its card: the approvers named, or the case taken. */
export function simMarks(sim: Simulation | null): Map<string, SimMark> {
  const marks = new Map<string, SimMark>();
  const fields = (sim && fieldsOf.get(sim)) ?? [];
  for (const step of sim?.steps ?? []) {
    const note = noteOf(step, fields);
    marks.set(step.node.id, {
      approvers: approversOf(step, sim!.names),
      note: note && (note.cel === undefined ? note.text : `${note.text}${t.designer.sim.sep}${note.cel}`),
    });
  }
  return marks;
}

/** How many of a pool's members the note names; the count says how many there are. */
const MEMBERS_SHOWN = 5;

/**
 * Who a step names: the people who get a task each or claim one; for a role or department pool, the
 * roles and departments by name (their members are counted in the note). An id the directory no
 * longer has stays an id.
 */
function approversOf(step: SimStep, names: Simulation['names']): string[] {
  const s = t.designer.sim;
  const a = step.assignment;
  if (!a) return [];
  if (a.mode === 'pool')
    return [
      ...a.candidates.roleIds.map((id) => s.role(names.roles[id] ?? id)),
      ...a.candidates.deptIds.map((id) => s.dept(names.departments[id] ?? id)),
      ...a.candidates.userIds.map((id) => names.users[id] ?? id),
    ];
  return a.approvers.map((x) => (x.autoApproved ? `${x.displayName} (${s.auto})` : x.displayName));
}

/** A step's note: words, and the CEL of a taken case the rules cannot put in words. */
function noteOf(step: SimStep, fields: BuilderField[]): { text: string; cel?: string } | null {
  const s = t.designer.sim;
  if (step.assignment?.fallback) return { text: s.nobody(step.assignment.fallback.policy) };
  if (step.assignment?.mode === 'pool') {
    const members = step.assignment.approvers.map((x) => x.displayName);
    const shown = members.slice(0, MEMBERS_SHOWN).join(', ') + (members.length > MEMBERS_SHOWN ? ', …' : '');
    return { text: s.members(members.length, shown) };
  }
  if (step.assignment?.mode === 'claim') return { text: s.pool };
  const d = step.decision;
  if (d) {
    const hit = d.cases.find((c) => c.value === true);
    if (hit) {
      const words = conditionSummary(hit.expression, fields);
      return words === null
        ? { text: s.caseTaken(hit.caseIndex), cel: hit.expression }
        : { text: `${s.caseTaken(hit.caseIndex)}${s.sep}${words}` };
    }
    if (d.taken.includes('Default')) return { text: s.defaultTaken };
  }
  // The form values it waits for, by name (not the prediction's JSON).
  if (step.undecided)
    return { text: `${s.undecided} ${[...new Set(step.undecidedBy.map((u) => u.variable))].join(', ')}` };
  return null;
}

export function SimulatePanel({ doc, onResult }: { doc: Doc; onResult: (sim: Simulation | null) => void }) {
  const s = t.designer.sim;
  // The one trying it starts it unless they pick someone else.
  const [initiator, setInitiator] = useState(session.get()?.userId ?? '');
  const [values, setValues] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Simulation | null>(null);
  const [error, setError] = useState<unknown>(null);
  // Files decide no path: attachment fields have no box here.
  const fields = (formFields(doc) as Array<{ name: string; label?: string; type?: string }>).filter(
    (f) => f.type !== 'attachment',
  );
  const ruleFields = builderFields(doc.ruleChain?.additionalInfo?.form);
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
      fieldsOf.set(sim, ruleFields);
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
            const who = approversOf(step, result.names);
            const note = noteOf(step, fieldsOf.get(result) ?? []);
            // A path may pass a node twice (a return): the step's place is its identity.
            return (
              <li key={i} data-node-id={step.node.id}>
                <strong>{step.node.name ?? step.node.id}</strong>
                {who.length > 0 && (
                  <span>
                    {' '}
                    — {s.approvers}
                    {s.sep}
                    {who.join(', ')}
                  </span>
                )}
                {note && (
                  <span class="muted">
                    {' '}
                    — {note.text}
                    {note.cel !== undefined && (
                      <>
                        {s.sep}
                        <code>{note.cel}</code>
                      </>
                    )}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
