// A step in the column: its kind, name, what it does, its problems, and its tools. Re-renders only
// when its own node object, problems, selection or simulation mark change (the store shares
// untouched nodes between edits), so an edit on a 300-step process redraws one card.
import { Component } from 'preact';
import { t } from '../i18n';
import type { Node } from '../model/doc';
import { isWarning, type DesignProblem } from '../model/problems';
import type { DesignerStore } from '../store';
import s from '../designer.module.css';
import { summary } from './summary';
import { problemText } from '../problemText';

export interface SimMark {
  approvers: string[];
  note: string | null;
}

export interface CardProps {
  node: Node;
  store: DesignerStore;
  problems: DesignProblem[] | undefined;
  selected: boolean;
  sim: SimMark | undefined;
  up: boolean;
  down: boolean;
  copy: boolean;
  remove: boolean;
  /** A split's card: delete removes the whole block; it can add a branch. */
  split?: boolean;
}

export class NodeCard extends Component<CardProps> {
  shouldComponentUpdate(next: CardProps) {
    const p = this.props as CardProps;
    return (Object.keys(next) as Array<keyof CardProps>).some((k) => next[k] !== p[k]);
  }

  render({ node, store, problems, selected, sim, up, down, copy, remove, split }: CardProps) {
    const d = t.designer;
    const label = node.name || node.id;
    const errors = problems?.some((p) => !isWarning(p));
    const cls = [
      s.card,
      s[`k_${node.type}`],
      selected && s.selected,
      errors && s.bad,
      problems?.length && !errors && s.warned,
      sim && s.onPath,
    ]
      .filter(Boolean)
      .join(' ');
    return (
      <div class={cls} data-node-id={node.id} data-type={node.type}>
        <button
          type="button"
          class={s.pick}
          aria-pressed={selected}
          onClick={() => store.select(node.id)}
          title={problems?.map((p) => problemText(p)).join('\n')}
        >
          <span class={s.kind}>
            {d.types[node.type] ?? node.type}
            {problems?.length ? <span class={errors ? s.warn : s.warnSoft}> ⚠ {problems.length}</span> : null}
          </span>
          <span class={s.name}>{label}</span>
          <span class={s.sum}>{summary(node)}</span>
          {sim?.approvers.length ? (
            <span class={s.simWho} data-testid="sim-approvers">
              {sim.approvers.join(', ')}
            </span>
          ) : null}
          {sim?.note ? <span class={s.simNote}>{sim.note}</span> : null}
        </button>
        {(up || down || copy || remove || split) && (
          <span class={s.tools}>
            {split && (
              <button type="button" onClick={() => store.branch.add(node.id)} data-tool="addBranch">
                {d.addBranch}
              </button>
            )}
            {up && (
              <button
                type="button"
                aria-label={`${d.moveUp}: ${label}`}
                title={d.moveUp}
                onClick={() => store.moveStep(node.id, -1)}
              >
                ↑
              </button>
            )}
            {down && (
              <button
                type="button"
                aria-label={`${d.moveDown}: ${label}`}
                title={d.moveDown}
                onClick={() => store.moveStep(node.id, 1)}
              >
                ↓
              </button>
            )}
            {copy && (
              <button
                type="button"
                aria-label={`${d.copy}: ${label}`}
                title={d.copy}
                onClick={() => store.copy(node.id)}
              >
                {d.copy}
              </button>
            )}
            {remove && (
              <button
                type="button"
                aria-label={`${d.delete}: ${label}`}
                title={d.delete}
                data-tool="delete"
                onClick={() => store.remove(node.id)}
              >
                ×
              </button>
            )}
          </span>
        )}
      </div>
    );
  }
}
