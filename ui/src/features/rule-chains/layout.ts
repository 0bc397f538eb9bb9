// Where the chain's graph is drawn: at the nodes' additionalInfo.layoutX/Y (their top-left corners, as
// RuleGo's editor keeps them) when every node has them, else laid out by dagre top to bottom like the
// process diagram (components/Diagram.tsx). The chain's triggers (endpoints) sit above the node they
// feed, with a dashed line to it. Every connection is labelled with its relation.
import { Graph, layout } from '@dagrejs/dagre';
import type { EndpointDsl, NodeConnection, RuleChainDsl, RuleNode } from '@chains/types.js';
import { connsOf, nodesOf, relationText } from './model';

export const NODE = { w: 176, h: 56 };
export const ENDPOINT = { w: 150, h: 38 };

export interface Point {
  x: number;
  y: number;
}
export interface LaidNode {
  /** A node's id, or `endpoint:<index>` for a trigger. */
  key: string;
  node?: RuleNode;
  endpoint?: EndpointDsl;
  x: number;
  y: number;
  w: number;
  h: number;
}
export interface LaidEdge {
  key: string;
  /** The connection's index in metadata.connections; -1 for a trigger's line. */
  index: number;
  conn?: NodeConnection;
  fromKey: string;
  toKey: string;
  label: string;
  points: Point[];
  lx: number;
  ly: number;
}
export interface ChainLayout {
  nodes: LaidNode[];
  edges: LaidEdge[];
  width: number;
  height: number;
}

/** The node a trigger feeds: its router's `to.path` (`chainId:nodeId`) or the chain's first node. */
function targetOf(dsl: RuleChainDsl, ep: EndpointDsl, nodes: RuleNode[]): string | undefined {
  const path = ep.routers?.find((r) => typeof r?.to?.path === 'string')?.to?.path;
  const named = typeof path === 'string' && path.includes(':') ? path.slice(path.indexOf(':') + 1) : '';
  if (named && nodes.some((n) => n.id === named)) return named;
  return nodes[dsl.metadata.firstNodeIndex ?? 0]?.id ?? nodes[0]?.id;
}

/** A label's width in px (a wide CJK character counts twice). */
export const labelWidth = (s: string) =>
  [...s].reduce((n, c) => n + (/[\u2e80-\ua4cf\uac00-\ud7a3\uff00-\uff60]/u.test(c) ? 2 : 1), 0) * 6.4 + 10;

const at = (n: { additionalInfo?: { layoutX?: number; layoutY?: number } }): Point | null =>
  typeof n.additionalInfo?.layoutX === 'number' && typeof n.additionalInfo?.layoutY === 'number'
    ? { x: n.additionalInfo.layoutX, y: n.additionalInfo.layoutY }
    : null;

function border(a: LaidNode, b: Point): Point {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  if (!dx && !dy) return { x: a.x, y: a.y };
  const s = Math.max(Math.abs(dx) / (a.w / 2), Math.abs(dy) / (a.h / 2));
  return { x: a.x + dx / s, y: a.y + dy / s };
}

export function layoutChain(dsl: RuleChainDsl): ChainLayout {
  const nodes = nodesOf(dsl).filter((n) => n && typeof n.id === 'string');
  const ids = new Set(nodes.map((n) => n.id));
  const conns = connsOf(dsl)
    .map((conn, index) => ({ conn, index }))
    .filter(({ conn }) => conn && ids.has(conn.fromId) && ids.has(conn.toId));
  const endpoints = (Array.isArray(dsl.metadata?.endpoints) ? dsl.metadata.endpoints : [])
    .map((endpoint, i) => ({ endpoint, key: `endpoint:${i}`, to: targetOf(dsl, endpoint, nodes) }))
    .filter((e) => e.endpoint && e.to);
  const edgeSpecs: Array<Omit<LaidEdge, 'points' | 'lx' | 'ly'>> = [
    ...endpoints.map((e) => ({ key: e.key, index: -1, fromKey: e.key, toKey: e.to!, label: '' })),
    ...conns.map(({ conn, index }) => ({
      key: `c${index}`,
      index,
      conn,
      fromKey: conn.fromId,
      toKey: conn.toId,
      label: relationText(conn),
    })),
  ];

  if (nodes.length && nodes.every((n) => at(n))) {
    const laid: LaidNode[] = nodes.map((node) => ({
      key: node.id,
      node,
      x: at(node)!.x + NODE.w / 2,
      y: at(node)!.y + NODE.h / 2,
      ...NODE,
    }));
    const byKey = new Map(laid.map((n) => [n.key, n]));
    const top = Math.min(...laid.map((n) => n.y));
    endpoints.forEach((e, i) => {
      const target = byKey.get(e.to!)!;
      const own = at(e.endpoint);
      laid.push({
        key: e.key,
        endpoint: e.endpoint,
        x: own ? own.x + ENDPOINT.w / 2 : target.x + (i - (endpoints.length - 1) / 2) * (ENDPOINT.w + 16),
        y: own ? own.y + ENDPOINT.h / 2 : top - 90,
        ...ENDPOINT,
      });
    });
    for (const n of laid) byKey.set(n.key, n);
    const minX = Math.min(...laid.map((n) => n.x - n.w / 2)) - 24;
    const minY = Math.min(...laid.map((n) => n.y - n.h / 2)) - 24;
    for (const n of laid) {
      n.x -= minX;
      n.y -= minY;
    }
    const edges = edgeSpecs.map((e) => {
      const a = byKey.get(e.fromKey)!;
      const b = byKey.get(e.toKey)!;
      return { ...e, points: [border(a, b), border(b, a)], lx: (a.x + b.x) / 2, ly: (a.y + b.y) / 2 };
    });
    return {
      nodes: laid,
      edges,
      width: Math.max(...laid.map((n) => n.x + n.w / 2)) + 24,
      height: Math.max(...laid.map((n) => n.y + n.h / 2)) + 24,
    };
  }

  const g = new Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 36, ranksep: 50, edgesep: 16, marginx: 16, marginy: 16 });
  for (const n of nodes) g.setNode(n.id, { ...NODE, width: NODE.w, height: NODE.h });
  for (const e of endpoints) g.setNode(e.key, { width: ENDPOINT.w, height: ENDPOINT.h });
  for (const e of edgeSpecs)
    g.setEdge(
      e.fromKey,
      e.toKey,
      { width: e.label ? labelWidth(e.label) : 0, height: e.label ? 16 : 0, labelpos: 'c', label: e.label },
      e.key,
    );
  layout(g);
  const laid: LaidNode[] = [
    ...nodes.map((node) => {
      const v = g.node(node.id) as any;
      return { key: node.id, node, x: v.x, y: v.y, ...NODE };
    }),
    ...endpoints.map((e) => {
      const v = g.node(e.key) as any;
      return { key: e.key, endpoint: e.endpoint, x: v.x, y: v.y, ...ENDPOINT };
    }),
  ];
  const edges = edgeSpecs.map((e) => {
    const v = g.edge({ v: e.fromKey, w: e.toKey, name: e.key }) as any;
    return { ...e, points: v.points as Point[], lx: v.x ?? 0, ly: v.y ?? 0 };
  });
  const graph = g.graph() as any;
  return { nodes: laid, edges, width: graph.width ?? 300, height: graph.height ?? 160 };
}
