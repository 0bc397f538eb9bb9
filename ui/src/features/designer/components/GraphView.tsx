// The graph of a process the column cannot show (a return route, a loop, a failure route), laid
// out like the instance diagram (components/Diagram.tsx's layoutDsl). Nodes open the same panels.
// With an `editor`, it also edits: a "+" on every connection inserts a step there, and a node is
// moved by dragging it or with the arrow keys (its position kept in additionalInfo.layoutX/Y).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { layoutDsl, wrapLabel } from '../../../components/Diagram';
import { t } from '../i18n';
import type { Doc } from '../model/doc';
import { addKinds } from '../model/kinds';
import { graphKinds, moveNode, type Point } from '../model/layout';
import { isWarning, type DesignProblem } from '../model/problems';
import type { DesignerStore } from '../store';
import s from '../designer.module.css';
import type { SimMark } from './NodeCard';

export type Mark = 'added' | 'removed' | 'changed';

type Laid = ReturnType<typeof layoutDsl>;

/** The point a fraction `f` of the way along a polyline. */
function along(points: readonly Point[], f: number): Point {
  const lengths = points.slice(1).map((p, i) => Math.hypot(p.x - points[i]!.x, p.y - points[i]!.y));
  let left = lengths.reduce((a, b) => a + b, 0) * f;
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i]! || i === lengths.length - 1) {
      const k = lengths[i]! ? Math.min(1, left / lengths[i]!) : 0;
      const a = points[i]!;
      const b = points[i + 1]!;
      return { x: a.x + (b.x - a.x) * k, y: a.y + (b.y - a.y) * k };
    }
    left -= lengths[i]!;
  }
  return points[0] ?? { x: 0, y: 0 };
}

/** Where a connection's "+" sits: beside the label when there is one (the label sits at the middle). */
const plusAt = (e: Laid['edges'][number]) => along(e.points, e.label ? 0.3 : 0.5);

/** Where each node is drawn: its top-left corner in layout coordinates. */
const corners = (laid: Laid) => new Map(laid.nodes.map((n) => [n.node.id, { x: n.x - n.w / 2, y: n.y - n.h / 2 }]));

const STEP = 10;
/** The + menu's size (designer.module.css .menu: 280 px wide, five rows of two). */
const MENU = { w: 290, h: 250 };
const arrows: Record<string, Point> = {
  ArrowLeft: { x: -1, y: 0 },
  ArrowRight: { x: 1, y: 0 },
  ArrowUp: { x: 0, y: -1 },
  ArrowDown: { x: 0, y: 1 },
};

interface Drag {
  id: string;
  pointer: number;
  x0: number;
  y0: number;
  dx: number;
  dy: number;
  moved: boolean;
}

export function GraphView({
  doc,
  problems,
  selected,
  onSelect,
  sim,
  marks,
  title,
  editor,
}: {
  doc: Doc;
  problems?: Map<string, DesignProblem[]>;
  selected?: string | null;
  onSelect?: (id: string) => void;
  sim?: Map<string, SimMark>;
  marks?: Map<string, Mark>;
  title: string;
  /** The designer's store: the graph inserts and moves through its commands. */
  editor?: DesignerStore;
}) {
  const d = t.designer;
  const base = useMemo(() => layoutDsl(doc), [doc]);
  const drawn = useMemo(() => corners(base), [base]);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [menu, setMenu] = useState<number | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  // While dragging, the graph as it would be after the drop (edges follow the node).
  const laid = useMemo(
    () => (drag?.moved ? layoutDsl(moveNode(doc, drag.id, drag.dx, drag.dy, drawn)) : base),
    [base, drag],
  );
  useEffect(() => {
    if (menu !== null) menuRef.current?.querySelector('button')?.focus();
  }, [menu]);
  useEffect(() => setMenu(null), [doc]);

  const connections = doc.metadata.connections;
  const names = new Map(doc.metadata.nodes.map((n) => [n.id, n.name || n.id]));
  const edgeLabel = (index: number) => {
    const c = connections[index]!;
    return d.insertOn(names.get(c.fromId) ?? c.fromId, names.get(c.toId) ?? c.toId);
  };
  /** Screen pixels per layout unit (the canvas zoom included). */
  const scale = () => (svg.current ? svg.current.getBoundingClientRect().width / laid.width : 1) || 1;

  const graph = (
    <svg
      ref={svg}
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
      {/* Edges by place as well: an imported document may repeat a connection (its problem is listed). */}
      {laid.edges.map((e, i) => (
        <g key={`${i}:${e.c.fromId}>${e.c.toId}:${e.c.type}`} class={s.gedge} data-from={e.c.fromId} data-to={e.c.toId}>
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
          editor && s.movable,
          drag?.moved && drag.id === node.id && s.dragging,
        ]
          .filter(Boolean)
          .join(' ');
        const who = sim?.get(node.id)?.approvers.join(', ');
        return (
          <g
            key={node.id}
            class={cls}
            data-node-id={node.id}
            transform={`translate(${x - w / 2},${y - h / 2})`}
            tabindex={onSelect ? 0 : undefined}
            role={onSelect ? 'button' : undefined}
            aria-label={`${t.designer.types[node.type] ?? node.type}: ${node.name ?? node.id}`}
            aria-keyshortcuts={editor ? 'ArrowUp ArrowDown ArrowLeft ArrowRight' : undefined}
            aria-describedby={editor ? 'graph-mode' : undefined}
            onClick={() => onSelect?.(node.id)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onSelect?.(node.id);
              }
              const dir = arrows[e.key];
              if (editor && dir) {
                e.preventDefault();
                const step = e.shiftKey ? STEP * 5 : STEP;
                editor.moveNode(node.id, dir.x * step, dir.y * step, drawn, `layout:${node.id}`);
              }
            }}
            onPointerDown={(e) => {
              if (!editor || e.button !== 0) return;
              (e.currentTarget as Element).setPointerCapture(e.pointerId);
              setDrag({ id: node.id, pointer: e.pointerId, x0: e.clientX, y0: e.clientY, dx: 0, dy: 0, moved: false });
            }}
            onPointerMove={(e) => {
              if (!drag || drag.pointer !== e.pointerId) return;
              const k = scale();
              const dx = (e.clientX - drag.x0) / k;
              const dy = (e.clientY - drag.y0) / k;
              setDrag({ ...drag, dx, dy, moved: drag.moved || Math.hypot(dx, dy) > 3 });
            }}
            onPointerUp={(e) => {
              if (!drag || drag.pointer !== e.pointerId) return;
              setDrag(null);
              if (drag.moved && editor) editor.moveNode(drag.id, drag.dx, drag.dy, drawn);
            }}
            onPointerCancel={() => setDrag(null)}
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
      {editor &&
        !drag?.moved &&
        laid.edges.map((e) => {
          const index = connections.indexOf(e.c);
          const p = plusAt(e);
          return (
            <g
              key={`${index}:${e.c.fromId}>${e.c.toId}:${e.c.type}`}
              class={s.gplus}
              data-edge={index}
              data-from={e.c.fromId}
              data-to={e.c.toId}
              transform={`translate(${p.x},${p.y})`}
              tabindex={0}
              role="button"
              aria-label={edgeLabel(index)}
              aria-expanded={menu === index}
              onClick={() => setMenu(menu === index ? null : index)}
              onKeyDown={(ev) => {
                if (ev.key === 'Enter' || ev.key === ' ') {
                  ev.preventDefault();
                  setMenu(menu === index ? null : index);
                }
              }}
            >
              <title>{edgeLabel(index)}</title>
              <circle r={9} />
              <text y={4}>+</text>
            </g>
          );
        })}
    </svg>
  );
  if (!editor) return graph;
  const open = menu !== null ? laid.edges.find((e) => connections.indexOf(e.c) === menu) : undefined;
  const at = open ? plusAt(open) : null;
  // The menu opens beside its +, turned back inside the graph near its right or bottom edge.
  const where = at && {
    x: at.x + MENU.w + 14 > laid.width ? Math.max(0, at.x - MENU.w - 14) : at.x + 14,
    y: at.y + MENU.h > laid.height ? Math.max(0, laid.height - MENU.h) : Math.max(0, at.y - 12),
  };
  return (
    <div class={s.graphEdit}>
      <div class={s.graphBox}>
        {graph}
        {menu !== null && where && (
          <div
            class={s.menu}
            role="menu"
            aria-label={edgeLabel(menu)}
            ref={menuRef}
            data-edge-menu={menu}
            style={{ left: `${where.x}px`, top: `${where.y}px` }}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setMenu(null);
                svg.current?.querySelector<SVGGElement>(`[data-edge="${menu}"]`)?.focus();
              }
            }}
          >
            {graphKinds(addKinds).map((k) => (
              <button
                key={k}
                type="button"
                role="menuitem"
                data-kind={k}
                onClick={() => {
                  setMenu(null);
                  editor.insertOnEdge(menu, k);
                }}
              >
                {d.kinds[k]}
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}
