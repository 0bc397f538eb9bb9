// The graph view's document operations (ui/src/features/designer/model/layout.ts): a step inserted
// on a connection of a process that is not a column, and a node moved, its position kept in
// additionalInfo.layoutX/layoutY; every one undone by the command stack.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { problemsOf } from '../../../ui/src/features/designer/model/problems.js';
import type { Doc } from '../../../ui/src/features/designer/model/doc.js';
import { execute, historyOf, undo } from '../../../ui/src/features/designer/model/history.js';
import { addKinds, type KindNames } from '../../../ui/src/features/designer/model/kinds.js';
import {
  graphKinds,
  insertOnConnection,
  isPlaced,
  moveNode,
  type Point,
} from '../../../ui/src/features/designer/model/layout.js';
import { toTree } from '../../../ui/src/features/designer/model/tree.js';

const root = path.resolve(import.meta.dirname, '../../..');
const names = Object.fromEntries([...addKinds, 'join', 'branch'].map((k) => [k, k])) as KindNames;

/** The leave request with a return edge (manager_and_hr rejects back to start): not a column. */
function withReturn(): Doc {
  const doc = JSON.parse(readFileSync(path.join(root, 'examples', 'leave-request.json'), 'utf8')) as Doc;
  doc.metadata.connections.push({ fromId: 'manager_and_hr', toId: 'start', type: 'Reject' });
  return doc;
}
const index = (doc: Doc, from: string, to: string) =>
  doc.metadata.connections.findIndex((c) => c.fromId === from && c.toId === to);
const edges = (doc: Doc) => doc.metadata.connections.map((c) => `${c.fromId}>${c.toId}:${c.type}`).sort();
const node = (doc: Doc, id: string) => doc.metadata.nodes.find((n) => n.id === id)!;
/** Where an automatic layout drew each node (any numbers will do for the model). */
const drawn = (doc: Doc) => new Map<string, Point>(doc.metadata.nodes.map((n, i) => [n.id, { x: 100 * i, y: 60 * i }]));
/** Every node pinned at `drawn`, as after a first move. */
const placed = (doc: Doc) => moveNode(doc, 'end', 1, 0, drawn(doc));

describe('insert on a connection (graph view)', () => {
  it('the new step goes between the connection’s ends; the relation stays on the first half', () => {
    const doc = withReturn();
    expect(toTree(doc)).toBeNull();
    const { doc: next, id } = insertOnConnection(doc, index(doc, 'route_by_days', 'manager_and_hr'), 'approver', names);
    expect(id).toBe('approver_1');
    expect(edges(next)).toEqual(
      [
        ...edges(doc).filter((e) => e !== 'route_by_days>manager_and_hr:medium'),
        'route_by_days>approver_1:medium',
        'approver_1>manager_and_hr:Success',
      ].sort(),
    );
    expect(problemsOf(next)).toEqual([]);
    // nothing else changed: the other nodes are the same objects; not placed, so no coordinates are invented
    expect(next.metadata.nodes.slice(0, doc.metadata.nodes.length)).toEqual(doc.metadata.nodes);
    expect(node(next, 'approver_1').additionalInfo).toBeUndefined();
    expect(undo(execute(historyOf(doc), { name: 'insert', run: () => next })).doc).toBe(doc);
  });

  it('a block (parallel) on a connection: fork, two approvers and a join, valid at once', () => {
    const doc = withReturn();
    const { doc: next, id } = insertOnConnection(doc, index(doc, 'notify_hr', 'end'), 'parallel', names);
    expect(id).toBe('fork_1');
    expect(edges(next)).toEqual(
      expect.arrayContaining(['notify_hr>fork_1:Success', 'join_1>end:Success', 'fork_1>approver_1:Success']),
    );
    expect(problemsOf(next)).toEqual([]);
  });

  it('on a graph drawn at its coordinates, the new nodes get coordinates between the ends', () => {
    const doc = placed(withReturn());
    expect(isPlaced(doc)).toBe(true);
    const from = node(doc, 'notify_hr').additionalInfo!;
    const to = node(doc, 'end').additionalInfo!;
    const one = insertOnConnection(doc, index(doc, 'notify_hr', 'end'), 'cc', names);
    expect(node(one.doc, one.id!).additionalInfo).toEqual({
      layoutX: Math.round((from.layoutX! + to.layoutX!) / 2),
      layoutY: Math.round((from.layoutY! + to.layoutY!) / 2),
    });
    expect(isPlaced(one.doc)).toBe(true); // the others stay where they were put
    const block = insertOnConnection(doc, index(doc, 'notify_hr', 'end'), 'parallel', names).doc;
    expect(isPlaced(block)).toBe(true);
    const [a, b] = ['approver_1', 'approver_2'].map((i) => node(block, i).additionalInfo!);
    expect(a.layoutY).toBe(b.layoutY); // the branches side by side, below the fork, above the join
    expect(a.layoutX).not.toBe(b.layoutX);
    expect(node(block, 'join_1').additionalInfo!.layoutY).toBeGreaterThan(a.layoutY!);
  });

  it('offers no End on a connection, and an unknown connection changes nothing', () => {
    expect(graphKinds(addKinds)).not.toContain('end');
    const doc = withReturn();
    expect(insertOnConnection(doc, 99, 'approver', names)).toEqual({ doc, id: null });
    expect(insertOnConnection(doc, 0, 'end', names)).toEqual({ doc, id: null });
  });
});

describe('move a node (graph view)', () => {
  it('first move pins every node where it was drawn, the moved one shifted', () => {
    const doc = withReturn();
    const at = drawn(doc);
    const next = moveNode(doc, 'notify_hr', 40, -20.4, at);
    expect(isPlaced(next)).toBe(true);
    for (const n of next.metadata.nodes) {
      const p = at.get(n.id)!;
      const shift = n.id === 'notify_hr' ? { x: 40, y: -20 } : { x: 0, y: 0 };
      expect([n.additionalInfo!.layoutX, n.additionalInfo!.layoutY]).toEqual([p.x + shift.x, p.y + shift.y]);
    }
    // additionalInfo fields already there survive (the start's formPermissions)
    expect(node(next, 'start').additionalInfo!.formPermissions).toEqual(
      node(doc, 'start').additionalInfo!.formPermissions,
    );
    expect(edges(next)).toEqual(edges(doc));
    expect(undo(execute(historyOf(doc), { name: 'moveNode', run: () => next })).doc).toBe(doc);
  });

  it('once placed, only the moved node changes; no movement or an unknown node changes nothing', () => {
    const doc = placed(withReturn());
    const before = node(doc, 'route_by_days').additionalInfo!;
    const next = moveNode(doc, 'route_by_days', -15, 30, new Map());
    expect(node(next, 'route_by_days').additionalInfo).toEqual({
      ...before,
      layoutX: before.layoutX! - 15,
      layoutY: before.layoutY! + 30,
    });
    next.metadata.nodes.forEach((n, i) => {
      if (n.id !== 'route_by_days') expect(n).toBe(doc.metadata.nodes[i]);
    });
    expect(moveNode(doc, 'route_by_days', 0.2, -0.3, new Map())).toBe(doc);
    expect(moveNode(doc, 'nope', 10, 10, new Map())).toBe(doc);
    // not placed and a node the layout did not draw: nothing to pin it to
    expect(moveNode(withReturn(), 'end', 10, 0, new Map([['end', { x: 0, y: 0 }]]))).not.toHaveProperty(
      'metadata.nodes.0.additionalInfo.layoutX',
    );
  });
});
