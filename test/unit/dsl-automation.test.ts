// The process DSL's automation node (GFlow's: a process runs a rule chain) and the aiAgent's skills.
import { describe, expect, it } from 'vitest';
import {
  approvalNodesAhead,
  compileProcess,
  componentCatalogue,
  nodeConfigSchemas,
  processWarnings,
  type Problem,
} from '../../dsl/index.js';

/** start → n → end, with `n` of this type and configuration (a Failure edge to end when asked). */
function doc(type: string, configuration: unknown, failure = false) {
  return {
    ruleChain: { id: 'p', name: 'P' },
    metadata: {
      nodes: [
        { id: 'start', type: 'startTask' },
        { id: 'n', type, configuration },
        { id: 'end', type: 'end' },
      ],
      connections: [
        { fromId: 'start', toId: 'n', type: 'Success' },
        { fromId: 'n', toId: 'end', type: 'Success' },
        ...(failure ? [{ fromId: 'n', toId: 'end', type: 'Failure' }] : []),
      ],
    },
  };
}

const problemsOf = (input: unknown, opts: Parameters<typeof compileProcess>[1] = {}): Problem[] => {
  const result = compileProcess(input, opts);
  return result.ok ? [] : result.problems;
};

describe('automation node', () => {
  it("accepts GFlow's one key, targetId, with a Failure route", () => {
    const result = compileProcess(doc('automation', { targetId: 'enrich' }, true));
    expect(result.ok).toBe(true);
    const node = result.ok ? result.doc.metadata.nodes.find((n) => n.id === 'n') : undefined;
    expect(node).toMatchObject({ type: 'automation', configuration: { targetId: 'enrich' } });
    // The defaults the engine applies, as the schema documents them.
    expect(nodeConfigSchemas.automation.parse({ targetId: 'enrich' })).toEqual({
      targetId: 'enrich',
      wait: true,
      flattenOutput: true,
      reservedKey: '_automation',
    });
  });

  it('keeps wait=false, a time limit and output mappings', () => {
    const config = { targetId: 'notify', wait: false, timeoutMs: 5000, outputMappings: [{ from: 'a.b', to: 'c' }] };
    expect(problemsOf(doc('automation', config))).toEqual([]);
  });

  it('requires targetId, refuses an empty one and unknown keys', () => {
    expect(problemsOf(doc('automation', {}))).toMatchObject([
      { nodeId: 'n', field: 'configuration.targetId', code: 'value.required' },
    ]);
    expect(problemsOf(doc('automation', { targetId: '  ' }))).toMatchObject([
      { nodeId: 'n', field: 'configuration.targetId', code: 'value.empty' },
    ]);
    expect(problemsOf(doc('automation', { targetId: 'x', extend: true }))).toMatchObject([
      { nodeId: 'n', field: 'configuration.extend', code: 'value.unknownField' },
    ]);
    expect(problemsOf(doc('automation', { targetId: 'x', timeoutMs: 0 }))).toMatchObject([
      { nodeId: 'n', field: 'configuration.timeoutMs', code: 'value.invalid' },
    ]);
    expect(problemsOf(doc('automation', { targetId: 'x', wait: 'yes' }))).toMatchObject([
      { nodeId: 'n', field: 'configuration.wait', code: 'value.invalid' },
    ]);
  });

  it('is listed by the bpm catalogue with its form', () => {
    const automation = componentCatalogue('bpm').find((c) => c.type === 'automation');
    expect(automation?.name).toBe('Automation');
    const schema = automation!.configSchema as { required: string[]; properties: Record<string, unknown> };
    expect(schema.required).toEqual(['targetId']);
    expect(schema.properties.wait).toMatchObject({ type: 'boolean', default: true });
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['targetId', 'wait', 'timeoutMs', 'flattenOutput', 'outputMappings', 'reservedKey']),
    );
    expect(nodeConfigSchemas.automation).toBeDefined();
  });
});

describe('aiAgent skills', () => {
  const agent = (skills: unknown) => doc('aiAgent', { agentId: 'reviewer', skills });

  it('accepts skills the tenant has, in any order', () => {
    expect(problemsOf(agent(['tone', 'policy']), { agents: ['reviewer'], skills: ['policy', 'tone'] })).toEqual([]);
  });

  it('names each skill the tenant does not have, by its index', () => {
    expect(problemsOf(agent(['tone', 'ghost']), { agents: ['reviewer'], skills: ['tone'] })).toMatchObject([
      { nodeId: 'n', field: 'configuration.skills[1]', code: 'node.skillUnknown', params: { name: 'ghost' } },
    ]);
  });

  it('checks the shape without a catalogue: a list of names', () => {
    expect(problemsOf(agent(['tone']))).toEqual([]);
    expect(problemsOf(agent('tone'))).toMatchObject([{ field: 'configuration.skills', code: 'value.invalid' }]);
    expect(problemsOf(agent(['']))).toMatchObject([{ field: 'configuration.skills[0]', code: 'value.invalid' }]);
  });
});

describe('automation in the prediction and the warnings', () => {
  // start → auto → switch on msg.level (high → big, Default → small) → end
  const routed = (config: Record<string, unknown>) => {
    const result = compileProcess({
      ruleChain: { id: 'p', name: 'P' },
      metadata: {
        nodes: [
          { id: 'start', type: 'startTask' },
          { id: 'auto', type: 'automation', configuration: config },
          { id: 'route', type: 'switch', configuration: { cases: [{ case: "msg.level == 'high'", then: 'high' }] } },
          { id: 'big', type: 'userTask', configuration: { approver: { type: 'user', userIds: ['bob'] } } },
          { id: 'small', type: 'userTask', configuration: { approver: { type: 'user', userIds: ['carol'] } } },
          { id: 'end', type: 'end' },
        ],
        connections: [
          { fromId: 'start', toId: 'auto', type: 'Success' },
          { fromId: 'auto', toId: 'route', type: 'Success' },
          { fromId: 'route', toId: 'big', type: 'high' },
          { fromId: 'route', toId: 'small', type: 'Default' },
          { fromId: 'big', toId: 'end', type: 'Success' },
          { fromId: 'small', toId: 'end', type: 'Success' },
        ],
      },
    });
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    return result.doc;
  };
  const ahead = (config: Record<string, unknown>) =>
    approvalNodesAhead(routed(config), ['start'], { msg: { level: 'low' }, metadata: {} }).map((a) => [
      a.node.id,
      a.undecided,
    ]);

  it('a waiting chain may write any variable: the switch after it stays open', () => {
    expect(ahead({ targetId: 'grade' })).toEqual([
      ['big', true],
      ['small', true],
    ]);
  });

  it('a chain that is not waited for writes nothing: the switch decides on today’s data', () => {
    expect(ahead({ targetId: 'grade', wait: false })).toEqual([['small', false]]);
  });

  it('no warning for a variable a chain ahead may set', () => {
    expect(processWarnings(routed({ targetId: 'grade' }))).toEqual([]);
  });
});
