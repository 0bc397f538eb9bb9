// The upcoming prediction with the instance's data: switches and inclusives evaluated on the
// variables they read (docs/contract.md, "Upcoming entry").
import { describe, expect, it } from 'vitest';
import {
  approvalNodesAhead,
  compileProcess,
  pathAhead,
  type KnownData,
  type ProcessDocument,
} from '../../../dsl/index.js';
import { edges, processDoc, testChain, users, type Edge } from '../../helpers/dsl.js';

const task = (id: string) => ({ id, type: 'userTask', name: id, configuration: users('bob') });
/** A gateway whose cases are `{ then: condition }`, in order. */
const gateway = (id: string, type: 'switch' | 'inclusive', cases: Record<string, string>) => ({
  id,
  type,
  name: id,
  configuration: { cases: Object.entries(cases).map(([then, c]) => ({ case: c, then })) },
});
/** A system node that sets variables from its param. */
const setVariables = (id: string, param: string) => ({
  id,
  type: 'serviceTask',
  name: id,
  configuration: { functionName: 'setVariables', param },
});

function compile(nodes: unknown[], edges: Edge[]): ProcessDocument {
  const result = compileProcess(processDoc(testChain('p'), nodes, edges));
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.doc;
}

const known = (msg: Record<string, unknown>): KnownData => ({ msg, metadata: { owner: 'alice' } });
const ahead = (doc: ProcessDocument, msg: Record<string, unknown>, from = ['start']) =>
  approvalNodesAhead(doc, from, known(msg)).map((a) => ({
    id: a.node.id,
    undecided: a.undecided,
    by: a.undecidedBy.map((u) => `${u.nodeId}:${u.variable}:${u.setBy ?? '-'}`),
  }));

// start → amount switch: amount > 100 → big_task, Default → small_task; both → end.
const amountSwitch = compile(
  [gateway('route', 'switch', { big: 'msg.amount > 100' }), task('big_task'), task('small_task')],
  edges('start>route route>big_task:big route>small_task:Default big_task>end small_task>end'),
);

describe('upcoming: switches on known variables', () => {
  it('follows the case that matches and drops the others', () => {
    expect(ahead(amountSwitch, { amount: 500 })).toEqual([{ id: 'big_task', undecided: false, by: [] }]);
    expect(ahead(amountSwitch, { amount: 5 })).toEqual([{ id: 'small_task', undecided: false, by: [] }]);
  });

  it('leaves both branches open and names the variable when it is missing', () => {
    expect(ahead(amountSwitch, { other: 1 })).toEqual([
      { id: 'big_task', undecided: true, by: ['route:amount:-'] },
      { id: 'small_task', undecided: true, by: ['route:amount:-'] },
    ]);
  });

  it('a variable a system node ahead writes is not known yet, even if set now', () => {
    const doc = compile(
      [
        setVariables('calc', '{"amount": 1}'),
        setVariables('note', '{"x": 1}'),
        gateway('route', 'switch', { big: 'msg.amount > 100' }),
        task('big_task'),
        task('small_task'),
      ],
      edges('start>calc calc>note note>route route>big_task:big route>small_task:Default big_task>end small_task>end'),
    );
    expect(ahead(doc, { amount: 500 })).toEqual([
      { id: 'big_task', undecided: true, by: ['route:amount:calc'] },
      { id: 'small_task', undecided: true, by: ['route:amount:calc'] },
    ]);
    // Once calc has run (the current node is after it), only note is ahead, and it writes x.
    expect(ahead(doc, { amount: 500 }, ['note'])).toEqual([{ id: 'big_task', undecided: false, by: [] }]);
  });

  it('an AI pre-review ahead writes its reserved key and mappings; flattened, anything; async, nothing', () => {
    const withAi = (configuration: Record<string, unknown>, condition = 'msg.amount > 100') =>
      compile(
        [
          { id: 'ai', type: 'aiAgent', name: 'ai', configuration: { agentId: 'precheck', ...configuration } },
          gateway('route', 'switch', { big: condition }),
          task('big_task'),
          task('small_task'),
        ],
        edges('start>ai ai>route route>big_task:big route>small_task:Default big_task>end small_task>end'),
      );
    const decided = [{ id: 'big_task', undecided: false, by: [] }];
    const waitsFor = (variable: string) => [
      { id: 'big_task', undecided: true, by: [`route:${variable}:ai`] },
      { id: 'small_task', undecided: true, by: [`route:${variable}:ai`] },
    ];
    expect(ahead(withAi({}, 'msg._ai.risk == "high"'), { amount: 500 })).toEqual(waitsFor('_ai'));
    expect(ahead(withAi({ reservedKey: 'review' }, 'msg.review.risk == "high"'), {})).toEqual(waitsFor('review'));
    expect(ahead(withAi({}), { amount: 500 })).toEqual(decided);
    expect(ahead(withAi({ outputMappings: [{ from: '$.total', to: 'amount' }] }), { amount: 500 })).toEqual(
      waitsFor('amount'),
    );
    expect(ahead(withAi({ flattenOutput: true }), { amount: 500 })).toEqual(waitsFor('amount'));
    // Fire and forget: nothing is merged, so _ai is missing rather than awaited from the node.
    expect(ahead(withAi({ async: true }, 'msg._ai.risk == "high"'), {}).map((a) => a.by)).toEqual([
      ['route:_ai:-'],
      ['route:_ai:-'],
    ]);
    expect(ahead(withAi({ async: true, flattenOutput: true }), { amount: 500 })).toEqual(decided);
  });

  it('a case decided true before an open one decides the switch', () => {
    const doc = compile(
      [
        gateway('route', 'switch', { fast: 'msg.urgent == true', big: 'msg.amount > 100' }),
        ...['fast_task', 'big_task', 'small_task'].map(task),
      ],
      edges(
        'start>route route>fast_task:fast route>big_task:big route>small_task:Default fast_task>end big_task>end small_task>end',
      ),
    );
    expect(ahead(doc, { urgent: true })).toEqual([{ id: 'fast_task', undecided: false, by: [] }]);
    // urgent false for sure, amount missing: big or small.
    expect(ahead(doc, { urgent: false })).toEqual([
      { id: 'big_task', undecided: true, by: ['route:amount:-'] },
      { id: 'small_task', undecided: true, by: ['route:amount:-'] },
    ]);
  });

  it('a condition that fails on the known data predicts nothing behind the switch', () => {
    expect(ahead(amountSwitch, { amount: 'lots' })).toEqual([]);
  });

  it('without data it stays structural (every branch undecided)', () => {
    expect(approvalNodesAhead(amountSwitch, ['start']).map((a) => [a.node.id, a.undecided])).toEqual([
      ['big_task', true],
      ['small_task', true],
    ]);
  });
});

describe('upcoming: inclusives on known variables', () => {
  // start → inc: a → ta, b → tb, Default → td; all meet at join → final → end.
  const doc = compile(
    [
      gateway('inc', 'inclusive', { ca: 'msg.a > 0', cb: 'msg.b > 0' }),
      ...['ta', 'tb', 'td'].map(task),
      { id: 'meet', type: 'join', name: 'meet' },
      task('final'),
    ],
    edges('start>inc inc>ta:ca inc>tb:cb inc>td:Default ta>meet tb>meet td>meet meet>final final>end'),
  );

  it('every case that holds runs, as a fork', () => {
    expect(ahead(doc, { a: 1, b: 1 })).toEqual([
      { id: 'ta', undecided: false, by: [] },
      { id: 'tb', undecided: false, by: [] },
      { id: 'final', undecided: false, by: [] },
    ]);
    expect(ahead(doc, { a: 0, b: 0 })).toEqual([
      { id: 'td', undecided: false, by: [] },
      { id: 'final', undecided: false, by: [] },
    ]);
  });

  it('a true case is certain while an open one is undecided', () => {
    expect(ahead(doc, { a: 1 })).toEqual([
      { id: 'ta', undecided: false, by: [] },
      { id: 'tb', undecided: true, by: ['inc:b:-'] },
      { id: 'final', undecided: false, by: [] },
    ]);
  });
});

describe('pathAhead: every node, and what each gateway does', () => {
  const path = (msg: Record<string, unknown>) => pathAhead(amountSwitch, ['start'], known(msg), { withStarts: true });

  it('lists the start and every node the path takes, with the case taken and the value it had', () => {
    const { steps, gateways } = path({ amount: 500 });
    expect(steps.map((s) => [s.node.id, s.undecided])).toEqual([
      ['start', false],
      ['route', false],
      ['big_task', false],
      ['end', false],
    ]);
    expect(gateways.get('route')).toEqual({
      taken: ['big'],
      possible: ['big'],
      open: false,
      cases: [{ caseIndex: 1, expression: 'msg.amount > 100', then: 'big', value: true, error: null, needs: [] }],
    });
  });

  it('takes Default when no case holds, and names the variable an open case needs', () => {
    expect(path({ amount: 5 }).gateways.get('route')).toMatchObject({
      taken: ['Default'],
      cases: [{ value: false }],
    });
    const open = path({});
    expect(open.gateways.get('route')).toMatchObject({
      taken: [],
      possible: ['big', 'Default'],
      open: true,
      cases: [{ value: null, needs: [{ nodeId: 'route', variable: 'amount', setBy: null }] }],
    });
    expect(open.steps.map((s) => [s.node.id, s.undecided])).toEqual([
      ['start', false],
      ['route', false],
      ['big_task', true],
      ['small_task', true],
      ['end', false],
    ]);
  });

  it('reports the error of a condition that fails on the known data', () => {
    const { steps, gateways } = path({ amount: 'lots' });
    expect(gateways.get('route')!.cases[0]).toMatchObject({ value: null, error: expect.stringContaining('failed') });
    expect(steps.map((s) => s.node.id)).toEqual(['start', 'route']);
  });
});
