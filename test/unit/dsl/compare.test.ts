// The node-level difference between two definitions (dsl/compare.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDefinitions, fieldChanges, parseProcess, type ProcessDocument } from '../../../dsl/index.js';

const example = (name: string): ProcessDocument =>
  parseProcess(JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../examples', `${name}.json`), 'utf8')))
    .doc!;
const copy = (doc: ProcessDocument): ProcessDocument => structuredClone(doc);
const nodeOf = (doc: ProcessDocument, id: string) => doc.metadata.nodes.find((n) => n.id === id)!;

describe('compareDefinitions', () => {
  const expense = example('expense-claim');

  it('finds nothing between a document and itself', () => {
    expect(compareDefinitions(expense, copy(expense))).toEqual({
      added: [],
      removed: [],
      changed: [],
      connections: { added: [], removed: [] },
      process: [],
    });
  });

  it('names nodes added and removed with their type and name, and the connections that came and went', () => {
    const next = copy(expense);
    next.metadata.nodes = next.metadata.nodes.filter((n) => n.id !== 'directors');
    next.metadata.nodes.push({
      id: 'cfo',
      type: 'userTask',
      name: 'CFO',
      configuration: nodeOf(expense, 'directors').configuration,
    });
    next.metadata.connections = next.metadata.connections
      .filter((c) => c.fromId !== 'directors' && c.toId !== 'directors')
      .concat([
        { fromId: 'size', toId: 'cfo', type: 'large' },
        { fromId: 'cfo', toId: 'end', type: 'Success' },
      ]);
    const diff = compareDefinitions(expense, next);
    expect(diff.added).toEqual([{ id: 'cfo', type: 'userTask', name: 'CFO' }]);
    expect(diff.removed).toEqual([{ id: 'directors', type: 'userTask', name: 'Directors vote' }]);
    expect(diff.changed).toEqual([]);
    expect(diff.connections).toEqual({
      added: [
        { fromId: 'size', toId: 'cfo', type: 'large' },
        { fromId: 'cfo', toId: 'end', type: 'Success' },
      ],
      removed: [
        { fromId: 'size', toId: 'directors', type: 'large' },
        { fromId: 'directors', toId: 'end', type: 'Success' },
      ],
    });
  });

  it('lists each changed field of a node as a dotted path with its values before and after', () => {
    const next = copy(expense);
    const directors = nodeOf(next, 'directors');
    directors.name = 'Board vote';
    Object.assign(directors.configuration!, {
      approver: { type: 'user', userIds: ['carol', 'dave'] },
      voteRule: { type: 'percent', value: 50 },
      timeout: { dueInMinutes: 60, action: 'remind' },
    });
    (nodeOf(next, 'size').configuration as { cases: Array<{ case: string }> }).cases[0].case = 'msg.amount >= 5000';
    const diff = compareDefinitions(expense, next);
    // In the order of the nodes in the document.
    expect(diff.changed).toEqual([
      {
        id: 'size',
        type: 'switch',
        name: 'Large claim?',
        changes: [{ path: 'configuration.cases[0].case', before: 'msg.amount >= 10000', after: 'msg.amount >= 5000' }],
      },
      {
        id: 'directors',
        type: 'userTask',
        name: 'Board vote',
        changes: [
          { path: 'configuration.approver.userIds', before: ['carol', 'dave', 'frank'], after: ['carol', 'dave'] },
          { path: 'configuration.timeout', after: { dueInMinutes: 60, action: 'remind' } },
          { path: 'configuration.voteRule.value', before: 60, after: 50 },
          { path: 'name', before: 'Directors vote', after: 'Board vote' },
        ],
      },
    ]);
    expect(diff.added).toEqual([]);
    expect(diff.connections).toEqual({ added: [], removed: [] });
  });

  it('reports a node whose type changed, a field removed, and process settings', () => {
    const next = copy(expense);
    const split = nodeOf(next, 'split');
    split.type = 'inclusive';
    split.configuration = { cases: [] };
    delete (nodeOf(next, 'manager').configuration as { reject?: unknown }).reject;
    next.ruleChain.name = 'Expense claim (2026)';
    next.metadata.firstNodeIndex = 1;
    const diff = compareDefinitions(expense, next);
    expect(diff.changed.map((c) => [c.id, c.type, c.changes])).toEqual([
      ['manager', 'userTask', [{ path: 'configuration.reject', before: { strategy: 'toStarter' } }]],
      [
        'split',
        'inclusive',
        [
          { path: 'configuration', after: { cases: [] } },
          { path: 'type', before: 'fork', after: 'inclusive' },
        ],
      ],
    ]);
    expect(diff.process).toEqual([
      { path: 'ruleChain.name', before: 'Expense claim', after: 'Expense claim (2026)' },
      { path: 'firstNodeId', before: 'start', after: 'manager' },
    ]);
  });

  it('counts a connection twice when it is there twice', () => {
    const next = copy(expense);
    next.metadata.connections.push({ fromId: 'start', toId: 'manager', type: 'Success' });
    expect(compareDefinitions(expense, next).connections).toEqual({
      added: [{ fromId: 'start', toId: 'manager', type: 'Success' }],
      removed: [],
    });
    expect(compareDefinitions(next, expense).connections.removed).toEqual([
      { fromId: 'start', toId: 'manager', type: 'Success' },
    ]);
  });

  it('reads an unfinished document without failing', () => {
    const broken = { ruleChain: { id: 'x' }, metadata: { nodes: [{ id: 'a', type: 'startTask' }, 'oops'] } };
    const diff = compareDefinitions(broken as unknown as ProcessDocument, expense);
    expect(diff.removed).toEqual([{ id: 'a', type: 'startTask', name: null }]);
    expect(diff.added).toHaveLength(expense.metadata.nodes.length);
    expect(diff.connections.added).toHaveLength(expense.metadata.connections.length);
  });
});

describe('fieldChanges', () => {
  it('compares lists of ids whole and lists of objects of the same length element by element', () => {
    expect(fieldChanges({ ids: ['a', 'b'] }, { ids: ['a', 'c'] })).toEqual([
      { path: 'ids', before: ['a', 'b'], after: ['a', 'c'] },
    ]);
    expect(fieldChanges({ cases: [{ a: 1 }, { a: 2 }] }, { cases: [{ a: 1 }, { a: 3 }] })).toEqual([
      { path: 'cases[1].a', before: 2, after: 3 },
    ]);
    expect(fieldChanges({ cases: [{ a: 1 }] }, { cases: [{ a: 1 }, { a: 2 }] })).toEqual([
      { path: 'cases', before: [{ a: 1 }], after: [{ a: 1 }, { a: 2 }] },
    ]);
  });

  it('ignores key order and tells null from absent', () => {
    expect(fieldChanges({ a: { x: 1, y: [1, { z: 2 }] } }, { a: { y: [1, { z: 2 }], x: 1 } })).toEqual([]);
    expect(fieldChanges({ a: null }, {})).toEqual([{ path: 'a', before: null }]);
    expect(fieldChanges({}, { a: null })).toEqual([{ path: 'a', after: null }]);
  });
});
