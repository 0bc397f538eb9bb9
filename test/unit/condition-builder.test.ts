// The condition builder's model (ui/src/features/designer/model/condition.ts): rows written as the
// CEL the engine runs, read back to the same rows, and every written condition compiles against
// the form's types with the DSL's own compiler; what it cannot show as rows says why.
import { describe, expect, it } from 'vitest';
import { formVariableTypes } from '../../dsl/conditions.js';
import { compileCondition, evaluateCondition } from '../../dsl/expressions.js';
import type { ProcessDocument } from '../../dsl/types.js';
import {
  builderFields,
  readCondition,
  writeCondition,
  type Condition,
} from '../../ui/src/features/designer/model/condition.js';

const form = {
  fields: [
    { name: 'days', label: 'Leave days', type: 'number' },
    {
      name: 'type',
      label: 'Leave type',
      type: 'select',
      options: [
        { value: 'annual', label: 'Annual' },
        { value: 'sick', label: 'Sick' },
      ],
    },
    { name: 'level', type: 'select', options: [1, 2, 3] },
    { name: 'reason', label: 'Reason', type: 'textarea' },
    { name: 'urgent', label: 'Urgent', type: 'boolean' },
    { name: 'start', label: 'First day', type: 'date' },
    { name: 'approvers', type: 'user', multiple: true },
  ],
};
const fields = builderFields(form);
const types = formVariableTypes({ ruleChain: { additionalInfo: { form } } } as unknown as ProcessDocument);

const cases: Array<[string, Condition]> = [
  [
    'msg.days > 3 && msg.type == "annual"',
    {
      join: 'and',
      rules: [
        { field: 'days', op: 'gt', value: 3 },
        { field: 'type', op: 'eq', value: 'annual' },
      ],
    },
  ],
  [
    'msg.days <= 1.5 || msg.days != 10 || msg.days >= -2 || msg.days < 0 || msg.days == 7',
    {
      join: 'or',
      rules: [
        { field: 'days', op: 'le', value: 1.5 },
        { field: 'days', op: 'ne', value: 10 },
        { field: 'days', op: 'ge', value: -2 },
        { field: 'days', op: 'lt', value: 0 },
        { field: 'days', op: 'eq', value: 7 },
      ],
    },
  ],
  [
    'msg.reason.contains("move \\"house\\"") && msg.reason.startsWith("我") && msg.reason != "x"',
    {
      join: 'and',
      rules: [
        { field: 'reason', op: 'contains', value: 'move "house"' },
        { field: 'reason', op: 'startsWith', value: '我' },
        { field: 'reason', op: 'ne', value: 'x' },
      ],
    },
  ],
  [
    'msg.type in ["annual", "sick"] && msg.level in [1, 3]',
    {
      join: 'and',
      rules: [
        { field: 'type', op: 'in', value: ['annual', 'sick'] },
        { field: 'level', op: 'in', value: [1, 3] },
      ],
    },
  ],
  [
    'msg.urgent == true || msg.urgent == false',
    {
      join: 'or',
      rules: [
        { field: 'urgent', op: 'isTrue', value: null },
        { field: 'urgent', op: 'isFalse', value: null },
      ],
    },
  ],
  [
    'msg.start < "2026-12-24" && msg.start > "2026-01-01"',
    {
      join: 'and',
      rules: [
        { field: 'start', op: 'before', value: '2026-12-24' },
        { field: 'start', op: 'after', value: '2026-01-01' },
      ],
    },
  ],
];

describe('condition builder model', () => {
  it('offers the form fields it has rows for, with labels and kinds', () => {
    expect(fields.map((f) => [f.name, f.label, f.kind])).toEqual([
      ['days', 'Leave days', 'number'],
      ['type', 'Leave type', 'choice'],
      ['level', 'level', 'choice'],
      ['reason', 'Reason', 'text'],
      ['urgent', 'Urgent', 'boolean'],
      ['start', 'First day', 'date'],
    ]);
    expect(fields[1].options).toEqual([
      { value: 'annual', label: 'Annual' },
      { value: 'sick', label: 'Sick' },
    ]);
  });

  it.each(cases)('writes %s and reads it back to the same rows', (cel, condition) => {
    expect(writeCondition(condition, fields)).toBe(cel);
    expect(readCondition(cel, fields)).toEqual({ ok: true, condition });
    expect(compileCondition(cel, types)).toEqual({ ok: true });
  });

  it('runs as the engine runs it', () => {
    const cel = writeCondition(cases[0][1], fields);
    const ctx = (msg: Record<string, unknown>) => ({ msg, metadata: {} });
    expect(evaluateCondition(cel, ctx({ days: 5, type: 'annual' }))).toBe(true);
    expect(evaluateCondition(cel, ctx({ days: 2, type: 'annual' }))).toBe(false);
    expect(evaluateCondition(cel, ctx({ days: 5, type: 'sick' }))).toBe(false);
  });

  it('writes a number typed as text as a number, and leaves incomplete rows out', () => {
    const c: Condition = {
      join: 'and',
      rules: [
        { field: 'days', op: 'gt', value: '3' },
        { field: 'type', op: 'in', value: [] },
        { field: 'reason', op: 'contains', value: ' ' },
      ],
    };
    expect(writeCondition(c, fields)).toBe('msg.days > 3');
    expect(writeCondition({ join: 'or', rules: [] }, fields)).toBe('');
  });

  it('reads the GFlow spellings and single quotes the engine also accepts', () => {
    expect(readCondition("msg.days > 3 and msg.type == 'annual'", fields)).toEqual({
      ok: true,
      condition: cases[0][1],
    });
    expect(readCondition('', fields)).toEqual({ ok: true, condition: { join: 'and', rules: [] } });
  });

  it.each([
    ['msg.days > 3 && msg.urgent == true || msg.type == "sick"', { reason: 'mixedJoin' }],
    ['(msg.days > 3 || msg.urgent == true) && msg.type == "sick"', { reason: 'grouping' }],
    ['msg.dayz > 3', { reason: 'unknownField', name: 'dayz' }],
    ['days > 3', { reason: 'operator', name: 'days' }],
    ['msg.reason.endsWith("x")', { reason: 'operator', name: 'endsWith' }],
    ['msg.reason > "x"', { reason: 'operator', name: '>' }],
    ['size(msg.reason) > 3', { reason: 'operator', name: 'size' }],
    ['msg.days > msg.level', { reason: 'syntax' }],
    ['msg.days > 3 &&', { reason: 'syntax' }],
    ['!msg.urgent', { reason: 'syntax' }],
  ])('keeps %s in the code view: %o', (cel, why) => {
    expect(readCondition(cel, fields)).toEqual({ ok: false, why });
  });
});
