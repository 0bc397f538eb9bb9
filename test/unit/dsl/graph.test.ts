import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  approvalNodesAhead,
  compileProcess,
  downstream,
  enclosingRegion,
  firstNode,
  matchingJoin,
  nodeById,
  outgoing,
  pathCrossesParallel,
  previousApprovalNode,
  successors,
  upstream,
  type ProcessDocument,
} from '../../../dsl/index.js';

const exampleDir = new URL('../../../examples/', import.meta.url);

function load(name: string): ProcessDocument {
  const result = compileProcess(JSON.parse(readFileSync(new URL(`${name}.json`, exampleDir), 'utf8')));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.doc;
}

const leave = load('leave-request');
const expense = load('expense-claim');
const purchase = load('purchase-legacy-keys');
const ids = (set: Iterable<string>) => [...set].sort();
const ahead = (doc: ProcessDocument, from: string[]) =>
  approvalNodesAhead(doc, from).map((a) => [a.node.id, a.undecided]);

describe('lookups', () => {
  it('finds nodes, the first node and connections', () => {
    expect(nodeById(leave, 'notify_hr')?.type).toBe('ccTask');
    expect(nodeById(leave, 'ghost')).toBeUndefined();
    expect(firstNode(leave)?.id).toBe('start');
    expect(firstNode(purchase)?.id).toBe('route');
    expect(outgoing(leave, 'route_by_days').map((c) => c.type)).toEqual(['short', 'medium', 'Default']);
    expect(successors(leave, 'route_by_days', 'medium').map((n) => n.id)).toEqual(['manager_and_hr']);
    expect(successors(expense, 'split', 'Success').map((n) => n.id)).toEqual(['finance_check', 'budget_owner']);
  });

  it('computes upstream and downstream sets', () => {
    expect(ids(upstream(expense, 'directors'))).toEqual([
      'budget_owner',
      'finance_check',
      'manager',
      'merge',
      'size',
      'split',
      'start',
    ]);
    expect(ids(downstream(leave, 'manager_approval'))).toEqual(['end', 'notify_hr']);
    expect(upstream(leave, 'start').size).toBe(0);
  });
});

describe('parallel regions', () => {
  it('finds the join where a fork meets', () => {
    expect(matchingJoin(expense, 'split')?.id).toBe('merge');
    expect(matchingJoin(expense, 'manager')).toBeNull();
  });

  it('finds the region enclosing a node', () => {
    expect(enclosingRegion(expense, 'finance_check')?.id).toBe('split');
    expect(enclosingRegion(expense, 'budget_owner')?.id).toBe('split');
    expect(enclosingRegion(expense, 'merge')).toBeNull();
    expect(enclosingRegion(expense, 'directors')).toBeNull();
  });

  it('tells whether a way back crosses a fork, join or inclusive', () => {
    expect(pathCrossesParallel(expense, 'manager', 'start')).toBe(false);
    expect(pathCrossesParallel(expense, 'finance_check', 'manager')).toBe(true);
    expect(pathCrossesParallel(expense, 'directors', 'finance_check')).toBe(true);
    expect(pathCrossesParallel(leave, 'management_chain', 'start')).toBe(false);
    expect(pathCrossesParallel(leave, 'start', 'end')).toBe(false); // not upstream
  });
});

describe('previousApprovalNode', () => {
  it('picks the most recently completed approval upstream', () => {
    expect(previousApprovalNode(leave, 'notify_hr', ['manager_approval'])?.id).toBe('manager_approval');
    expect(previousApprovalNode(leave, 'manager_and_hr', ['manager_approval'])).toBeNull(); // not upstream
    expect(previousApprovalNode(expense, 'manager', [])).toBeNull();
  });

  it('uses completion order, last = most recent', () => {
    const doc = compileProcess({
      ruleChain: { id: 'p', name: 'P' },
      metadata: {
        nodes: [
          { id: 'a', type: 'userTask', configuration: { approver: { type: 'manager' } } },
          { id: 'b', type: 'userTask', configuration: { approver: { type: 'manager' } } },
          { id: 'c', type: 'userTask', configuration: { approver: { type: 'manager' } } },
          { id: 'end', type: 'end' },
        ],
        connections: [
          { fromId: 'a', toId: 'b', type: 'Success' },
          { fromId: 'b', toId: 'c', type: 'Success' },
          { fromId: 'c', toId: 'end', type: 'Success' },
        ],
      },
    });
    if (!doc.ok) throw new Error('fixture');
    expect(previousApprovalNode(doc.doc, 'c', ['a', 'b'])?.id).toBe('b');
    expect(previousApprovalNode(doc.doc, 'c', ['b', 'a'])?.id).toBe('a');
    expect(previousApprovalNode(doc.doc, 'c', ['c'])).toBeNull();
  });

  it('does not cross a fork or join', () => {
    expect(previousApprovalNode(expense, 'directors', ['manager', 'finance_check', 'budget_owner'])).toBeNull();
    expect(previousApprovalNode(expense, 'finance_check', ['manager'])).toBeNull();
  });
});

describe('approvalNodesAhead', () => {
  it('flags approvals behind a switch as undecided', () => {
    expect(ahead(leave, ['start'])).toEqual([
      ['manager_approval', true],
      ['manager_and_hr', true],
      ['management_chain', true],
    ]);
    expect(ahead(purchase, ['route'])).toEqual([
      ['lead', true],
      ['board', true],
    ]);
  });

  it('treats every fork branch as certain', () => {
    expect(ahead(expense, ['start'])).toEqual([
      ['manager', false],
      ['finance_check', false],
      ['budget_owner', false],
      ['directors', true],
    ]);
  });

  it('starts from the current nodes and leaves them out', () => {
    expect(ahead(expense, ['finance_check', 'budget_owner'])).toEqual([['directors', true]]);
    expect(ahead(expense, ['finance_check'])).toEqual([['directors', true]]);
    expect(ahead(leave, ['manager_approval'])).toEqual([]);
  });
});
