// The one form schema and value check (dsl/forms.ts, docs/forms.md).
import { describe, expect, it } from 'vitest';
import { formSchemaProblems, formValueProblems, formVariableTypes, parseProcess } from '../../../dsl/index.js';

describe('form schema', () => {
  it('accepts every field type with its options, bounds and layout', () => {
    const form = {
      columns: 2,
      sections: [{ id: 's', title: 'S', columns: 2 }],
      fields: [
        { name: 'a', type: 'text', pattern: '[a-z]+', min: 1, max: 5, layout: { section: 's', row: 0, column: 1 } },
        { name: 'b', type: 'textarea' },
        { name: 'c', type: 'number', min: -1, max: 1.5, default: 0 },
        { name: 'd', type: 'money', required: true },
        { name: 'e', type: 'date', min: '2020-01-01', max: '2030-12-31' },
        { name: 'f', type: 'datetime', min: '2020-01-01T00:00:00Z' },
        { name: 'g', type: 'select', options: [1, { value: 'two', label: 'Two' }] },
        { name: 'h', type: 'multi-select', options: ['x', 'y'], max: 1, default: ['x'] },
        { name: 'i', type: 'user', multiple: true },
        { name: 'j', type: 'department' },
        { name: 'k', type: 'boolean', default: false },
        { name: 'l', type: 'attachment' },
        { name: 'm', type: 'string' }, // older spelling of text
        { name: 'n' },
      ],
    };
    expect(formSchemaProblems(form)).toEqual([]);
  });

  it('names each problem', () => {
    const fields = (f: unknown[]) => formSchemaProblems({ fields: f }).map((p) => p.field);
    expect(fields([{ name: 'a', type: 'nope' }])).toEqual(['fields[0].type']);
    expect(fields([{ name: 'a', type: 'select', options: ['x', 'x'] }])).toEqual(['fields[0].options']);
    expect(fields([{ name: 'a', type: 'text', options: ['x'] }])).toEqual(['fields[0].options']);
    expect(fields([{ name: 'a', type: 'number', pattern: 'x' }])).toEqual(['fields[0].pattern']);
    expect(fields([{ name: 'a', type: 'text', multiple: true }])).toEqual(['fields[0].multiple']);
    expect(fields([{ name: 'a', type: 'text', min: -1 }])).toEqual(['fields[0].min']);
    expect(fields([{ name: 'a', type: 'date', max: '2020-13-01' }])).toEqual(['fields[0].max']);
    expect(fields([{ name: 'a', type: 'select', options: ['x'], default: 'y' }])).toEqual(['fields[0].default']);
    expect(formSchemaProblems([]).map((p) => p.field)).toEqual(['']);
    expect(formSchemaProblems({ sections: [{ id: 's' }, { id: 's' }] }).map((p) => p.field)).toEqual([
      'sections[1].id',
    ]);
  });
});

describe('form values', () => {
  const form = {
    fields: [
      { name: 'n', type: 'number', required: true, min: 1, max: 10 },
      { name: 't', type: 'text', pattern: '\\d{3}', required: true },
      { name: 'm', type: 'multi-select', options: ['a', 'b'] },
      { name: 's', type: 'select', options: [1, 2] },
      { name: 'u', type: 'user', multiple: true },
    ],
  };

  it('accepts good values and ignores undeclared ones', () => {
    expect(
      formValueProblems(form, { n: 2, t: '123', m: ['b'], s: 2, u: ['x'], extra: 1 }, { requireAll: true }),
    ).toEqual([]);
  });

  it('reports each bad field once, required only when asked', () => {
    expect(formValueProblems(form, { n: 11, t: '12a', m: ['c'], s: '1', u: 'x' }, { requireAll: false })).toEqual([
      { path: 'n', message: 'value above the maximum 10' },
      { path: 't', message: 'does not match the pattern \\d{3}' },
      { path: 'm', message: 'not among the options: c' },
      { path: 's', message: 'not one of the options (1, 2)' },
      { path: 'u', message: 'expected a list of user ids' },
    ]);
    expect(formValueProblems(form, { t: '' }, { requireAll: true })).toEqual([
      { path: 'n', message: 'required' },
      { path: 't', message: 'required' },
    ]);
    expect(formValueProblems(form, {}, { requireAll: false })).toEqual([]);
    // A partial write checks only what it writes.
    expect(formValueProblems(form, { n: 0, t: 'x' }, { requireAll: false, only: ['t'] })).toEqual([
      { path: 't', message: 'does not match the pattern \\d{3}' },
    ]);
  });
});

describe('conditions see the form types', () => {
  it('maps each field type to its CEL type', () => {
    const { doc } = parseProcess({
      ruleChain: {
        id: 'p',
        name: 'P',
        additionalInfo: {
          form: {
            fields: [
              { name: 'a', type: 'money' },
              { name: 'b', type: 'multi-select', options: ['x'] },
              { name: 'c', type: 'user', multiple: true },
              { name: 'd', type: 'date' },
              { name: 'e', type: 'boolean' },
              { name: 'f', type: 'select', options: [1] },
              { name: 'g' },
            ],
          },
        },
      },
      metadata: { nodes: [] },
    });
    expect(formVariableTypes(doc!)).toEqual({ a: 'double', b: 'list', c: 'list', d: 'string', e: 'bool', f: 'dyn' });
  });

  it('an embedded form that breaks the schema is a problem of the document', () => {
    const { doc, problems } = parseProcess({
      ruleChain: { id: 'p', name: 'P', additionalInfo: { form: { fields: [{ name: 'a', type: 'colour' }] } } },
      metadata: { nodes: [] },
    });
    expect(doc).not.toBeNull();
    expect(problems.map((p) => p.field)).toEqual(['ruleChain.additionalInfo.form.fields[0].type']);
  });
});
