// The designer's pure model (ui/src/features/designer/model): graph ↔ tree, every command and its
// undo, the round trip of every example (open → save without edits → the same document), and the
// AI pre-review step (GFlow's aiAgent) as its panel writes it.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addBranch, moveBranch, removeBranch, setCase } from '../../../ui/src/features/designer/model/branches.js';
import type { Doc } from '../../../ui/src/features/designer/model/doc.js';
import { emptyDoc } from '../../../ui/src/features/designer/model/doc.js';
import { canonicalConfig, setNodeField, setProcessField } from '../../../ui/src/features/designer/model/edit.js';
import { execute, historyOf, redo, undo } from '../../../ui/src/features/designer/model/history.js';
import { addKinds, type KindNames } from '../../../ui/src/features/designer/model/kinds.js';
import { problemsOf } from '../../../ui/src/features/designer/model/problems.js';
import {
  copyItem,
  copyStep,
  deleteBlock,
  deleteItem,
  insertAt,
  moveItem,
} from '../../../ui/src/features/designer/model/structure.js';
import { idsIn, toTree, treeEdges, type Item, type SplitItem } from '../../../ui/src/features/designer/model/tree.js';

const root = path.resolve(import.meta.dirname, '../../..');
const examples = readdirSync(path.join(root, 'examples'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(readFileSync(path.join(root, 'examples', f), 'utf8')) as Doc] as const);
const names: KindNames = {
  approver: 'Approver',
  cc: 'Copy to',
  condition: 'Condition',
  inclusive: 'Inclusive',
  parallel: 'Parallel',
  service: 'Service',
  http: 'HTTP',
  ai: 'AI pre-review',
  delay: 'Delay',
  subProcess: 'Sub-process',
  automation: 'Automation',
  end: 'End',
  join: 'Join',
  branch: 'Branch',
};
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
const ids = (items: Item[]) => items.map((i) => i.id);
const split = (items: Item[], id: string) => items.find((i) => i.id === id) as SplitItem;
const empty = () => emptyDoc('p', 'P', 'Start', 'End');
/** The start's slot: the connection start → next. */
const afterStart = (doc: Doc) => [doc.metadata.connections.findIndex((c) => c.fromId === 'start')];
/** How many nodes the leave request's switch block holds (split, branch steps). */
const idsInBlock = (doc: Doc) => idsIn([split(toTree(doc)!.items, 'route_by_days')]).length;
const sortedEdges = (doc: Doc) => doc.metadata.connections.map((c) => `${c.fromId}>${c.toId}:${c.type}`).sort();

describe('graph ↔ tree', () => {
  it('the leave request: a switch whose three branches meet at the copy-to', () => {
    const doc = examples.find(([f]) => f === 'leave-request.json')![1];
    const tree = toTree(doc)!;
    expect(ids(tree.items)).toEqual(['start', 'route_by_days', 'notify_hr', 'end']);
    const sw = split(tree.items, 'route_by_days');
    expect(sw.joinId).toBeNull();
    expect(sw.branches.map((b) => [b.relation, ids(b.items)])).toEqual([
      ['short', ['manager_approval']],
      ['medium', ['manager_and_hr']],
      ['Default', ['management_chain']],
    ]);
  });

  it('the expense claim: a fork closed by its join, then a switch with an empty Default branch', () => {
    const doc = examples.find(([f]) => f === 'expense-claim.json')![1];
    const tree = toTree(doc)!;
    expect(ids(tree.items)).toEqual(['start', 'manager', 'split', 'size', 'end']);
    expect(split(tree.items, 'split').joinId).toBe('merge');
    expect(split(tree.items, 'size').branches.map((b) => [b.relation, ids(b.items)])).toEqual([
      ['large', ['directors']],
      ['Default', []],
    ]);
  });

  it.each(examples)('%s: the tree gives back exactly the document’s connections', (_f, doc) => {
    const tree = toTree(doc);
    expect(tree).not.toBeNull();
    expect(
      treeEdges(tree!)
        .map((c) => `${c.fromId}>${c.toId}:${c.type}`)
        .sort(),
    ).toEqual(sortedEdges(doc));
  });

  it('a loop, a Reject route or a Failure route is not a tree (the graph view shows it)', () => {
    const base = empty();
    const { doc } = insertAt(base, afterStart(base), 'approver', names);
    const loop = clone(doc);
    loop.metadata.connections.push({ fromId: 'approver_1', toId: 'start', type: 'Reject' });
    expect(toTree(doc)).not.toBeNull();
    expect(toTree(loop)).toBeNull();
    const failure = clone(doc);
    failure.metadata.connections.push({ fromId: 'approver_1', toId: 'end', type: 'Failure' });
    expect(toTree(failure)).toBeNull();
  });

  it('branches that each end on their own are a tree without a meeting point; a half-shared tail is not', () => {
    const base = empty();
    const doc = clone(insertAt(base, afterStart(base), 'condition', names).doc);
    doc.metadata.nodes.push({ id: 'end2', type: 'end', name: 'Refused' });
    doc.metadata.connections.find((x) => x.type === 'Default')!.toId = 'end2';
    const tree = toTree(doc)!;
    expect(ids(tree.items)).toEqual(['start', 'condition_1']);
    expect(split(tree.items, 'condition_1').branches.map((b) => ids(b.items))).toEqual([['end'], ['end2']]);
    expect(treeEdges(tree).length).toBe(doc.metadata.connections.length);

    const leave = clone(examples.find(([f]) => f === 'leave-request.json')![1]);
    leave.metadata.nodes.push({ id: 'end2', type: 'end', name: 'Refused' });
    leave.metadata.connections.find((x) => x.fromId === 'management_chain')!.toId = 'end2';
    expect(toTree(leave)).toBeNull();
  });
});

describe('round trip', () => {
  it.each(examples)('%s: opened and saved without edits is the same document', (_f, doc) => {
    const original = clone(doc);
    const h = historyOf(doc);
    toTree(h.doc);
    problemsOf(h.doc);
    expect(JSON.parse(JSON.stringify(h.doc))).toEqual(original);
  });

  it('an edit keeps unknown fields, layout, older keys of other nodes, and every untouched object', () => {
    const doc = clone(examples.find(([f]) => f === 'purchase-legacy-keys.json')![1]);
    (doc as any).flow = { zoom: 2 };
    doc.metadata.nodes[1]!.additionalInfo = { layoutX: 10, layoutY: 20, vendorField: { a: 1 } };
    const next = setNodeField(doc, 'log', ['name'], 'Copy buyers');
    expect(next.flow).toBe(doc.flow);
    expect(next.metadata.nodes[1]).toBe(doc.metadata.nodes[1]); // lead: older keys and layout kept
    expect(next.metadata.connections).toBe(doc.metadata.connections);
    expect(next.metadata.nodes[3]!.name).toBe('Copy buyers');
  });

  it('editing a userTask with older keys writes the canonical configuration of that node only', () => {
    const doc = examples.find(([f]) => f === 'purchase-legacy-keys.json')![1];
    expect(canonicalConfig(doc.metadata.nodes[2]!)).toMatchObject({
      approver: { type: 'user', userIds: ['carol', 'dave', 'frank'] },
      approveMode: 'vote',
      voteRule: { type: 'majority' },
    });
    const next = setNodeField(doc, 'board', ['configuration', 'selfApproval'], 'skip');
    const board = next.metadata.nodes[2]!.configuration as any;
    expect(board.candidateType).toBeUndefined();
    expect(board).toMatchObject({ approveMode: 'vote', selfApproval: 'skip', timeout: { dueInMinutes: 60 } });
    expect(next.metadata.nodes[1]).toBe(doc.metadata.nodes[1]);
    expect(problemsOf(next)).toEqual([]);
  });
});

describe('commands and their undo', () => {
  it.each(addKinds.filter((k) => k !== 'end'))('insert %s after the start: valid shape, undo restores', (kind) => {
    const base = empty();
    let h = historyOf(base);
    h = execute(h, { name: 'insert', run: (d) => insertAt(d, afterStart(d), kind, names).doc });
    const tree = toTree(h.doc);
    expect(tree).not.toBeNull();
    expect(tree!.items[tree!.items.length - 1]!.id).toBe('end');
    expect(h.doc.metadata.nodes[0]).toBe(base.metadata.nodes[0]);
    h = undo(h);
    expect(h.doc).toBe(base);
    h = redo(h);
    expect(toTree(h.doc)).not.toBeNull();
  });

  it('a new approver, fork, copy-to and delay are valid at once; a condition needs its case', () => {
    for (const kind of ['approver', 'parallel', 'delay', 'cc'] as const) {
      const base = empty();
      expect(problemsOf(insertAt(base, afterStart(base), kind, names).doc)).toEqual([]);
    }
    const base = empty();
    const withSwitch = insertAt(base, afterStart(base), 'condition', names).doc;
    expect(problemsOf(withSwitch).map((p) => p.field)).toContain('configuration.cases[0].case');
    expect(problemsOf(setCase(withSwitch, 'condition_1', 0, 'msg.days > 3'))).toEqual([]);
  });

  it('delete a step and a whole branch block; undo gives back the document', () => {
    const doc = examples.find(([f]) => f === 'expense-claim.json')![1];
    const tree = toTree(doc)!;
    const noManager = deleteItem(doc, tree, 'manager');
    expect(noManager.metadata.nodes.map((n) => n.id)).not.toContain('manager');
    expect(noManager.metadata.connections).toContainEqual({ fromId: 'start', toId: 'split', type: 'Success' });
    expect(problemsOf(noManager)).toEqual([]);
    const noFork = deleteBlock(doc, tree, 'split');
    expect(noFork.metadata.nodes.map((n) => n.id)).toEqual(['start', 'manager', 'size', 'directors', 'end']);
    expect(problemsOf(noFork)).toEqual([]);
    expect(deleteItem(doc, tree, 'start')).toBe(doc);
    const legacy = examples.find(([f]) => f === 'purchase-legacy-keys.json')![1];
    expect(deleteItem(legacy, toTree(legacy), 'route')).toBe(legacy); // the first node stays
    expect(deleteItem(doc, tree, 'end')).toBe(doc);
    let h = execute(historyOf(doc), { name: 'delete', run: (d) => deleteItem(d, toTree(d), 'split') });
    h = undo(h);
    expect(h.doc).toBe(doc);
  });

  it('deleting nodes before the first node keeps firstNodeIndex on it', () => {
    const doc = clone(examples.find(([f]) => f === 'leave-request.json')![1]);
    const start = doc.metadata.nodes.shift()!;
    doc.metadata.nodes.splice(2, 0, start); // start now at index 2
    doc.metadata.firstNodeIndex = 2;
    const tree = toTree(doc)!;
    const next = deleteItem(doc, tree, 'manager_approval'); // at index 1: the start moves to 1
    expect(next.metadata.nodes[next.metadata.firstNodeIndex]!.id).toBe('start');
  });

  it('move a step up and down past a step and past a block', () => {
    const base = empty();
    let doc = insertAt(base, afterStart(base), 'approver', names).doc; // start, approver_1, end
    doc = insertAt(doc, afterStart(doc), 'cc', names).doc; // start, cc_1, approver_1, end
    doc = insertAt(doc, afterStart(doc), 'condition', names).doc; // start, condition_1, cc_1, approver_1, end
    const order = (d: Doc) => ids(toTree(d)!.items);
    expect(order(doc)).toEqual(['start', 'condition_1', 'cc_1', 'approver_1', 'end']);
    const down = moveItem(doc, toTree(doc)!, 'cc_1', 1);
    expect(order(down)).toEqual(['start', 'condition_1', 'approver_1', 'cc_1', 'end']);
    const up = moveItem(doc, toTree(doc)!, 'cc_1', -1);
    expect(order(up)).toEqual(['start', 'cc_1', 'condition_1', 'approver_1', 'end']);
    expect(moveItem(up, toTree(up)!, 'cc_1', -1)).toBe(up); // never above the start
    expect(moveItem(down, toTree(down)!, 'cc_1', 1)).toBe(down); // never below the end
    const back = moveItem(up, toTree(up)!, 'cc_1', 1);
    expect(sortedEdges(back)).toEqual(sortedEdges(doc));
  });

  it('copy a step: same settings, new id, right after it', () => {
    const doc = examples.find(([f]) => f === 'leave-request.json')![1];
    const { doc: next, id } = copyStep(doc, 'manager_approval');
    expect(id).toBe('manager_approval_1');
    const copy = next.metadata.nodes.find((n) => n.id === id)!;
    expect(copy.configuration).toEqual(doc.metadata.nodes[2]!.configuration);
    const branch = split(toTree(next)!.items, 'route_by_days').branches[0]!;
    expect(ids(branch.items)).toEqual(['manager_approval', 'manager_approval_1']);
    expect(problemsOf(next)).toEqual([]);
  });

  it('copy a branch block: split, branches and join under new ids, right after it', () => {
    const doc = examples.find(([f]) => f === 'leave-request.json')![1];
    const { doc: next, id } = copyItem(doc, toTree(doc), 'route_by_days');
    expect(id).toBe('route_by_days_1');
    const items = toTree(next)!.items;
    const at = ids(items).indexOf('route_by_days');
    expect(ids(items).slice(at, at + 2)).toEqual(['route_by_days', 'route_by_days_1']);
    const original = split(items, 'route_by_days');
    const copy = split(items, 'route_by_days_1');
    expect(copy.branches.map((b) => b.relation)).toEqual(original.branches.map((b) => b.relation));
    expect(copy.branches.flatMap((b) => ids(b.items))).toEqual(
      original.branches.flatMap((b) => ids(b.items)).map((i) => `${i.replace(/_\d+$/, '')}_1`),
    );
    expect(next.metadata.nodes).toHaveLength(doc.metadata.nodes.length + idsInBlock(doc));
    expect(problemsOf(next)).toEqual([]);
    // a fork with its join: the join is copied too, and the copy leads where the block led
    const forked = insertAt(empty(), afterStart(empty()), 'parallel', names).doc;
    const fork = toTree(forked)!.items[1]!;
    const twice = copyItem(forked, toTree(forked), fork.id);
    const top = toTree(twice.doc)!.items;
    expect(top.map((i) => i.kind)).toEqual(['node', 'split', 'split', 'node']);
    expect((top[2] as SplitItem).joinId).not.toBe((top[1] as SplitItem).joinId);
    expect(problemsOf(twice.doc)).toEqual([]);
    expect(undo(execute(historyOf(forked), { name: 'copy', run: () => twice.doc })).doc).toBe(forked);
  });

  it('copy a block holding a block: every node inside (nested split, its join) gets a fresh id, once', () => {
    // start → condition_1 [case1: inclusive_1 (its join_1), Default: –] → end
    let doc = insertAt(empty(), afterStart(empty()), 'condition', names).doc;
    doc = setCase(doc, 'condition_1', 0, 'true');
    const case1 = split(toTree(doc)!.items, 'condition_1').branches[0]!;
    doc = insertAt(doc, [case1.entry], 'inclusive', names).doc;
    doc = setCase(doc, 'inclusive_1', 0, 'true');
    const block = idsIn([split(toTree(doc)!.items, 'condition_1')]);
    expect(block).toEqual(['condition_1', 'inclusive_1', 'join_1']);

    const { doc: next, id } = copyItem(doc, toTree(doc), 'condition_1');
    expect(id).toBe('condition_2');
    const all = next.metadata.nodes.map((n) => n.id);
    expect(new Set(all).size).toBe(all.length);
    const copied = all.filter((i) => !doc.metadata.nodes.some((n) => n.id === i));
    expect(copied.sort()).toEqual(['condition_2', 'inclusive_2', 'join_2']);
    // the copy sits right after the block, the same shape, and the process still validates
    const top = toTree(next)!.items;
    expect(ids(top)).toEqual(['start', 'condition_1', 'condition_2', 'end']);
    expect(idsIn([top[2]!])).toEqual(['condition_2', 'inclusive_2', 'join_2']);
    expect((split(top, 'condition_2').branches[0]!.items[0] as SplitItem).joinId).toBe('join_2');
    expect(problemsOf(next)).toEqual([]);
    // copying again: fresh ids again, never one already used
    const again = copyItem(next, toTree(next), 'condition_2').doc;
    const ids3 = again.metadata.nodes.map((n) => n.id);
    expect(new Set(ids3).size).toBe(ids3.length);
    expect(ids3).toEqual(expect.arrayContaining(['condition_3', 'inclusive_3', 'join_3']));
  });

  it('a block whose branches end the process has nothing after it: copy leaves it as it is', () => {
    let doc = insertAt(empty(), afterStart(empty()), 'condition', names).doc;
    const case1 = split(toTree(doc)!.items, 'condition_1').branches[0]!;
    doc = insertAt(doc, [case1.entry], 'end', names).doc; // case1 ends on its own: the block takes the end
    expect(split(toTree(doc)!.items, 'condition_1').exits).toEqual([]);
    expect(copyItem(doc, toTree(doc), 'condition_1')).toEqual({ doc, id: null });
  });

  it('add, reorder and remove branches of a switch, an inclusive and a fork', () => {
    const doc = examples.find(([f]) => f === 'leave-request.json')![1];
    const added = addBranch(doc, toTree(doc)!, 'route_by_days', names);
    const sw = () => split(toTree(added)!.items, 'route_by_days');
    expect(sw().branches.map((b) => b.relation)).toEqual(['short', 'medium', 'case1', 'Default']);
    const moved = moveBranch(added, toTree(added)!, 'route_by_days', 2, -1);
    expect((moved.metadata.nodes[1]!.configuration as any).cases.map((c: any) => c.then)).toEqual([
      'short',
      'case1',
      'medium',
    ]);
    expect(moveBranch(added, toTree(added)!, 'route_by_days', 2, 1)).toBe(added); // Default stays last
    const removed = removeBranch(doc, toTree(doc)!, 'route_by_days', 1);
    expect(removed.metadata.nodes.map((n) => n.id)).not.toContain('manager_and_hr');
    expect((removed.metadata.nodes[1]!.configuration as any).cases).toHaveLength(1);
    expect(problemsOf(removed)).toEqual([]);

    const expense = examples.find(([f]) => f === 'expense-claim.json')![1];
    const forked = addBranch(expense, toTree(expense)!, 'split', names);
    expect(split(toTree(forked)!.items, 'split').branches).toHaveLength(3);
    expect(problemsOf(forked)).toEqual([]);
    const swapped = moveBranch(expense, toTree(expense)!, 'split', 0, 1);
    expect(split(toTree(swapped)!.items, 'split').branches.map((b) => ids(b.items))).toEqual([
      ['budget_owner'],
      ['finance_check'],
    ]);

    const base = empty();
    const inc = insertAt(base, afterStart(base), 'inclusive', names).doc;
    const inc2 = addBranch(inc, toTree(inc)!, 'inclusive_1', names);
    expect(split(toTree(inc2)!.items, 'inclusive_1').branches.map((b) => b.relation)).toEqual([
      'case1',
      'case2',
      'Default',
    ]);
  });

  it('process fields: name, key, category, form fields', () => {
    const doc = empty();
    let next = setProcessField(doc, ['name'], 'Leave');
    next = setProcessField(next, ['additionalInfo', 'category'], 'HR');
    next = setProcessField(next, ['additionalInfo', 'form', 'fields'], [{ name: 'days', type: 'number' }]);
    expect(next.ruleChain).toMatchObject({ name: 'Leave', additionalInfo: { category: 'HR' } });
    expect(next.metadata).toBe(doc.metadata);
    expect(
      setProcessField(next, ['additionalInfo', 'category'], undefined).ruleChain.additionalInfo,
    ).not.toHaveProperty('category');
  });
});

describe('the AI pre-review step (aiAgent)', () => {
  const withAi = () => {
    const base = empty();
    const doc = insertAt(base, afterStart(base), 'ai', names).doc;
    return setProcessField(doc, ['additionalInfo', 'form', 'fields'], [{ name: 'amount', type: 'number' }]);
  };
  const codes = (doc: Doc, catalogue = {}) => problemsOf(doc, catalogue).map((p) => [p.nodeId, p.field, p.code]);

  it('the + menu adds an aiAgent named for the reader; its agent is the one thing left to choose', () => {
    const doc = withAi();
    expect(doc.metadata.nodes.find((n) => n.id === 'ai_1')).toEqual({
      id: 'ai_1',
      type: 'aiAgent',
      name: 'AI pre-review',
      configuration: { agentId: '' },
    });
    expect(sortedEdges(doc)).toEqual(['ai_1>end:Success', 'start>ai_1:Success']);
    expect(codes(doc)).toEqual([['ai_1', 'configuration.agentId', 'value.empty']]);
  });

  it('the agent is checked against the tenant’s catalogue once it is loaded, as deploy does', () => {
    const doc = setNodeField(withAi(), 'ai_1', ['configuration', 'agentId'], 'precheck');
    expect(codes(doc)).toEqual([]);
    expect(codes(doc, { agents: ['other'] })).toEqual([['ai_1', 'configuration.agentId', 'node.agentUnknown']]);
    expect(codes(doc, { agents: ['precheck'], functions: [] })).toEqual([]);
  });

  it('every GFlow key the panel edits gives the document of docs/ai-review.md, valid; bad values are problems', () => {
    const set = (d: Doc, path: (string | number)[], v: unknown) =>
      setNodeField(d, 'ai_1', ['configuration', ...path], v);
    let doc = set(withAi(), ['agentId'], 'expense-precheck');
    doc = set(doc, ['timeoutSec'], 60);
    doc = set(doc, ['inputAssembly'], {
      customPrompt: 'Check ${msg.title} against the travel policy.',
      contextSources: { prevComments: false },
    });
    doc = set(doc, ['decision'], { rejectStrategy: 'terminate', unresolved: 'human' });
    doc = set(doc, ['decision', 'rejectStrategy'], 'toStarter');
    doc = set(doc, ['failureHandler'], ['carol']);
    doc = set(doc, ['outputMappings'], [{ from: '$.risk', to: 'aiRisk' }]);
    doc = set(doc, ['flattenOutput'], true);
    doc = set(doc, ['reservedKey'], 'review');
    expect(doc.metadata.nodes.find((n) => n.id === 'ai_1')!.configuration).toEqual({
      agentId: 'expense-precheck',
      timeoutSec: 60,
      inputAssembly: {
        customPrompt: 'Check ${msg.title} against the travel policy.',
        contextSources: { prevComments: false },
      },
      decision: { rejectStrategy: 'toStarter', unresolved: 'human' },
      failureHandler: ['carol'],
      outputMappings: [{ from: '$.risk', to: 'aiRisk' }],
      flattenOutput: true,
      reservedKey: 'review',
    });
    expect(codes(doc, { agents: ['expense-precheck'] })).toEqual([]);
    // Reference only again, and back to the defaults: the keys go away.
    const plain = set(set(set(doc, ['decision'], undefined), ['flattenOutput'], undefined), ['async'], true);
    expect(plain.metadata.nodes.find((n) => n.id === 'ai_1')!.configuration).not.toHaveProperty('decision');
    expect(codes(plain)).toEqual([]);

    expect(codes(set(doc, ['timeoutSec'], 0))).toEqual([['ai_1', 'configuration.timeoutSec', 'value.invalid']]);
    expect(codes(set(doc, ['decision', 'unresolved'], 'maybe'))).toEqual([
      ['ai_1', 'configuration.decision.unresolved', 'value.invalid'],
    ]);
    expect(codes(set(doc, ['inputAssembly', 'customPrompt'], 'Check ${msg.title'))).toEqual([
      ['ai_1', 'configuration.inputAssembly.customPrompt', 'template.unclosed'],
    ]);
    expect(codes(set(doc, ['inputAssembly', 'contextSources', 'files'], true))).toEqual([
      ['ai_1', 'configuration.inputAssembly.contextSources.files', 'value.unknownField'],
    ]);
  });

  it('a case after it may read what it merges (msg._ai…): not an unknown variable of the form', () => {
    const doc = setNodeField(withAi(), 'ai_1', ['configuration', 'agentId'], 'precheck');
    const slot = [doc.metadata.connections.findIndex((c) => c.fromId === 'ai_1')];
    const withSwitch = insertAt(doc, slot, 'condition', names).doc;
    const cased = setCase(withSwitch, 'condition_1', 0, "msg._ai.risk == 'high' || msg.amount > 100");
    expect(codes(cased)).toEqual([]);
    // Without the AI step before it, the same case names a field the form lacks.
    const alone = insertAt(withAi(), afterStart(withAi()), 'condition', names).doc;
    const noAi = deleteItem(alone, toTree(alone), 'ai_1');
    expect(codes(setCase(noAi, 'condition_1', 0, "msg._ai.risk == 'high'"))).toEqual([
      ['condition_1', 'configuration.cases[0].case', 'condition.unknownVariable'],
    ]);
  });
});
