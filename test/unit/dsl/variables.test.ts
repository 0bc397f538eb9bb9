// The one warning of the DSL (dsl/variables.ts): a case on a variable the form does not declare and
// no earlier step sets. Deploy accepts it; the server's POST /validate and the designer report it.
import { describe, expect, it } from 'vitest';
import { compileProcess, messageOf, parseProcess, processWarnings } from '../../../dsl/index.js';
import { problemMessageIn } from '../../../dsl/problems.zh-CN.js';

const form = { fields: [{ name: 'days', type: 'number' }] };
/** start → [before] → route (cases) → approve / end. */
function doc(cases: string[], opts: { before?: string; form?: unknown; wrapped?: boolean } = {}) {
  const nodes: unknown[] = [
    { id: 'start', type: 'startTask' },
    ...(opts.before
      ? [
          {
            id: 'calc',
            type: opts.before,
            configuration: { functionName: 'setVariables', url: 'https://x.test', method: 'GET', agentId: 'a' },
          },
        ]
      : []),
    { id: 'route', type: 'switch', configuration: { cases: cases.map((c) => ({ case: c, then: 'big' })) } },
    { id: 'approve', type: 'userTask', configuration: { approver: { type: 'manager' } } },
    { id: 'end', type: 'end' },
  ];
  const first = opts.before ? 'calc' : 'route';
  const connections = [
    { fromId: 'start', toId: first, type: 'Success' },
    ...(opts.before ? [{ fromId: 'calc', toId: 'route', type: 'Success' }] : []),
    { fromId: 'route', toId: 'approve', type: 'big' },
    { fromId: 'route', toId: 'end', type: 'Default' },
    { fromId: 'approve', toId: 'end', type: 'Success' },
  ];
  const f = opts.form === undefined ? form : opts.form;
  return {
    ruleChain: { id: 'p', name: 'P', ...(f && !opts.wrapped ? { additionalInfo: { form: f } } : {}) },
    ...(f && opts.wrapped ? { form: f } : {}),
    metadata: { nodes, connections },
  };
}
const warnings = (input: unknown) => processWarnings(parseProcess(input).doc!);

describe('condition.unknownVariable', () => {
  it('names each undeclared variable of a case, at the case', () => {
    expect(warnings(doc(['msg.days > 3', 'msg.dayz > 3 && msg.reason == "x"']))).toEqual([
      {
        nodeId: 'route',
        field: 'configuration.cases[1].case',
        code: 'condition.unknownVariable',
        params: { variable: 'dayz', suggestion: 'days' },
        message: 'msg.dayz is not a field of the process form, and no earlier step sets it — did you mean msg.days?',
      },
      expect.objectContaining({ field: 'configuration.cases[1].case', params: { variable: 'reason' } }),
    ]);
    // a designer's top-level form wrapper counts the same
    expect(warnings(doc(['msg.dayz > 3'], { wrapped: true }))).toHaveLength(1);
  });

  it('says nothing without a form, after a step with open outputs, for msg as a whole or a case that does not compile', () => {
    expect(warnings(doc(['msg.dayz > 3'], { form: null }))).toEqual([]);
    for (const before of ['serviceTask', 'httpCall', 'aiAgent'])
      expect(warnings(doc(['msg.dayz > 3'], { before }))).toEqual([]);
    expect(warnings(doc(['"dayz" in msg']))).toEqual([]);
    expect(warnings(doc(['msg.dayz >']))).toEqual([]);
  });

  it('is a warning: deploy validation accepts the document', () => {
    const input = doc(['msg.dayz > 3']);
    expect(compileProcess(input).ok).toBe(true);
    expect(warnings(input)).toHaveLength(1);
  });

  it('has its words in English and Chinese', () => {
    const params = { variable: 'dayz' };
    expect(messageOf('condition.unknownVariable', params)).toContain('msg.dayz');
    expect(problemMessageIn('zh-CN', { code: 'condition.unknownVariable', params, message: '' })).toBe(
      'msg.dayz 不是流程表单的字段，之前也没有步骤设置它',
    );
  });
});
