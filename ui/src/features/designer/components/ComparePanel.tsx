// Version compare: the other version and this one side by side, nodes marked added, removed or
// changed, with the changed fields and connections listed.
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import { errorText } from '../../../lib/api';
import { compare, loadDefinition, versionsOf, type Comparison } from '../api';
import type { Doc } from '../model/doc';
import { Select, useChoices } from '../panels/controls';
import { GraphView, type Mark } from './GraphView';
import s from '../designer.module.css';

const show = (v: unknown) => (v === undefined ? '—' : JSON.stringify(v));

export function ComparePanel({ id, processKey, doc }: { id: string; processKey: string; doc: Doc }) {
  const c = t.designer.cmp;
  const [other, setOther] = useState('');
  const [result, setResult] = useState<{ cmp: Comparison; before: Doc } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const versions = useChoices(
    () =>
      versionsOf(processKey).then((p) =>
        p.items.filter((v) => v.id !== id).map((v) => ({ id: v.id, label: c.version(v.version ?? null) })),
      ),
    `${processKey}:${id}`,
  );
  const run = async (otherId: string) => {
    setOther(otherId);
    if (!otherId) return setResult(null);
    try {
      const [cmp, before] = await Promise.all([compare(otherId, id), loadDefinition(otherId)]);
      setResult({ cmp, before: before.dsl as Doc });
      setError(null);
    } catch (err) {
      setError(err);
    }
  };
  const left = new Map<string, Mark>();
  const right = new Map<string, Mark>();
  for (const n of result?.cmp.removed ?? []) left.set(n.id, 'removed');
  for (const n of result?.cmp.added ?? []) right.set(n.id, 'added');
  for (const n of result?.cmp.changed ?? []) {
    left.set(n.id, 'changed');
    right.set(n.id, 'changed');
  }
  const r = result?.cmp;
  return (
    <section class="card" aria-labelledby="cmp-h" data-testid="compare">
      <h2 id="cmp-h">{c.title}</h2>
      {versions && versions.length === 0 && (
        <p class="muted" data-testid="compare-needs-two">
          {c.needsTwo}
        </p>
      )}
      {versions && versions.length > 0 && (
        <Select
          id="cmp-other"
          label={c.with}
          value={other}
          options={Object.fromEntries([['', '—'], ...versions.map((v) => [v.id, v.label])])}
          onValue={(v) => void run(v)}
        />
      )}
      {error ? <p class="error">{errorText(error)}</p> : null}
      {r && result && (
        <>
          <div class={s.sideBySide}>
            <div>
              <h3>{c.version(r.from.version)}</h3>
              <GraphView doc={result.before} marks={left} title={`${r.from.name} ${c.version(r.from.version)}`} />
            </div>
            <div>
              <h3>{c.version(r.to.version)}</h3>
              <GraphView doc={doc} marks={right} title={`${r.to.name} ${c.version(r.to.version)}`} />
            </div>
          </div>
          {!r.added.length &&
            !r.removed.length &&
            !r.changed.length &&
            !r.process.length &&
            !r.connections.added.length &&
            !r.connections.removed.length && <p>{c.none}</p>}
          <ul class="small" data-testid="compare-list">
            {r.added.map((n) => (
              <li key={n.id} class={s.added}>
                {c.added}: {n.name ?? n.id}
              </li>
            ))}
            {r.removed.map((n) => (
              <li key={n.id} class={s.removed}>
                {c.removed}: {n.name ?? n.id}
              </li>
            ))}
            {r.changed.map((n) => (
              <li key={n.id} class={s.changed}>
                {c.changed}: {n.name ?? n.id} —{' '}
                {n.changes.map((ch) => `${ch.path}: ${show(ch.before)} → ${show(ch.after)}`).join('; ')}
              </li>
            ))}
            {r.process.map((ch) => (
              <li key={ch.path} class={s.changed}>
                {c.process}: {ch.path}: {show(ch.before)} → {show(ch.after)}
              </li>
            ))}
            {[
              ...r.connections.added.map((x) => ['+', x] as const),
              ...r.connections.removed.map((x) => ['−', x] as const),
            ].map(([sign, x], i) => (
              <li key={`${i}:${sign}${x.fromId}>${x.toId}:${x.type}`}>
                {c.connections}: {sign} {x.fromId} → {x.toId} ({x.type})
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
