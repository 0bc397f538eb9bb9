import { describe, expect, it } from 'vitest';
import { compileProcess, type Problem } from '../../../dsl/index.js';

type NodeSpec = [id: string, type: string, configuration?: unknown];

/** Builds a document; edges like "a->b" (Success) or "a-Reject->b". */
function proc(nodes: NodeSpec[], edges: string, extra: { form?: unknown; firstNodeIndex?: number } = {}): unknown {
  return {
    ruleChain: { id: 'p', name: 'P', ...(extra.form ? { additionalInfo: { form: extra.form } } : {}) },
    metadata: {
      ...(extra.firstNodeIndex !== undefined ? { firstNodeIndex: extra.firstNodeIndex } : {}),
      nodes: nodes.map(([id, type, configuration]) => ({ id, type, ...(configuration ? { configuration } : {}) })),
      connections: edges
        .split(/\s+/)
        .filter(Boolean)
        .map((e) => {
          const m = /^([^-]+)-(?:(\w+)-)?>(.+)$/.exec(e)!;
          return { fromId: m[1], toId: m[3], type: m[2] ?? 'Success' };
        }),
    },
  };
}

const problems = (input: unknown, functions?: string[]): Problem[] => {
  const result = compileProcess(input, functions ? { functions } : {});
  return result.ok ? [] : result.problems;
};

/** A start node, `middle`, then an end node. */
const framed = (...middle: NodeSpec[]): NodeSpec[] => [['start', 'startTask'], ...middle, ['end', 'end']];

const manager = { approver: { type: 'manager' } };
const task = (configuration: unknown = manager): NodeSpec[] => framed(['task', 'userTask', configuration]);
const LINE = 'start->task task->end';

/** Expects exactly one problem with this node, field and message fragment. */
function expectOnly(found: Problem[], nodeId: string | null, field: string, message: string): void {
  expect(found).toEqual([
    { nodeId, field, code: expect.any(String), params: expect.any(Object), message: expect.stringContaining(message) },
  ]);
}

/** The same for the document of these nodes and edges. */
function expectOnlyIn(nodes: NodeSpec[], edges: string, nodeId: string | null, field: string, message: string): void {
  expectOnly(problems(proc(nodes, edges)), nodeId, field, message);
}

describe('document structure', () => {
  it('accepts a minimal process', () => {
    expect(problems(proc(task(), LINE))).toEqual([]);
  });

  it('refuses duplicate node ids', () => {
    expectOnlyIn([...task(), ['task', 'ccTask']], LINE, 'task', 'id', 'duplicate node id "task"');
  });

  it('refuses connections naming unknown nodes', () => {
    expectOnlyIn(
      task(),
      `${LINE} task-Failure->ghost`,
      null,
      'metadata.connections[2].toId',
      'names unknown node "ghost"',
    );
  });

  it('refuses a firstNodeIndex out of range', () => {
    expectOnly(
      problems(proc(task(), LINE, { firstNodeIndex: 3 })),
      null,
      'metadata.firstNodeIndex',
      '3 is out of range (0..2)',
    );
  });

  it('refuses a process without nodes', () => {
    expectOnlyIn([], '', null, 'metadata.nodes', 'the process has no nodes');
  });

  it.each(['jsSwitch', 'startProcess', 'restApiCall'])('refuses the unsupported node type %s', (type) => {
    const nodes: NodeSpec[] = [...task(), ['x', type, { script: '' }]];
    expectOnlyIn(nodes, `${LINE} task-Failure->x x->end`, 'x', 'type', `node type "${type}" is not supported`);
  });

  it('checks an aiAgent node: its agentId in the catalogue, its keys, its prompt template', () => {
    const nodes = (config: Record<string, unknown>): NodeSpec[] => [...task(), ['x', 'aiAgent', config]];
    const at = (config: Record<string, unknown>, agents = ['precheck']) =>
      (
        compileProcess(proc(nodes(config), `${LINE} task-Failure->x x->end`), { agents }) as { problems?: Problem[] }
      ).problems?.filter((p) => p.nodeId === 'x') ?? [];
    expect(at({ agentId: 'precheck', decision: { rejectStrategy: 'toStarter' }, failureHandler: ['u1'] })).toEqual([]);
    expect(at({ agentId: 'ghost' })).toMatchObject([
      { field: 'configuration.agentId', code: 'node.agentUnknown', params: { agentId: 'ghost' } },
    ]);
    expect(at({ agentId: 'precheck', decision: { rejectStrategy: 'toPrev' } })[0]).toMatchObject({
      field: 'configuration.decision.rejectStrategy',
      code: 'value.invalid',
    });
    expect(at({ agentId: 'precheck', model: 'x' })[0]).toMatchObject({ code: 'value.unknownField' });
    expect(at({ agentId: 'precheck', inputAssembly: { customPrompt: '${oops}' } })[0]).toMatchObject({
      field: 'configuration.inputAssembly.customPrompt',
      code: 'template.badPlaceholder',
    });
  });

  it('returns every problem at once', () => {
    const found = problems(
      proc(
        framed(['a', 'userTask', { approver: { type: 'user' } }], ['x', 'jsSwitch'], ['island', 'ccTask']),
        'start->a a->x x->end island->end a-Failure->ghost',
      ),
    );
    expect(found.map((p) => `${p.nodeId}|${p.field}`)).toEqual([
      'null|metadata.connections[4].toId',
      'a|configuration.approver.userIds',
      'x|type',
      'island|connections',
    ]);
  });
});

describe('reachability', () => {
  it('refuses a node not reachable from the first node', () => {
    expectOnlyIn(
      [...task(), ['island', 'ccTask']],
      `${LINE} island->end`,
      'island',
      'connections',
      'not reachable from the first node',
    );
  });

  it('refuses a node from which no end can be reached', () => {
    expectOnlyIn(
      [...task(), ['stuck', 'ccTask']],
      `${LINE} task-Reject->stuck`,
      'stuck',
      'connections',
      'no end node can be reached',
    );
  });

  it('refuses a process without an end', () => {
    expectOnlyIn(task().slice(0, 2), 'start->task', null, 'metadata.nodes', 'no end node');
  });

  it('counts Failure and Reject routes as reaching nodes', () => {
    expect(problems(proc([...task(), ['fix', 'ccTask']], `${LINE} task-Reject->fix fix->end`))).toEqual([]);
  });
});

describe('configuration schema', () => {
  it('refuses unknown configuration fields', () => {
    expectOnlyIn(task({ ...manager, color: 'red' }), LINE, 'task', 'configuration.color', 'unknown field');
  });

  it('refuses ill-typed configuration fields', () => {
    const nodes = framed(['cc', 'ccTask', { ccUserIds: 'erin' }]);
    expectOnlyIn(nodes, 'start->cc cc->end', 'cc', 'configuration.ccUserIds', 'expected array');
  });

  it('refuses configuration on a start node', () => {
    const nodes: NodeSpec[] = [
      ['start', 'startTask', { form: 'x' }],
      ['end', 'end'],
    ];
    expectOnlyIn(nodes, 'start->end', 'start', 'configuration.form', 'unknown field');
  });

  it('refuses a join timeout that is not a whole number of seconds', () => {
    const nodes = framed(['f', 'fork'], ['a', 'ccTask'], ['j', 'join', { timeout: 'soon' }]);
    expectOnlyIn(nodes, 'start->f f->a f->j a->j j->end', 'j', 'configuration.timeout', 'expected number');
  });
});

describe('switch and inclusive', () => {
  const gate = (
    type: string,
    cases: unknown,
    { edges = 'start->sw sw-short->a sw-Default->end a->end', form }: { edges?: string; form?: unknown } = {},
  ): unknown => proc(framed(['sw', type, { cases }], ['a', 'ccTask']), edges, { form });

  it.each(['switch', 'inclusive'])('%s needs at least one case', (type) => {
    const edges = type === 'switch' ? 'start->sw sw-Default->a a->end' : 'start->sw sw->a a->end';
    const found = problems(gate(type, [], { edges })).filter((p) => p.field === 'configuration.cases');
    expectOnly(found, 'sw', 'configuration.cases', 'needs at least one case');
  });

  it('refuses a case that does not compile', () => {
    expectOnly(
      problems(gate('switch', [{ case: 'msg.days <=', then: 'short' }])),
      'sw',
      'configuration.cases[0].case',
      '',
    );
  });

  it('refuses a then without a matching outgoing connection', () => {
    const cases = [
      { case: 'msg.days <= 3', then: 'short' },
      { case: 'msg.days > 3', then: 'long' },
    ];
    expectOnly(
      problems(gate('switch', cases)),
      'sw',
      'configuration.cases[1].then',
      'no outgoing connection of type "long"',
    );
  });

  it('allows a missing Default', () => {
    expect(
      problems(gate('switch', [{ case: 'msg.days <= 3', then: 'short' }], { edges: 'start->sw sw-short->a a->end' })),
    ).toEqual([]);
  });

  it('type-checks cases against the form fields', () => {
    const input = gate('switch', [{ case: "msg.days == 'x'", then: 'short' }], {
      form: { fields: [{ name: 'days', type: 'number' }] },
    });
    expectOnly(problems(input), 'sw', 'configuration.cases[0].case', 'no such overload: double == string');
  });
});

describe('userTask', () => {
  const one = (configuration: unknown) => problems(proc(task(configuration), LINE));
  /** Expects exactly one problem, on this field of the task's configuration. */
  const refuses = (configuration: unknown, field: string, message: string) =>
    expectOnly(one(configuration), 'task', `configuration.${field}`, message);

  it('needs an approver', () => {
    refuses({}, 'approver', 'required');
  });

  it('refuses an unknown approver type', () => {
    refuses({ approver: { type: 'boss' } }, 'approver.type', 'Invalid option');
  });

  it.each([
    ['user', 'userIds'],
    ['role', 'roleIds'],
    ['dept', 'deptIds'],
  ])('approver type %s needs a non-empty %s', (type, key) => {
    refuses({ approver: { type, [key]: [] } }, `approver.${key}`, `needs at least one id in ${key}`);
  });

  it('initiatorSelect needs a template expression', () => {
    refuses({ approver: { type: 'initiatorSelect' } }, 'approver.expression', 'needs a template');
    refuses(
      { approver: { type: 'initiatorSelect', expression: 'approvers' } },
      'approver.expression',
      'must be a template',
    );
    expect(one({ approver: { type: 'initiatorSelect', expression: '${msg.approvers}' } })).toEqual([]);
  });

  it('checks manager levels', () => {
    refuses({ approver: { type: 'manager', levels: 0 } }, 'approver.levels', 'at least 1');
    refuses({ approver: { type: 'multiLevelManager', levels: 0 } }, 'approver.levels', 'must not be 0');
    expect(one({ approver: { type: 'multiLevelManager', levels: -1 } })).toEqual([]);
  });

  it.each([
    ['approveMode', 'twice'],
    ['selfApproval', 'maybe'],
    ['emptyApproverPolicy', 'ignore'],
    ['kind', 'chore'],
  ])('refuses an unknown %s', (key, value) => {
    refuses({ ...manager, [key]: value }, key, 'Invalid option');
  });

  it('refuses an unknown timeout action and a non-positive dueInMinutes', () => {
    refuses({ ...manager, timeout: { dueInMinutes: 10, action: 'explode' } }, 'timeout.action', 'Invalid option');
    refuses({ ...manager, timeout: { dueInMinutes: 0 } }, 'timeout.dueInMinutes', 'must be greater than 0');
  });

  it('allows voteRule only with vote, with its value in range', () => {
    const users = { approver: { type: 'user', userIds: ['a', 'b'] } };
    refuses(
      { ...users, approveMode: 'all', voteRule: { type: 'majority' } },
      'voteRule',
      'only allowed with approveMode "vote"',
    );
    refuses(
      { ...users, approveMode: 'vote', voteRule: { type: 'percent', value: 120 } },
      'voteRule.value',
      'from 0 to 100',
    );
    refuses({ ...users, approveMode: 'vote', voteRule: { type: 'count', value: 0 } }, 'voteRule.value', '≥ 1');
    refuses({ ...users, approveMode: 'vote', voteRule: { type: 'plurality' } }, 'voteRule.type', 'Invalid option');
    expect(one({ ...users, approveMode: 'vote' })).toEqual([]);
  });

  it('refuses initiatorSelf with selfApproval skip', () => {
    refuses({ approver: { type: 'initiatorSelf' }, selfApproval: 'skip' }, 'selfApproval', 'would leave no approver');
  });

  it('refuses a handle task with an approve mode other than single or any', () => {
    const users = { approver: { type: 'user', userIds: ['a', 'b'] } };
    refuses({ ...users, kind: 'handle', approveMode: 'all' }, 'approveMode', 'handle task only supports');
    expect(one({ ...users, kind: 'handle', approveMode: 'any' })).toEqual([]);
  });

  it('refuses a static dueDate that is not a date', () => {
    refuses({ ...manager, dueDate: 'next week' }, 'dueDate', 'not a valid date');
  });
});

describe('reject strategies', () => {
  const rejecting = (reject: unknown): NodeSpec => ['task', 'userTask', { ...manager, reject }];
  // start → first → task → after → end
  const chained = (reject: unknown): unknown =>
    proc(
      framed(['first', 'userTask', manager], rejecting(reject), ['after', 'userTask', manager]),
      'start->first first->task task->after after->end',
    );
  // start → first → fork → (task | other) → join → late → end
  const parallel = (taskReject: unknown, lateReject: unknown = { strategy: 'terminate' }): unknown =>
    proc(
      framed(
        ['first', 'userTask', manager],
        ['f', 'fork'],
        rejecting(taskReject),
        ['other', 'userTask', manager],
        ['j', 'join'],
        ['late', 'userTask', { ...manager, reject: lateReject }],
      ),
      'start->first first->f f->task f->other task->j other->j j->late late->end',
    );
  /** Expects exactly one problem, on this field of the node's reject configuration. */
  const refuses = (doc: unknown, nodeId: string, field: 'target' | 'strategy', message: string) =>
    expectOnly(problems(doc), nodeId, `configuration.reject.${field}`, message);

  it('toNode needs an existing upstream approval target', () => {
    refuses(chained({ strategy: 'toNode' }), 'task', 'target', 'needs a target');
    refuses(chained({ strategy: 'toNode', target: 'ghost' }), 'task', 'target', '"ghost" is not a node');
    refuses(chained({ strategy: 'toNode', target: 'after' }), 'task', 'target', '"after" is not upstream');
    refuses(chained({ strategy: 'toNode', target: 'task' }), 'task', 'target', 'cannot be the node itself');
    refuses(chained({ strategy: 'toNode', target: 'end' }), 'task', 'target', 'must be a userTask or startTask');
    expect(problems(chained({ strategy: 'toNode', target: 'first' }))).toEqual([]);
    expect(problems(chained({ strategy: 'toNode', target: 'start' }))).toEqual([]);
  });

  it('toNode refuses a path back across a fork or join', () => {
    refuses(parallel({ strategy: 'toNode', target: 'first' }), 'task', 'target', 'crosses a fork, join or inclusive');
    refuses(parallel({ strategy: 'terminate' }, { strategy: 'toNode', target: 'other' }), 'late', 'target', 'crosses');
  });

  // toPrev's way back ends at the previous approval, toStarter's at the start.
  it.each([
    ['toStarter', 'toStarter', 'toStarter'],
    ['toPrev', 'crosses "f" (fork)', 'crosses "j" (join)'],
  ])('%s is refused only when the way back crosses a fork or join', (strategy, onTask, onLate) => {
    expect(problems(chained({ strategy }))).toEqual([]);
    refuses(parallel({ strategy }), 'task', 'strategy', onTask);
    refuses(parallel({ strategy: 'terminate' }, { strategy }), 'late', 'strategy', onLate);
  });

  it('accepts toPrev with no upstream approval node', () => {
    expect(problems(proc(task({ ...manager, reject: { strategy: 'toPrev' } }), LINE))).toEqual([]);
  });
});

describe('parallel regions', () => {
  const cc = (id: string): NodeSpec => [id, 'ccTask'];

  it('accepts a fork closed by a join, and an inclusive closed by a join', () => {
    expect(
      problems(proc(framed(['f', 'fork'], cc('a'), cc('b'), ['j', 'join']), 'start->f f->a f->b a->j b->j j->end')),
    ).toEqual([]);
    const inclusive: NodeSpec = [
      'f',
      'inclusive',
      {
        cases: [
          { case: 'msg.x > 1', then: 'x' },
          { case: 'msg.y > 1', then: 'y' },
        ],
      },
    ];
    expect(
      problems(
        proc(
          framed(inclusive, cc('a'), cc('b'), ['j', 'join']),
          'start->f f-x->a f-y->b f-Default->end a->j b->j j->end',
        ),
      ),
    ).toEqual([]);
  });

  it('refuses branches that never meet at a join', () => {
    expectOnlyIn(
      framed(['f', 'fork'], cc('a'), cc('b')),
      'start->f f->a f->b a->end b->end',
      'f',
      'connections',
      'never meet at a join',
    );
  });

  it('refuses branches meeting at different joins', () => {
    const nodes = framed(['f', 'fork'], cc('a'), cc('b'), ['j1', 'join'], ['j2', 'join']);
    const found = problems(proc(nodes, 'start->f f->a f->b a->j1 b->j2 j1->j2 j2->end'));
    expect(found).toContainEqual({
      nodeId: 'f',
      field: 'connections',
      code: 'region.severalJoins',
      params: { type: 'fork', joinIds: ['j1', 'j2'] },
      message: expect.stringContaining('meet at different joins (j1, j2)'),
    });
  });

  it('refuses a branch that never reaches the join', () => {
    const nodes = framed(['f', 'fork'], cc('a'), cc('b'), ['j', 'join']);
    expectOnlyIn(
      nodes,
      'start->f f->a f->b a->j b->end j->end',
      'f',
      'connections',
      'the branch starting at "b" never reaches join "j"',
    );
  });

  it('refuses nested parallel regions, naming the inner node', () => {
    const nodes = framed(['f', 'fork'], ['g', 'fork'], cc('a'), cc('b'), cc('c'), ['jg', 'join'], ['jf', 'join']);
    const found = problems(proc(nodes, 'start->f f->g f->c g->a g->b a->jg b->jg jg->jf c->jf jf->end'));
    expectOnly(
      found,
      'g',
      'type',
      'nested parallel regions are not supported: this fork lies inside the region of "f"',
    );
  });

  it('refuses a join that closes no fork or inclusive', () => {
    expectOnlyIn(framed(['j', 'join']), 'start->j j->end', 'j', 'connections', 'closes no fork or inclusive');
  });
});

describe('automation nodes', () => {
  const single = (type: string, configuration: unknown, functions?: string[]) =>
    problems(proc(framed(['n', type, configuration]), 'start->n n->end'), functions);

  it('serviceTask functionName must be registered when the list is given', () => {
    expectOnly(
      single('serviceTask', { functionName: 'charge' }, ['notify']),
      'n',
      'configuration.functionName',
      'function "charge" is not registered',
    );
    expect(single('serviceTask', { functionName: 'charge' }, ['charge'])).toEqual([]);
    expect(single('serviceTask', { functionName: 'charge' })).toEqual([]);
    expectOnly(single('serviceTask', {}), 'n', 'configuration.functionName', 'required');
  });

  it('httpCall needs a url', () => {
    expectOnly(single('httpCall', { method: 'POST' }), 'n', 'configuration.url', 'required');
    expectOnly(single('httpCall', { url: 'ftp://x' }), 'n', 'configuration.url', 'http(s) URL');
    expectOnly(single('httpCall', { url: 'https://x/${foo}' }), 'n', 'configuration.url', 'must name msg.<variable>');
    expect(
      single('httpCall', {
        url: 'https://api.example.com/orders/${msg.orderId}',
        headers: { 'X-Key': '${metadata.tenant_id}' },
      }),
    ).toEqual([]);
  });

  it('subProcess needs a targetId other than itself', () => {
    expectOnly(single('subProcess', {}), 'n', 'configuration.targetId', 'required');
    expectOnly(single('subProcess', { targetId: 'p' }), 'n', 'configuration.targetId', 'cannot start itself');
    expect(single('subProcess', { targetId: 'child' })).toEqual([]);
  });

  it('delay takes a number ≥ 0 or a template', () => {
    expectOnly(single('delay', { delayMs: -1 }), 'n', 'configuration.delayMs', 'number ≥ 0');
    expectOnly(single('delay', { delayMs: 'soon' }), 'n', 'configuration.delayMs', 'number ≥ 0 or a template');
    expect(single('delay', { delayMs: '${msg.waitMs}' })).toEqual([]);
    expect(single('delay', { delayMs: 0 })).toEqual([]);
  });
});

describe('loops that never wait', () => {
  const sw = (then: string) => ({ cases: [{ case: 'msg.days > 3', then }] });
  const loopProblems = (found: Problem[]) => found.filter((p) => p.message.includes('loop that never waits'));

  it('refuses two switches whose defaults point at each other, naming both', () => {
    const doc = proc(
      framed(['a', 'switch', sw('out')], ['b', 'switch', sw('out')]),
      'start->a a-Default->b b-Default->a a-out->end b-out->end',
    );
    const found = loopProblems(problems(doc));
    expect(found.map((p) => p.nodeId).sort()).toEqual(['a', 'b']);
    expect(found[0]).toMatchObject({ field: 'connections', message: expect.stringContaining('(a, b)') });
  });

  it('refuses a self-loop and a loop through cc, http and service nodes', () => {
    const self = proc(framed(['a', 'switch', sw('out')]), 'start->a a-Default->a a-out->end');
    expect(loopProblems(problems(self)).map((p) => p.nodeId)).toEqual(['a']);
    const cc = proc(
      framed(['c', 'ccTask', { userIds: ['bob'] }], ['a', 'switch', sw('out')]),
      'start->c c->a a-Default->c a-out->end',
    );
    expect(
      loopProblems(problems(cc))
        .map((p) => p.nodeId)
        .sort(),
    ).toEqual(['a', 'c']);
  });

  it('allows loops through a userTask or a delay', () => {
    const viaTask = proc(
      framed(['task', 'userTask', manager], ['a', 'switch', sw('out')]),
      'start->task task->a a-Default->task a-out->end',
    );
    expect(loopProblems(problems(viaTask))).toEqual([]);
    const viaDelay = proc(
      framed(['wait', 'delay', { delayMs: 1000 }], ['a', 'switch', sw('out')]),
      'start->wait wait->a a-Default->wait a-out->end',
    );
    expect(loopProblems(problems(viaDelay))).toEqual([]);
  });
});
