import { describe, expect, it } from 'vitest';
import { approvalNodesAhead, compileProcess, parseProcess } from '../../../src/dsl/index.js';
import { MAX_CONNECTIONS, MAX_NODES } from '../../../src/dsl/parse.js';

/** start → n userTasks → end, optionally with a switch diamond after the first task. */
function chain(tasks: number, diamond = false) {
  const nodes: any[] = [{ id: 'start', type: 'startTask', name: 'Start' }];
  const connections: any[] = [];
  let prev = 'start';
  for (let i = 0; i < tasks; i++) {
    const id = `t${i}`;
    nodes.push({ id, type: 'userTask', name: id, configuration: { approver: { type: 'user', userIds: ['bob'] } } });
    connections.push({ fromId: prev, toId: id, type: 'Success' });
    prev = id;
  }
  if (diamond) {
    nodes.push({ id: 'sw', type: 'switch', name: 'sw', configuration: { cases: [{ case: 'msg.days > 3', then: 'long' }] } });
    nodes.push({ id: 'extra', type: 'userTask', name: 'extra', configuration: { approver: { type: 'user', userIds: ['bob'] } } });
    connections.push({ fromId: prev, toId: 'sw', type: 'Success' });
    connections.push({ fromId: 'sw', toId: 'extra', type: 'long' });
    connections.push({ fromId: 'sw', toId: 'last', type: 'Default' });
    connections.push({ fromId: 'extra', toId: 'last', type: 'Success' });
    nodes.push({ id: 'last', type: 'userTask', name: 'last', configuration: { approver: { type: 'user', userIds: ['bob'] } } });
    prev = 'last';
  }
  nodes.push({ id: 'end', type: 'end', name: 'End' });
  connections.push({ fromId: prev, toId: 'end', type: 'Success' });
  return { ruleChain: { id: 'chain', name: 'Chain' }, metadata: { firstNodeIndex: 0, nodes, connections } };
}

describe('definition size caps', () => {
  it('refuses more nodes or connections than allowed, with a clear problem', () => {
    const big = chain(MAX_NODES);
    expect(big.metadata.nodes.length).toBeGreaterThan(MAX_NODES);
    const parsed = parseProcess(big);
    expect(parsed.doc).toBeNull();
    expect(parsed.problems).toEqual([expect.objectContaining({ field: 'metadata.nodes', message: expect.stringContaining(`at most ${MAX_NODES}`) })]);
    const many = chain(3);
    many.metadata.connections = Array.from({ length: MAX_CONNECTIONS + 1 }, () => ({ fromId: 'start', toId: 't0', type: 'Success' }));
    expect(parseProcess(many).problems[0]).toMatchObject({ field: 'metadata.connections' });
  });

  it('accepts the largest allowed chain and predicts it in linear time', () => {
    const result = compileProcess(chain(MAX_NODES - 2));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const t0 = performance.now();
    const ahead = approvalNodesAhead(result.doc, ['t0']);
    expect(performance.now() - t0).toBeLessThan(200);
    expect(ahead).toHaveLength(MAX_NODES - 3);
    expect(ahead.every((a) => !a.undecided)).toBe(true);
  });

  it('flags only the nodes behind a switch as undecided', () => {
    const result = compileProcess(chain(3, true));
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(approvalNodesAhead(result.doc, ['start']).map((a) => [a.node.id, a.undecided])).toEqual([
      ['t0', false],
      ['t1', false],
      ['t2', false],
      ['extra', true],
      ['last', false],
    ]);
  });
});
