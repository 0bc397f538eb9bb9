// The process diagram: laid out by dagre from the DSL graph (or placed at the nodes'
// layoutX/layoutY when every node has them), drawn as SVG. Nodes carry a state: current,
// done, upcoming, idle, or error (a validation problem names them).
import { Graph, layout } from '@dagrejs/dagre';
import { useMemo } from 'preact/hooks';
import { t } from '../i18n';

export interface DslNode {
  id: string;
  type: string;
  name?: string;
  configuration?: any;
  additionalInfo?: { layoutX?: number; layoutY?: number; [k: string]: unknown };
}
interface Connection {
  fromId: string;
  toId: string;
  type: string;
}
export type NodeState = 'current' | 'done' | 'upcoming' | 'idle' | 'error';

const W = 168;
const H = 52;
const SMALL = 40;

function size(n: DslNode) {
  return n.type === 'startTask' || n.type === 'end'
    ? { w: SMALL * 2.2, h: SMALL }
    : n.type === 'switch' || n.type === 'inclusive' || n.type === 'fork' || n.type === 'join'
      ? { w: 130, h: 56 }
      : { w: W, h: H };
}

function edgeLabel(from: DslNode | undefined, c: Connection): string {
  if (c.type === 'Success') return '';
  const cases: Array<{ case?: string; then?: string }> = from?.configuration?.cases ?? [];
  const hit = cases.find((k) => k.then === c.type);
  // The relation `Default` (no case matched) is a word in the reader's language; other relation names are data.
  const relation = c.type === 'Default' ? t.diagram.defaultBranch : c.type;
  return hit?.case ? `${relation}: ${hit.case}` : relation;
}

function shorten(s: string, max: number) {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Wide (CJK) characters take about two Latin ones. */
const wide = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

/** How wide a text is, in Latin characters. */
const units = (s: string) => [...s].reduce((n, c) => n + (wide.test(c) ? 2 : 1), 0);

/** A node's name in lines of at most `units` (a Latin character 1, a wide one 2), the last one shortened. */
export function wrapLabel(s: string, units: number, maxLines = 2): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const ch of s) {
    const u = wide.test(ch) ? 2 : 1;
    if (used + u > units) {
      if (lines.length === maxLines - 1) {
        lines.push(`${line.slice(0, -1)}…`);
        return lines;
      }
      // Latin words break at the last space of the line when there is one.
      const space = wide.test(ch) ? -1 : line.lastIndexOf(' ');
      if (space > 0) {
        lines.push(line.slice(0, space));
        line = line.slice(space + 1);
        used = [...line].reduce((n, c) => n + (wide.test(c) ? 2 : 1), 0);
      } else {
        lines.push(line);
        line = '';
        used = 0;
      }
    }
    line += ch;
    used += u;
  }
  if (line) lines.push(line);
  return lines;
}

interface Laid {
  nodes: Array<{ node: DslNode; x: number; y: number; w: number; h: number }>;
  edges: Array<{ c: Connection; points: Array<{ x: number; y: number }>; label: string; lx: number; ly: number }>;
  width: number;
  height: number;
}

export function layoutDsl(dsl: any): Laid {
  const nodes: DslNode[] = Array.isArray(dsl?.metadata?.nodes)
    ? dsl.metadata.nodes.filter((n: any) => n && typeof n.id === 'string')
    : [];
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const connections: Connection[] = (Array.isArray(dsl?.metadata?.connections) ? dsl.metadata.connections : []).filter(
    (c: any) => c && byId.has(c.fromId) && byId.has(c.toId),
  );
  const placed =
    nodes.length > 0 &&
    nodes.every((n) => typeof n.additionalInfo?.layoutX === 'number' && typeof n.additionalInfo?.layoutY === 'number');
  if (placed) {
    const out = nodes.map((node) => ({
      node,
      x: node.additionalInfo!.layoutX! + size(node).w / 2,
      y: node.additionalInfo!.layoutY! + size(node).h / 2,
      ...size(node),
    }));
    const at = new Map(out.map((n) => [n.node.id, n]));
    const minX = Math.min(...out.map((n) => n.x - n.w / 2)) - 20;
    const minY = Math.min(...out.map((n) => n.y - n.h / 2)) - 20;
    for (const n of out) {
      n.x -= minX;
      n.y -= minY;
    }
    const edges = connections.map((c) => {
      const a = at.get(c.fromId)!;
      const b = at.get(c.toId)!;
      const points = [border(a, b), border(b, a)];
      return { c, points, label: edgeLabel(byId.get(c.fromId), c), lx: (a.x + b.x) / 2, ly: (a.y + b.y) / 2 };
    });
    return {
      nodes: out,
      edges,
      width: Math.max(...out.map((n) => n.x + n.w / 2)) + 20,
      height: Math.max(...out.map((n) => n.y + n.h / 2)) + 20,
    };
  }
  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 30, ranksep: 46, edgesep: 14, marginx: 16, marginy: 16 });
  for (const n of nodes) g.setNode(n.id, { width: size(n).w, height: size(n).h });
  connections.forEach((c, i) => {
    const label = edgeLabel(byId.get(c.fromId), c);
    const text = shorten(label, 34);
    g.setEdge(
      c.fromId,
      c.toId,
      { width: text ? units(text) * 6.2 + 8 : 0, height: text ? 16 : 0, labelpos: 'c', label: text },
      `e${i}`,
    );
  });
  layout(g);
  const laidNodes = nodes.map((node) => {
    const v = g.node(node.id) as any;
    return { node, x: v.x, y: v.y, w: v.width, h: v.height };
  });
  const edges = connections.map((c, i) => {
    const e = g.edge({ v: c.fromId, w: c.toId, name: `e${i}` }) as any;
    return {
      c,
      points: e.points as Array<{ x: number; y: number }>,
      label: e.label as string,
      lx: e.x ?? 0,
      ly: e.y ?? 0,
    };
  });
  const graph = g.graph() as any;
  return { nodes: laidNodes, edges, width: graph.width ?? 300, height: graph.height ?? 200 };
}

function border(a: { x: number; y: number; w: number; h: number }, b: { x: number; y: number }) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  if (!dx && !dy) return { x: a.x, y: a.y };
  const sx = Math.abs(dx) / (a.w / 2);
  const sy = Math.abs(dy) / (a.h / 2);
  const s = Math.max(sx, sy);
  return { x: a.x + dx / s, y: a.y + dy / s };
}

const stateWords: Record<NodeState, string> = {
  current: t.instance.legendCurrent,
  done: t.instance.legendDone,
  upcoming: t.instance.legendUpcoming,
  idle: '',
  error: t.instance.legendError,
};

export function Diagram({
  dsl,
  states = {},
  problems = {},
  title,
}: {
  dsl: any;
  states?: Record<string, NodeState>;
  problems?: Record<string, string[]>;
  title: string;
}) {
  const laid = useMemo(() => layoutDsl(dsl), [dsl]);
  if (!laid.nodes.length) return <p class="muted">{t.common.none}</p>;
  return (
    <div class="diagram-wrap">
      <svg
        class="diagram"
        viewBox={`0 0 ${laid.width} ${laid.height}`}
        width={laid.width}
        height={laid.height}
        role="img"
        aria-label={title}
        data-testid="diagram"
      >
        <title>{title}</title>
        <defs>
          <marker
            id="arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" class="arrowhead" />
          </marker>
        </defs>
        {/* By place as well: a document may repeat a connection. */}
        {laid.edges.map((e, i) => (
          <g
            key={`${i}:${e.c.fromId}>${e.c.toId}:${e.c.type}`}
            class="edge"
            data-from={e.c.fromId}
            data-to={e.c.toId}
            data-type={e.c.type}
          >
            <polyline points={e.points.map((p) => `${p.x},${p.y}`).join(' ')} marker-end="url(#arrow)" />
            {e.label && (
              <g class="edge-label">
                <rect
                  x={e.lx - (units(e.label) * 6.2 + 8) / 2}
                  y={e.ly - 9}
                  width={units(e.label) * 6.2 + 8}
                  height={16}
                  rx={3}
                />
                <text x={e.lx} y={e.ly + 3}>
                  {e.label}
                </text>
              </g>
            )}
          </g>
        ))}
        {laid.nodes.map(({ node, x, y, w, h }) => {
          const state: NodeState = problems[node.id]?.length ? 'error' : (states[node.id] ?? 'idle');
          const round = node.type === 'startTask' || node.type === 'end' ? h / 2 : node.type === 'userTask' ? 8 : 2;
          const diamond = node.type === 'switch' || node.type === 'inclusive';
          return (
            <g
              key={node.id}
              class={`node node-${node.type} state-${state}`}
              data-node-id={node.id}
              data-state={state}
              transform={`translate(${x - w / 2},${y - h / 2})`}
            >
              <title>{`${node.name ?? node.id} (${node.type})${stateWords[state] ? `: ${stateWords[state]}` : ''}${problems[node.id]?.length ? ` — ${problems[node.id]!.join('; ')}` : ''}`}</title>
              {diamond ? (
                <polygon points={`${w / 2},0 ${w},${h / 2} ${w / 2},${h} 0,${h / 2}`} />
              ) : (
                <rect width={w} height={h} rx={round} />
              )}
              {(() => {
                // The name wraps onto two lines (Chinese names are wide); a second line moves it up.
                const typed = node.type === 'userTask' || node.type === 'ccTask';
                const lines = wrapLabel(node.name ?? node.id, Math.floor((diamond ? w * 0.75 : w - 14) / 6.8));
                const lineH = 13;
                const top =
                  h / 2 - (typed ? 3 : -4) - ((lines.length - 1) * lineH) / 2 - (typed && lines.length > 1 ? 4 : 0);
                return (
                  <text x={w / 2} y={top} class="name">
                    {lines.map((l, i) => (
                      <tspan key={i} x={w / 2} dy={i === 0 ? 0 : lineH}>
                        {l}
                      </tspan>
                    ))}
                  </text>
                );
              })()}
              {(node.type === 'userTask' || node.type === 'ccTask') && (
                <text x={w / 2} y={h / 2 + 15} class="type">
                  {node.type === 'ccTask'
                    ? t.nodeKind.copy
                    : state === 'error'
                      ? t.nodeKind.error
                      : stateWords[state] || t.nodeKind.approval}
                </text>
              )}
              {state === 'error' && node.type !== 'userTask' && node.type !== 'ccTask' && (
                <text x={w - 8} y={12} class="type">
                  ⚠
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <p class="legend small">
        <span class="key state-current">{t.instance.legendCurrent}</span>{' '}
        <span class="key state-done">{t.instance.legendDone}</span>{' '}
        <span class="key state-upcoming">{t.instance.legendUpcoming}</span>
      </p>
    </div>
  );
}
