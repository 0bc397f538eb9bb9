import { describe, expect, it } from 'vitest';
import {
  compileCondition,
  evaluateCondition,
  ExpressionError,
  renderTemplate,
  resolveTemplateValue,
  templateProblems,
  translateExpression,
  validateConditions,
  validateExpressions,
  parseProcess,
} from '../../../dsl/index.js';

describe('translateExpression (GFlow expr forms → CEL)', () => {
  it.each([
    ['msg.days <= 3', 'msg.days <= 3'],
    ["msg.type == 'A' && msg.amount > 100", "msg.type == 'A' && msg.amount > 100"],
    ["msg.type == 'A' and msg.amount > 100", "msg.type == 'A' && msg.amount > 100"],
    ['msg.a or msg.b', 'msg.a || msg.b'],
    ['msg.a || msg.b', 'msg.a || msg.b'],
    ['not msg.urgent', '!msg.urgent'],
    ['not (msg.a and msg.b)', '!(msg.a && msg.b)'],
    ['!msg.urgent', '!msg.urgent'],
    ['msg.amount * 2 + 1 > msg.limit - 3 / 4 % 5', 'msg.amount * 2 + 1 > msg.limit - 3 / 4 % 5'],
    ["msg.dept in ['IT','HR']", "msg.dept in ['IT','HR']"],
    ["msg.dept not in ['IT','HR']", "!(msg.dept in ['IT','HR'])"],
    ["msg.title contains 'x'", "msg.title.contains('x')"],
    ["msg.title startsWith 'Re:'", "msg.title.startsWith('Re:')"],
    ["msg.title endsWith '.pdf'", "msg.title.endsWith('.pdf')"],
    ["msg.code matches '^[A-Z]{2}-[0-9]+$'", "msg.code.matches('^[A-Z]{2}-[0-9]+$')"],
    ["msg.title not contains 'draft'", "!msg.title.contains('draft')"],
    ["msg.a + msg.b contains 'x'", "(msg.a + msg.b).contains('x')"],
    ["msg.title contains 'x' and msg.n > 1", "msg.title.contains('x') && msg.n > 1"],
    ["(msg.title contains 'x') or msg.ok", "(msg.title.contains('x')) || msg.ok"],
    ["msg.user.name startsWith msg.prefix + '-'", "msg.user.name.startsWith(msg.prefix + '-')"],
    ['len(msg.items) > 2', 'size(msg.items) > 2'],
    ['msg.x == nil', 'msg.x == null'],
    ['msg.x != null', 'msg.x != null'],
    ["msg.days > 3 ? 'long' : 'short'", "msg.days > 3 ? 'long' : 'short'"],
    ['"double" == msg.s', '"double" == msg.s'],
    // words inside strings and member names are left alone
    ["msg.note == 'a and b or not c contains d'", "msg.note == 'a and b or not c contains d'"],
    ['msg.note == "it\'s nil"', 'msg.note == "it\'s nil"'],
    ["msg.note == 'it\\'s and'", "msg.note == 'it\\'s and'"],
    ['msg.and == msg.or', 'msg.and == msg.or'],
    ['msg.len(1)', 'msg.len(1)'],
  ])('%s', (source, cel) => {
    expect(translateExpression(source)).toBe(cel);
  });

  it('rejects an infix operator without operands and unterminated strings', () => {
    expect(() => translateExpression('msg.a contains')).toThrow('"contains" needs a right operand');
    expect(() => translateExpression("msg.a == 'x")).toThrow('unterminated string literal');
    expect(() => translateExpression('('.repeat(40) + '1' + ')'.repeat(40))).toThrow('nests deeper');
  });
});

describe('evaluateCondition', () => {
  const ctx = {
    msg: {
      days: 2,
      half: 2.5,
      amount: 150,
      type: 'A',
      dept: 'IT',
      urgent: false,
      title: 'Re: laptop order',
      code: 'AB-123',
      items: [1, 2, 3],
      empty: null,
      user: { name: 'alice' },
      lines: [{ amount: 50 }, { amount: 120.5 }],
      constructor: 'own key', // plain data, as a JSON field named "constructor" would be
    },
    metadata: { owner: 'alice', process_key: 'leave' },
  };

  it.each([
    ['msg.days <= 3', true],
    ['msg.half <= 3', true],
    ['msg.half > 2', true],
    ['msg.days == 2', true],
    ['msg.days + 1 == 3', true],
    ['msg.half * 2 == 5', true],
    ['msg.amount / 2 > 70', true],
    ['msg.amount % 2 == 0', true],
    ['msg.days - 0.5 < 2', true],
    ['1 == 1.0', true],
    ["msg.type == 'A' && msg.amount > 100", true],
    ["msg.type == 'B' or msg.amount > 1000", false],
    ["msg.dept in ['IT','HR']", true],
    ["msg.dept not in ['IT','HR']", false],
    ['not msg.urgent', true],
    ["msg.title contains 'laptop'", true],
    ["msg.title startsWith 'Re:'", true],
    ["msg.title endsWith 'order'", true],
    ["msg.code matches '^[A-Z]{2}-\\\\d+$'", true],
    ["msg.code matches '^[a-z]+$'", false],
    ['len(msg.items) > 2', true],
    ['2 in msg.items', true],
    ['msg.empty == nil', true],
    ["msg.days > 3 ? msg.urgent : msg.type == 'A'", true],
    ["metadata.owner == 'alice'", true],
    ['msg.user.name == metadata.owner', true],
    ['has(msg.missing)', false],
    ['msg.items.exists(i, i > 2)', true],
    ['msg.lines.exists(l, l.amount > 100)', true],
    ['msg.lines.all(l, l.amount > 100)', false],
    ["msg.constructor == 'own key'", true],
    ["msg == {'days': 2}", false],
  ])('%s → %s', (source, expected) => {
    expect(evaluateCondition(source, ctx)).toBe(expected);
  });

  it.each([
    ['No such key: missing', 'msg.missing > 1'],
    ['returned a double, not a boolean', 'msg.days'],
    ['no such overload', 'msg.type + 1 == 2'],
    ['failed: Unexpected token: EOF', 'msg.days <='],
    ['Unknown variable: unknownVar', 'unknownVar == 1'],
    ['invalid pattern: missing closing ): `(a`', "msg.code matches '(a'"],
    ['expression is empty', ''],
    ['longer than 2000 characters', 'msg.a || '.repeat(250) + 'true'],
  ])('throws ExpressionError: %s', (message, source) => {
    let error: unknown;
    try {
      evaluateCondition(source, ctx);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExpressionError);
    expect((error as ExpressionError).message).toContain(message);
    expect((error as ExpressionError).expression).toBe(source);
  });

  it('refuses variables it reads that are not plain JSON data or too large', () => {
    const call = (source: string, msg: Record<string, unknown>) => () =>
      evaluateCondition(source, { msg, metadata: {} });
    expect(call('msg.f == null', { f: () => 1 })).toThrow(ExpressionError);
    expect(call('has(msg.m)', { m: new Map() })).toThrow('msg.m holds an unsupported value');
    expect(call('size(msg.list) > 0', { list: new Array(5001).fill(0) })).toThrow(
      'msg.list has more than 5000 elements',
    );
    expect(call("msg.s == ''", { s: 'x'.repeat(100_001) })).toThrow('more than 100000 characters');
    expect(call('size(msg) > 0', { big: new Array(5001).fill(0) })).toThrow('msg.big has more than 5000 elements');
  });

  it('ignores variables it does not read', () => {
    expect(
      evaluateCondition('msg.days == 2', {
        msg: { days: 2, big: new Array(100_000).fill('x'), f: () => 1 },
        metadata: {},
      }),
    ).toBe(true);
  });
});

describe('compileCondition', () => {
  it('accepts the documented subset (docs/dsl.md#expressions-and-templates)', () => {
    for (const source of [
      'msg.days <= 3',
      "msg.dept in ['IT','HR']",
      "msg.title contains 'x'",
      'len(msg.items) > 2',
      'not msg.urgent',
      'msg.x == nil',
    ]) {
      expect(compileCondition(source)).toEqual({ ok: true });
    }
  });

  it('uses declared form types', () => {
    const form = { days: 'number', reason: 'string', urgent: 'boolean' };
    expect(compileCondition("msg.days == 'x'", form)).toEqual({
      ok: false,
      error: 'no such overload: double == string',
    });
    expect(compileCondition('msg.days <= 3 && msg.days != null', form)).toEqual({ ok: true });
    expect(compileCondition("msg.reason contains 'x' && !msg.urgent", form)).toEqual({ ok: true });
    expect(compileCondition('msg.reason > 3', form)).toMatchObject({ ok: false });
    expect(compileCondition("msg.undeclared == 'x'", form)).toEqual({ ok: true }); // not on the form: dynamic
    expect(compileCondition('msg.days + 1', form)).toEqual({
      ok: false,
      error: 'condition must be a boolean, not double',
    });
    expect(compileCondition("metadata.owner == 'x'", form)).toEqual({ ok: true });
    expect(compileCondition("size(msg) > 1 && 'days' in msg", form)).toEqual({ ok: true });
  });

  it('holds comprehensions and additions to the run-time bounds', () => {
    expect(compileCondition('msg.lines.exists(l, l.amount > 100 && l.kind in ["a", "b"])')).toEqual({ ok: true });
    expect(compileCondition('[1, 2].all(x, x > 0)')).toEqual({ ok: true });
    expect(compileCondition('msg.a.exists(x, x.b.exists(y, y == 1))')).toEqual({
      ok: false,
      error: '"exists" inside another comprehension is not allowed',
    });
    expect(compileCondition('msg.lines.exists(l, l.amount > msg.limit)')).toEqual({
      ok: false,
      error: 'inside exists(...) only the loop variable and literals can be used, not msg',
    });
    expect(compileCondition('(msg.a + msg.b).exists(x, x > 1)')).toMatchObject({
      ok: false,
      error: expect.stringContaining('must be applied to a variable'),
    });
    expect(compileCondition('cel.bind(x, msg.a, x > 1)')).toEqual({ ok: false, error: 'cel.bind is not supported' });
    const sum = (n: number) => `size(${Array(n).fill('msg.s').join(' + ')}) > 0`;
    expect(compileCondition(sum(17))).toEqual({ ok: true }); // 16 additions
    expect(compileCondition(sum(18))).toMatchObject({
      ok: false,
      error: expect.stringContaining('more than 16 additions'),
    });
    expect(compileCondition(`${Array(40).fill('double(msg.n)').join(' + ')} > 0.0`)).toEqual({ ok: true }); // numbers do not grow
  });

  it('refuses bad literal patterns', () => {
    expect(compileCondition("msg.s matches '(a|b'")).toMatchObject({
      ok: false,
      error: expect.stringContaining('missing closing )'),
    });
    expect(compileCondition("msg.s matches '(a)\\\\1'")).toMatchObject({
      ok: false,
      error: expect.stringContaining('invalid escape sequence: `\\1`'),
    });
  });
});

describe('validateConditions / validateExpressions', () => {
  it('answers one result per case with 1-based case indexes', () => {
    const { doc } = parseProcess({
      ruleChain: { id: 'p', name: 'P', additionalInfo: { form: { fields: [{ name: 'days', type: 'number' }] } } },
      metadata: {
        nodes: [
          {
            id: 'sw',
            type: 'switch',
            configuration: {
              cases: [
                { case: 'msg.days <= 3', then: 'a' },
                { case: "msg.days == 'x'", then: 'b' },
              ],
            },
          },
          { id: 'end', type: 'end' },
        ],
        connections: [],
      },
    });
    expect(validateConditions(doc!)).toEqual({
      valid: false,
      results: [
        { nodeId: 'sw', caseIndex: 1, expression: 'msg.days <= 3', valid: true, error: null },
        {
          nodeId: 'sw',
          caseIndex: 2,
          expression: "msg.days == 'x'",
          valid: false,
          error: 'no such overload: double == string',
        },
      ],
    });
  });

  it('answers one result per expression with 0-based indexes', () => {
    const result = validateExpressions(['msg.a > 1', 'msg.a >']);
    expect(result.valid).toBe(false);
    expect(result.results[0]).toEqual({ index: 0, expression: 'msg.a > 1', valid: true, error: null });
    expect(result.results[1]).toMatchObject({
      index: 1,
      expression: 'msg.a >',
      valid: false,
      error: expect.any(String),
    });
  });
});

describe('templates', () => {
  const ctx = {
    msg: { name: 'Ann', n: 3, approvers: ['bob', 'erin'], o: { k: 'v' } },
    metadata: { instance_id: 'i-1' },
  };

  it('renders placeholders, missing ones as empty strings', () => {
    expect(renderTemplate('Hello ${msg.name} (${metadata.instance_id}) ${msg.missing}!', ctx)).toBe(
      'Hello Ann (i-1) !',
    );
    expect(renderTemplate('${msg.n}/${msg.approvers}/${msg.o.k}', ctx)).toBe('3/["bob","erin"]/v');
    expect(renderTemplate('${ msg.name }', ctx)).toBe('Ann');
  });

  it('resolves a whole-string placeholder to its raw value', () => {
    expect(resolveTemplateValue('${msg.approvers}', ctx)).toEqual(['bob', 'erin']);
    expect(resolveTemplateValue('${msg.n}', ctx)).toBe(3);
    expect(resolveTemplateValue('${msg.missing}', ctx)).toBeUndefined();
    expect(resolveTemplateValue('n=${msg.n}', ctx)).toBe('n=3');
  });

  it('never reaches prototypes', () => {
    for (const path of [
      'msg.constructor',
      'msg.__proto__',
      'msg.toString',
      'msg.o.constructor.prototype',
      'msg.approvers.length',
    ]) {
      expect(resolveTemplateValue(`\${${path}}`, ctx)).toBeUndefined();
    }
    expect(renderTemplate('${msg.constructor}', ctx)).toBe('');
  });

  it('reports bad placeholders', () => {
    expect(templateProblems('${msg.a} ${metadata.b}')).toEqual([]);
    expect(templateProblems('${process.env}')).toEqual(['"${process.env}" must name msg.<variable> or metadata.<key>']);
    expect(templateProblems('x ${msg.a')).toEqual(['has an unclosed "${"']);
  });
});
