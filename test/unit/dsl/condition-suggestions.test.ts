// An unknown name in a condition suggests the form field it most likely means (dsl/conditions.ts):
// a parameter on the problem, words at the edge in English and Chinese, as do the compiler's errors.
import { describe, expect, it } from 'vitest';
import { invalidConditionFinding, nearestField } from '../../../dsl/conditions.js';
import { compileCondition } from '../../../dsl/expressions.js';
import { parseProcess, processWarnings } from '../../../dsl/index.js';
import { messageOf } from '../../../dsl/problems.js';
import { conditionErrorIn, problemMessageIn } from '../../../dsl/problems.zh-CN.js';

const fields = [
  { name: 'days', label: 'Leave days' },
  { name: 'leaveType', label: '请假类型' },
  { name: 'amount', label: 'amount' },
];
const types = { days: 'number', leaveType: 'text', amount: 'money' };

function invalid(expression: string) {
  const compiled = compileCondition(expression, types);
  if (compiled.ok) throw new Error(`${expression} compiles`);
  return invalidConditionFinding(expression, compiled.error, fields);
}

describe('suggestions for unknown names', () => {
  it('finds the field a bare, mistyped or differently cased name means, and nothing far off', () => {
    expect(nearestField('days', fields)?.name).toBe('days');
    expect(nearestField('Days', fields)?.name).toBe('days');
    expect(nearestField('dayz', fields)?.name).toBe('days');
    expect(nearestField('leavetype', fields)?.name).toBe('leaveType');
    expect(nearestField('leaveTpye', fields)?.name).toBe('leaveType');
    expect(nearestField('amout', fields)?.name).toBe('amount');
    expect(nearestField('请假类型', fields)?.name).toBe('leaveType');
    expect(nearestField('reason', fields)).toBeUndefined();
    expect(nearestField('x', fields)).toBeUndefined();
  });

  it('`days > 3` names msg.days and its label, in English and Chinese', () => {
    const f = invalid('days > 3');
    expect(f.params).toEqual({
      expression: 'days > 3',
      error: 'Unknown variable: days',
      variable: 'days',
      suggestion: 'days',
      suggestionLabel: 'Leave days',
    });
    expect(f.message).toBe('Unknown variable: days — did you mean msg.days (Leave days)?');
    expect(
      messageOf('condition.invalid', { ...f.params, error: conditionErrorIn('en', String(f.params.error), true) }),
    ).toBe('Unknown name "days" — did you mean msg.days (Leave days)?');
    expect(problemMessageIn('zh-CN', f)).toBe('未知的名称“days”——是不是 msg.days（Leave days）？');
    // No near field: the words say how a field is written.
    const far = invalid('reason == "x"');
    expect(far.params).toEqual({ expression: 'reason == "x"', error: 'Unknown variable: reason', variable: 'reason' });
    expect(
      messageOf('condition.invalid', { ...far.params, error: conditionErrorIn('en', 'Unknown variable: reason') }),
    ).toBe('Unknown name "reason": a form field is written msg.<field name>');
  });

  it('a label equal to the name is not repeated', () => {
    expect(invalid('amout > 3').message).toBe('Unknown variable: amout — did you mean msg.amount?');
  });

  it('the warning on an undeclared msg.<name> suggests the field too, with its label', () => {
    const doc = {
      ruleChain: {
        id: 'p',
        name: 'P',
        additionalInfo: { form: { fields: [{ name: 'days', label: 'Leave days', type: 'number' }] } },
      },
      metadata: {
        nodes: [
          { id: 'start', type: 'startTask' },
          { id: 'route', type: 'switch', configuration: { cases: [{ case: 'msg.dayz > 3', then: 'big' }] } },
          { id: 'end', type: 'end' },
        ],
        connections: [
          { fromId: 'start', toId: 'route', type: 'Success' },
          { fromId: 'route', toId: 'end', type: 'big' },
          { fromId: 'route', toId: 'end', type: 'Default' },
        ],
      },
    };
    const [warning] = processWarnings(parseProcess(doc).doc!);
    expect(warning.params).toEqual({ variable: 'dayz', suggestion: 'days', suggestionLabel: 'Leave days' });
    expect(warning.message).toBe(
      'msg.dayz is not a field of the process form, and no earlier step sets it — did you mean msg.days (Leave days)?',
    );
    expect(problemMessageIn('zh-CN', warning)).toBe(
      'msg.dayz 不是流程表单的字段，之前也没有步骤设置它——是不是 msg.days（Leave days）？',
    );
  });
});

describe('the compiler’s errors in words', () => {
  it.each([
    ['msg.days > "x"', 'a number and text cannot be used with >', '不能对数字和文本使用 >'],
    ['msg.days >', 'the condition is incomplete', '条件不完整'],
    ['msg.days + 1', 'a condition must be true or false, not a number', '条件的结果必须是“是”或“否”，而不是数字'],
    ['', 'the condition is empty', '条件为空'],
  ])('%s', (expression, en, zh) => {
    const compiled = compileCondition(expression, types);
    expect(compiled.ok).toBe(false);
    const error = (compiled as { error: string }).error;
    expect(conditionErrorIn('en', error)).toBe(en);
    expect(conditionErrorIn('zh-CN', error)).toBe(zh);
    // The server's Chinese answer is made from the same params.
    expect(problemMessageIn('zh-CN', invalidConditionFinding(expression, error, fields))).toBe(zh);
  });

  it('keeps words it does not know, marked as a condition problem in Chinese', () => {
    expect(conditionErrorIn('en', 'something new')).toBe('something new');
    expect(conditionErrorIn('zh-CN', 'something new')).toBe('条件无效：something new');
  });

  it('names field types in Chinese in the form problems', () => {
    expect(problemMessageIn('zh-CN', { code: 'form.optionsRequired', params: { type: 'select' }, message: '' })).toBe(
      '单选字段至少需要一个选项',
    );
    expect(
      problemMessageIn('zh-CN', {
        code: 'form.boundNotAllowed',
        params: { type: 'boolean', bound: 'min' },
        message: '',
      }),
    ).toBe('是/否字段不能设置最小值');
    expect(
      problemMessageIn('zh-CN', {
        code: 'approver.idsRequired',
        params: { type: 'role', list: 'roleIds' },
        message: '',
      }),
    ).toBe('请至少选择一个角色');
  });
});
