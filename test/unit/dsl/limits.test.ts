import { describe, expect, it } from 'vitest';
import { approvalNodesAhead, compileProcess, parseProcess } from '../../../dsl/index.js';
import { MAX_CONNECTIONS, MAX_NODES } from '../../../dsl/parse.js';

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
    nodes.push({
      id: 'sw',
      type: 'switch',
      name: 'sw',
      configuration: { cases: [{ case: 'msg.days > 3', then: 'long' }] },
    });
    nodes.push({
      id: 'extra',
      type: 'userTask',
      name: 'extra',
      configuration: { approver: { type: 'user', userIds: ['bob'] } },
    });
    connections.push({ fromId: prev, toId: 'sw', type: 'Success' });
    connections.push({ fromId: 'sw', toId: 'extra', type: 'long' });
    connections.push({ fromId: 'sw', toId: 'last', type: 'Default' });
    connections.push({ fromId: 'extra', toId: 'last', type: 'Success' });
    nodes.push({
      id: 'last',
      type: 'userTask',
      name: 'last',
      configuration: { approver: { type: 'user', userIds: ['bob'] } },
    });
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
    expect(parsed.problems).toEqual([
      expect.objectContaining({ field: 'metadata.nodes', message: expect.stringContaining(`at most ${MAX_NODES}`) }),
    ]);
    const many = chain(3);
    many.metadata.connections = Array.from({ length: MAX_CONNECTIONS + 1 }, () => ({
      fromId: 'start',
      toId: 't0',
      type: 'Success',
    }));
    expect(parseProcess(many).problems[0]).toMatchObject({ field: 'metadata.connections' });
  });

  it('accepts the largest allowed chain and predicts it in linear time', () => {
    const result = compileProcess(chain(MAX_NODES - 2));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const t0 = performance.now();
    const ahead = approvalNodesAhead(result.doc, ['t0']);
    // A complexity guard (the quadratic walk took ~3.5 s here), not a speed target: the bench times it.
    expect(performance.now() - t0).toBeLessThan(2000);
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

describe('undecided flags (dominator pass) against a brute-force walk', () => {
  it('agree on random graphs with branches and loops', () => {
    let seed = 42;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const n = 3 + rnd(25);
      const nodes: any[] = [{ id: 'n0', type: 'startTask' }];
      for (let i = 1; i < n; i++)
        nodes.push({ id: `n${i}`, type: rnd(4) === 0 ? 'switch' : rnd(6) === 0 ? 'end' : 'userTask' });
      nodes.push({ id: 'end', type: 'end' });
      const connections: any[] = [];
      for (let i = 0; i < n; i++) {
        const fan = nodes[i].type === 'switch' ? 2 + rnd(2) : 1;
        for (let k = 0; k < fan; k++) {
          const to = rnd(4) === 0 ? rnd(n + 1) : Math.min(n, i + 1 + rnd(3));
          connections.push({
            fromId: `n${i}`,
            toId: to === n ? 'end' : `n${to}`,
            type: rnd(8) === 0 ? 'Reject' : 'Success',
          });
        }
      }
      const doc: any = { ruleChain: { id: 'r' }, metadata: { firstNodeIndex: 0, nodes, connections } };
      const starts = [`n${rnd(n)}`];
      const ends = nodes.filter((x) => x.type === 'end').map((x) => x.id);
      const reachesEnd = (skip: string) => {
        const seen = new Set(starts.filter((s) => s !== skip));
        const queue = [...seen];
        while (queue.length) {
          const id = queue.pop()!;
          for (const c of connections) {
            if (c.fromId !== id || c.type === 'Reject' || c.toId === skip || seen.has(c.toId)) continue;
            seen.add(c.toId);
            queue.push(c.toId);
          }
        }
        return ends.some((e: string) => seen.has(e));
      };
      const anyEnd = reachesEnd('');
      for (const { node, undecided } of approvalNodesAhead(doc, starts)) {
        expect(undecided, `round ${round} node ${node.id}`).toBe(anyEnd && reachesEnd(node.id));
      }
    }
  });
});
