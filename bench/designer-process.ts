// A large process for the designer's figures: `blocks` switches in a column, each with two
// approver branches that meet at the next, between a start and an end (3 nodes a block).
export function largeProcess(blocks = 99, key = 'bench_designer') {
  const nodes: any[] = [{ id: 'start', type: 'startTask', name: 'Start' }];
  const connections: any[] = [];
  for (let i = 0; i < blocks; i++) {
    const sw = `switch_${i}`;
    nodes.push(
      {
        id: sw,
        type: 'switch',
        name: `Check ${i}`,
        configuration: { cases: [{ case: `msg.days > ${i}`, then: 'more' }] },
      },
      {
        id: `a_${i}`,
        type: 'userTask',
        name: `Approver A${i}`,
        configuration: { approver: { type: 'manager', levels: 1 } },
      },
      {
        id: `b_${i}`,
        type: 'userTask',
        name: `Approver B${i}`,
        configuration: { approver: { type: 'user', userIds: ['bob'] } },
      },
    );
    if (i === 0) connections.push({ fromId: 'start', toId: sw, type: 'Success' });
    connections.push({ fromId: sw, toId: `a_${i}`, type: 'more' }, { fromId: sw, toId: `b_${i}`, type: 'Default' });
    const next = i === blocks - 1 ? 'end' : `switch_${i + 1}`;
    connections.push(
      { fromId: `a_${i}`, toId: next, type: 'Success' },
      { fromId: `b_${i}`, toId: next, type: 'Success' },
    );
  }
  nodes.push({ id: 'end', type: 'end', name: 'End' });
  // The blocks meet at the next switch, so each branch's Success already leads there.
  return {
    ruleChain: {
      id: key,
      name: 'Designer bench',
      root: true,
      additionalInfo: { formType: 'design', form: { fields: [{ name: 'days', type: 'number', label: 'Days' }] } },
    },
    metadata: { firstNodeIndex: 0, nodes, connections },
  };
}
