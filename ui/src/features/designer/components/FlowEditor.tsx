// The DingTalk-style column: steps top to bottom, a "+" on every connection, and a split's
// branches side by side until they meet again.
import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { t } from '../i18n';
import type { Doc, Node } from '../model/doc';
import type { DesignProblem } from '../model/problems';
import type { Branch, Item, SplitItem, Tree } from '../model/tree';
import type { DesignerStore } from '../store';
import s from '../designer.module.css';
import { builderFields, type BuilderField } from '../model/condition';
import { AddSlot } from './AddSlot';
import { conditionSummary } from './ConditionBuilder';
import { NodeCard, type SimMark } from './NodeCard';

interface Ctx {
  store: DesignerStore;
  byId: Map<string, Node>;
  problems: Map<string, DesignProblem[]>;
  selected: string | null;
  sim: Map<string, SimMark>;
  open: string | null;
  setOpen: (key: string | null) => void;
  /** The form's fields a condition can name (a case the rules can show is drawn in words). */
  fields: BuilderField[];
}

export function FlowEditor({
  doc,
  tree,
  store,
  problems,
  selected,
  sim,
}: {
  doc: Doc;
  tree: Tree;
  store: DesignerStore;
  problems: Map<string, DesignProblem[]>;
  selected: string | null;
  sim: Map<string, SimMark>;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const byId = new Map(doc.metadata.nodes.map((n) => [n.id, n]));
  const fields = builderFields(doc.ruleChain?.additionalInfo?.form);
  const ctx: Ctx = { store, byId, problems, selected, sim, open, setOpen, fields };
  return (
    <div class={s.flow} data-testid="flow">
      <Sequence items={tree.items} head={null} ctx={ctx} root />
    </div>
  );
}

function Sequence({ items, head, ctx, root }: { items: Item[]; head: number[] | null; ctx: Ctx; root?: boolean }) {
  const slot = (exits: number[]) => (
    <AddSlot slot={exits} store={ctx.store} open={ctx.open === exits.join(',')} onOpen={ctx.setOpen} inBranch={!root} />
  );
  return (
    <>
      {head && slot(head)}
      {items.map((item, i) => {
        const next = items[i + 1];
        return (
          <Fragment key={item.id}>
            {item.kind === 'split' ? (
              <SplitBlock item={item} ctx={ctx} first={!!root && i === 0} />
            ) : (
              <Card
                id={item.id}
                ctx={ctx}
                plain={item.exits.length === 1 && !(root && i === 0)}
                up={root ? i > 1 : i > 0}
                down={!!next && next.exits.length > 0}
              />
            )}
            {item.exits.length > 0 && slot(item.exits)}
          </Fragment>
        );
      })}
    </>
  );
}

function Card({
  id,
  ctx,
  plain,
  up,
  down,
  split,
}: {
  id: string;
  ctx: Ctx;
  plain: boolean;
  up?: boolean;
  down?: boolean;
  split?: boolean;
}) {
  const node = ctx.byId.get(id)!;
  const step = plain && !split && node.type !== 'startTask' && node.type !== 'end' && node.type !== 'join';
  return (
    <NodeCard
      node={node}
      store={ctx.store}
      problems={ctx.problems.get(id)}
      selected={ctx.selected === id}
      sim={ctx.sim.get(id)}
      up={step && !!up}
      down={step && !!down}
      copy={step || (!!split && plain)}
      remove={step || (!!split && plain)}
      split={split}
    />
  );
}

function branchLabel(
  node: Node,
  b: Branch,
  index: number,
  fields: BuilderField[],
): { title: string; expr: string | null } {
  const d = t.designer;
  if (node.type === 'fork') return { title: d.parallelBranch(index + 1), expr: null };
  if (b.caseIndex === null)
    return { title: b.relation === 'Default' ? t.diagram.defaultBranch : b.relation, expr: null };
  const expr = String((node.configuration as any)?.cases?.[b.caseIndex]?.case ?? '');
  // A case the rules can show reads as words (`Leave days > 3 and Leave type is Annual`).
  return { title: d.caseLabel(b.caseIndex + 1), expr: expr ? (conditionSummary(expr, fields) ?? expr) : d.noCondition };
}

function SplitBlock({ item, ctx, first }: { item: SplitItem; ctx: Ctx; first: boolean }) {
  const node = ctx.byId.get(item.id)!;
  const d = t.designer;
  const n = item.branches.length;
  return (
    <div class={s.block} data-split={item.id}>
      <Card id={item.id} ctx={ctx} plain={item.exits.length > 0 && !first} split />
      <div class={s.branches}>
        {item.branches.map((b, i) => {
          const { title, expr } = branchLabel(node, b, i, ctx.fields);
          const fixedLast = node.type !== 'fork' && b.caseIndex === null;
          const canLeft = i > 0 && !fixedLast && (node.type === 'fork' || item.branches[i - 1]!.caseIndex !== null);
          const canRight =
            i < n - 1 && !fixedLast && (node.type === 'fork' || item.branches[i + 1]!.caseIndex !== null);
          // A branch is known by its entry connection and its first step (fork branches share a relation).
          return (
            <div key={`${b.entry}:${b.items[0]?.id ?? ''}`} class={s.column} data-branch={b.relation}>
              <div class={s.branchHead}>
                <button
                  type="button"
                  class={s.branchTitle}
                  onClick={() => ctx.store.select(item.id)}
                  title={expr ?? title}
                >
                  <strong>{title}</strong>
                  {expr !== null && <code>{expr}</code>}
                </button>
                <span class={s.tools}>
                  {canLeft && (
                    <button
                      type="button"
                      aria-label={`${d.moveLeft}: ${title}`}
                      title={d.moveLeft}
                      onClick={() => ctx.store.branch.move(item.id, i, -1)}
                    >
                      ←
                    </button>
                  )}
                  {canRight && (
                    <button
                      type="button"
                      aria-label={`${d.moveRight}: ${title}`}
                      title={d.moveRight}
                      onClick={() => ctx.store.branch.move(item.id, i, 1)}
                    >
                      →
                    </button>
                  )}
                  {n > 1 && (
                    <button
                      type="button"
                      aria-label={`${d.removeBranch}: ${title}`}
                      title={d.removeBranch}
                      data-tool="removeBranch"
                      onClick={() => ctx.store.branch.remove(item.id, i)}
                    >
                      ×
                    </button>
                  )}
                </span>
              </div>
              <Sequence items={b.items} head={[b.entry]} ctx={ctx} />
              <span class={s.grow} />
            </div>
          );
        })}
      </div>
      {item.joinId && <Card id={item.joinId} ctx={ctx} plain={false} />}
    </div>
  );
}
