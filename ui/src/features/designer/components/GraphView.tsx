// The graph of a process the column cannot show (a return route, a loop, a failure route), laid
// out like the instance diagram (components/Diagram.tsx's layoutDsl). Nodes open the same panels.
import { useMemo } from 'preact/hooks';
import { layoutDsl, wrapLabel } from '../../../components/Diagram';
import { t } from '../../../i18n';
import type { Doc } from '../model/doc';
import { isWarning, type DesignProblem } from '../model/problems';
import s from '../designer.module.css';
import type { SimMark } from './NodeCard';

export type Mark = 'added' | 'removed' | 'changed';

export function GraphView({
  doc,
  problems,
  selected,
  onSelect,
  sim,
  marks,
  title,
}: {
  doc: Doc;
  problems?: Map<string, DesignProblem[]>;
  selected?: string | null;
  onSelect?: (id: string) => void;
  sim?: Map<string, SimMark>;
  marks?: Map<string, Mark>;
  title: string;
}) {
  const laid = useMemo(() => layoutDsl(doc), [doc]);
  return (
    <svg
      class={s.graph}
      viewBox={`0 0 ${laid.width} ${laid.height}`}
      width={laid.width}
      height={laid.height}
      role="group"
      aria-label={title}
      data-testid="graph"
    >
      <defs>
        <marker
          id="garrow"
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" />
        </marker>
      </defs>
      {laid.edges.map((e) => (
        <g class={s.gedge} data-from={e.c.fromId} data-to={e.c.toId}>
          <polyline points={e.points.map((p) => `${p.x},${p.y}`).join(' ')} marker-end="url(#garrow)" />
          {e.label && (
            <text x={e.lx} y={e.ly + 3}>
              {e.label.length > 30 ? `${e.label.slice(0, 29)}…` : e.label}
            </text>
          )}
        </g>
      ))}
      {laid.nodes.map(({ node, x, y, w, h }) => {
        const bad = problems?.get(node.id)?.length;
        const errors = problems?.get(node.id)?.some((p) => !isWarning(p));
        const mark = marks?.get(node.id);
        const cls = [
          s.gnode,
          errors && s.bad,
          bad && !errors && s.warned,
          selected === node.id && s.selected,
          sim?.has(node.id) && s.onPath,
          mark && s[mark],
        ]
          .filter(Boolean)
          .join(' ');
        const who = sim?.get(node.id)?.approvers.join(', ');
        return (
          <g
            class={cls}
            data-node-id={node.id}
            transform={`translate(${x - w / 2},${y - h / 2})`}
            tabIndex={onSelect ? 0 : undefined}
            role={onSelect ? 'button' : undefined}
            aria-label={`${t.designer.types[node.type] ?? node.type}: ${node.name ?? node.id}`}
            onClick={() => onSelect?.(node.id)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onSelect?.(node.id);
              }
            }}
          >
            <rect width={w} height={h} rx={6} />
            {(() => {
              // Names wrap onto two lines like the instance diagram's (Chinese names are wide).
              const lines = wrapLabel(`${node.name ?? node.id}${bad ? ' ⚠' : ''}`, Math.floor((w - 12) / 6.8));
              const top = h / 2 + 4 - (who ? 8 : 0) - ((lines.length - 1) * 13) / 2;
              return (
                <text x={w / 2} y={top}>
                  {lines.map((l, i) => (
                    <tspan key={i} x={w / 2} dy={i === 0 ? 0 : 13}>
                      {l}
                    </tspan>
                  ))}
                </text>
              );
            })()}
            {who && (
              <text x={w / 2} y={h / 2 + 14} class={s.gsub}>
                {who.slice(0, 28)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
