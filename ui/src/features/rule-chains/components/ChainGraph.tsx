// The chain drawn as a graph (layout.ts): nodes, their triggers and every connection labelled with its
// relation. A node shows its problems from the last save, and — with a run — whether the run visited it
// and the relation it took; the connections the run followed are drawn bold. A click (or Enter) on a
// node selects it; with `onMove`, a node is dragged (or moved with the arrow keys) and keeps where it
// was put in additionalInfo.layoutX/Y.
import { useMemo, useRef, useState } from 'preact/hooks';
import type { RuleChainDsl } from '@chains/types.js';
import { wrapLabel } from '../../../components/Diagram';
import { layoutChain, labelWidth, type LaidNode, type Point } from '../layout';
import type { ChainProblem } from '../model';
import type { RunDetail } from '../types';
import { t } from '../i18n';
import css from '../rule-chains.module.css';

export type Visit = { relation: string; failed: boolean };

/** What the run did at each node: the relation of its last visit, failed when the node erred. */
export function visitsOf(run: RunDetail | null): Map<string, Visit> {
  const out = new Map<string, Visit>();
  for (const log of run?.logs ?? []) out.set(log.nodeId, { relation: log.relationType, failed: !!log.err });
  return out;
}

const STEP = 10;
const ARROWS: Record<string, Point> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};

export function ChainGraph({
  dsl,
  title,
  selected,
  onSelect,
  problems,
  visits,
  typeLabel,
  onMove,
}: {
  dsl: RuleChainDsl;
  title: string;
  selected?: string | null;
  onSelect?: (id: string) => void;
  problems?: Map<string, ChainProblem[]>;
  visits?: Map<string, Visit>;
  /** A node type's name in the reader's language (its component form's label). */
  typeLabel: (type: string) => string;
  /** Where every node is drawn (top-left corners) and the one moved to its new corner. */
  onMove?: (id: string, to: Point, drawn: ReadonlyMap<string, Point>) => void;
}) {
  const laid = useMemo(() => layoutChain(dsl), [dsl]);
  const [drag, setDrag] = useState<{ key: string; x0: number; y0: number; dx: number; dy: number } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const corners = () =>
    new Map(laid.nodes.filter((n) => n.node).map((n) => [n.key, { x: n.x - n.w / 2, y: n.y - n.h / 2 }]));
  const scale = () => {
    const box = svg.current?.getBoundingClientRect();
    return box && box.width ? laid.width / box.width : 1;
  };
  if (!laid.nodes.length)
    return (
      <p class="muted" data-testid="chain-graph-empty">
        {t.ruleChains.emptyGraph}
      </p>
    );
  // A connection the run followed: its source took that relation and its target was visited.
  const followed = (from: string, to: string, type: string) => visits?.get(from)?.relation === type && visits.has(to);
  const shift = (n: LaidNode) => (drag?.key === n.key ? { x: drag.dx, y: drag.dy } : { x: 0, y: 0 });
  return (
    <div class={css.graphWrap}>
      <svg
        ref={svg}
        class={css.graph}
        viewBox={`0 0 ${laid.width} ${laid.height}`}
        width={laid.width}
        height={laid.height}
        role="group"
        aria-label={title}
        data-testid="chain-graph"
      >
        <defs>
          <marker
            id="rc-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerUnits="userSpaceOnUse"
            markerWidth="9"
            markerHeight="9"
            orient="auto"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" class={css.arrowhead} />
          </marker>
          <marker
            id="rc-arrow-run"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerUnits="userSpaceOnUse"
            markerWidth="11"
            markerHeight="11"
            orient="auto"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" class={css.arrowRun} />
          </marker>
        </defs>
        {laid.edges.map((e) => {
          const run = e.conn ? followed(e.conn.fromId, e.conn.toId, e.conn.type) : false;
          const moved = drag && (drag.key === e.fromKey || drag.key === e.toKey);
          return (
            <g
              key={e.key}
              class={`${css.edge} ${e.index < 0 ? css.trigger : ''} ${run ? css.edgeRun : ''}`}
              data-from={e.fromKey}
              data-to={e.toKey}
              data-type={e.conn?.type}
              data-run={run ? 'true' : undefined}
              opacity={moved ? 0.35 : 1}
            >
              <polyline
                points={e.points.map((p) => `${p.x},${p.y}`).join(' ')}
                marker-end={run ? 'url(#rc-arrow-run)' : 'url(#rc-arrow)'}
              />
              {e.label && (
                <g class={css.edgeLabel}>
                  <rect
                    x={e.lx - labelWidth(e.label) / 2}
                    y={e.ly - 9}
                    width={labelWidth(e.label)}
                    height={16}
                    rx={3}
                  />
                  <text x={e.lx} y={e.ly + 3}>
                    {e.label}
                  </text>
                </g>
              )}
            </g>
          );
        })}
        {laid.nodes.map((n) => {
          const d = shift(n);
          const x = n.x - n.w / 2 + d.x;
          const y = n.y - n.h / 2 + d.y;
          if (n.endpoint) {
            const ep = n.endpoint;
            const route = ep.routers?.[0]?.from?.path;
            return (
              <g key={n.key} class={css.endpoint} data-endpoint={ep.id ?? n.key} transform={`translate(${x},${y})`}>
                <title>{`${typeLabel(ep.type)}${route ? ` ${route}` : ''}`}</title>
                <rect width={n.w} height={n.h} rx={n.h / 2} />
                <text x={n.w / 2} y={n.h / 2 - 2}>
                  {wrapLabel(ep.name || typeLabel(ep.type), 20, 1)[0]}
                </text>
                {route && (
                  <text x={n.w / 2} y={n.h / 2 + 11} class={css.nodeType}>
                    {wrapLabel(String(route), 22, 1)[0]}
                  </text>
                )}
              </g>
            );
          }
          const node = n.node!;
          const issues = problems?.get(node.id) ?? [];
          const visit = visits?.get(node.id);
          const state = issues.length ? 'problem' : visit ? (visit.failed ? 'failed' : 'visited') : 'idle';
          const lines = wrapLabel(node.name || node.id, 24, visit ? 1 : 2);
          const top = n.h / 2 - 6 - ((lines.length - 1) * 13) / 2;
          return (
            <g
              key={n.key}
              class={`${css.node} ${css[`state-${state}`] ?? ''} ${selected === node.id ? css.selected : ''}`}
              data-node-id={node.id}
              data-state={state}
              data-relation={visit?.relation}
              transform={`translate(${x},${y})`}
              tabIndex={0}
              role="button"
              aria-pressed={selected === node.id}
              aria-label={`${node.name || node.id} (${typeLabel(node.type)})${visit ? ` — ${t.ruleChains.visited(visit.relation)}` : ''}${issues.length ? ` — ${issues.map((p) => p.message).join('; ')}` : ''}`}
              onClick={() => onSelect?.(node.id)}
              onKeyDown={(ev) => {
                if (ev.key === 'Enter' || ev.key === ' ') {
                  ev.preventDefault();
                  onSelect?.(node.id);
                }
                const dir = ARROWS[ev.key];
                if (dir && onMove) {
                  ev.preventDefault();
                  const all = corners();
                  const c = all.get(node.id)!;
                  onMove(node.id, { x: c.x + dir.x * STEP, y: c.y + dir.y * STEP }, all);
                }
              }}
              onPointerDown={(ev) => {
                if (!onMove || ev.button !== 0) return;
                (ev.currentTarget as Element).setPointerCapture?.(ev.pointerId);
                setDrag({ key: n.key, x0: ev.clientX, y0: ev.clientY, dx: 0, dy: 0 });
              }}
              onPointerMove={(ev) => {
                if (drag?.key !== n.key) return;
                const k = scale();
                setDrag({ ...drag, dx: (ev.clientX - drag.x0) * k, dy: (ev.clientY - drag.y0) * k });
              }}
              onPointerUp={() => {
                if (drag?.key !== n.key) return;
                setDrag(null);
                if (Math.hypot(drag.dx, drag.dy) < 4 || !onMove) return;
                const all = corners();
                const c = all.get(node.id)!;
                onMove(node.id, { x: c.x + drag.dx, y: c.y + drag.dy }, all);
              }}
            >
              <title>{`${node.name || node.id} (${node.type})${issues.length ? ` — ${issues.map((p) => p.message).join('; ')}` : ''}`}</title>
              <rect width={n.w} height={n.h} rx={6} />
              <text x={n.w / 2} y={top} class={css.nodeName}>
                {lines.map((l, i) => (
                  <tspan key={i} x={n.w / 2} dy={i === 0 ? 0 : 13}>
                    {l}
                  </tspan>
                ))}
              </text>
              <text x={n.w / 2} y={n.h - 9} class={css.nodeType}>
                {visit ? `${typeLabel(node.type)} · ${visit.relation}` : typeLabel(node.type)}
              </text>
              {issues.length > 0 && (
                <text x={n.w - 10} y={14} class={css.warn} data-testid="node-problem-mark">
                  ⚠
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </div>
  );
}
