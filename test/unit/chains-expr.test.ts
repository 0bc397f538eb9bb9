// RuleGo's expr subset (chains/expr.ts): what parses, what is refused at save, how it evaluates,
// plus the message helpers, `${...}` templates and routing that the chain-run workflow uses.
import { describe, expect, it } from 'vitest';
import {
  evalExpr,
  exprEnv,
  firstNodeIds,
  joinPredecessors,
  msgData,
  newMsg,
  nextNodeIds,
  nodeById,
  parseExpr,
  renderPlaceholders,
  renderValue,
  tryEvalExpr,
  withData,
  type ExprEnv,
  type RuleChainDsl,
  type RuleMsg,
} from '../../chains/index.js';

const msg: RuleMsg = newMsg({
  id: 'm1',
  ts: 1_700_000_000_000,
  type: 'TELEMETRY',
  data: { temperature: 60, name: 'Bob', tags: ['a', 'b'], nested: { x: 1, list: [{ v: 7 }] }, zero: 0, flag: false },
  metadata: { deviceType: 'sensor', count: 3 },
});
const env: ExprEnv = exprEnv(msg);

const run = (src: string, e: ExprEnv = env) => {
  const parsed = parseExpr(src);
  if (!parsed.ok) throw new Error(`${src}: ${parsed.error}`);
  return evalExpr(parsed.expr, e);
};

describe('parseExpr + evalExpr', () => {
  const cases: Array<[string, unknown]> = [
    // comparisons and arithmetic
    ['msg.temperature > 50', true],
    ['msg.temperature >= 60 && msg.temperature <= 60', true],
    ['msg.temperature < 50', false],
    ['msg.temperature == 60', true],
    ['msg.temperature != 60', false],
    ['msg.temperature + 1', 61],
    ['msg.temperature - 10 * 2', 40],
    ['msg.temperature / 8', 7.5],
    ['msg.temperature % 7', 4],
    ['2 ** 10', 1024],
    ['2 ^ 3', 8],
    ['-msg.temperature', -60],
    ['(1 + 2) * 3', 9],
    // logic, words included
    ['msg.temperature > 50 and metadata.deviceType == "sensor"', true],
    ['msg.temperature < 50 or msg.name == "Bob"', true],
    ['not (msg.temperature > 50)', false],
    ['!msg.flag', true],
    ['true && false || true', true],
    // strings
    ['msg.name contains "o"', true],
    ['msg.name startsWith "B"', true],
    ['msg.name endsWith "x"', false],
    ['msg.name matches "^B.b$"', true],
    ['msg.name not matches "^x"', true],
    ['msg.name not contains "z"', true],
    ['"Hello " + msg.name', 'Hello Bob'],
    ['\'single\' == "single"', true],
    // membership
    ['"a" in msg.tags', true],
    ['"z" in msg.tags', false],
    ['"z" not in msg.tags', true],
    ['"x" in msg.nested', true],
    ['"y" in msg.nested', false],
    ['msg.temperature in [50, 60, 70]', true],
    // field access
    ['msg["name"]', 'Bob'],
    ['msg.tags[0]', 'a'],
    ['msg.tags[-1]', 'b'],
    ['msg.nested.list[0].v', 7],
    ['msg.nested?.x', 1],
    ['metadata.deviceType', 'sensor'],
    ['metadata.count', '3'],
    ['msgType == "TELEMETRY" && type == msgType', true],
    ['dataType', 'JSON'],
    ['id', 'm1'],
    // missing paths are nil, never an error
    ['msg.missing', null],
    ['msg.missing.deeper[3].x', null],
    ['msg.tags[9]', null],
    ['metadata.none == nil', true],
    ['msg.missing == null', true],
    ['msg.missing ?? "fallback"', 'fallback'],
    ['msg.zero ?? 5', 0],
    ['msg.missing > 5', false],
    ['msg.missing contains "a"', false],
    ['!msg.missing', true],
    // ternary
    ['msg.temperature > 50 ? "hot" : "cold"', 'hot'],
    ['msg.missing ? 1 : 2', 2],
    // built-in functions
    ['len(msg.tags)', 2],
    ['len(msg.name)', 3],
    ['len(msg.nested)', 2],
    ['len(msg.missing)', 0],
    ['upper(msg.name)', 'BOB'],
    ['lower("ABC")', 'abc'],
    ['trim("  x  ")', 'x'],
    ['trim("__x__", "_")', 'x'],
    ['string(msg.temperature)', '60'],
    ['int("42")', 42],
    ['int(3.9)', 3],
    ['float("2.5")', 2.5],
    ['abs(-3)', 3],
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['floor(2.7) + ceil(2.1)', 5],
    // structural equality, literals
    ['[1, 2] == [1, 2]', true],
    ['msg.nested == msg.nested', true],
    ['"5" == 5', false],
    ['nil == null', true],
  ];
  it.each(cases)('%s → %j', (src, expected) => {
    expect(run(src)).toEqual(expected);
  });

  it('does not evaluate the right side of a short-circuit', () => {
    // 1 / 0 would throw: && and || stop before it.
    expect(run('false && 1 / 0 > 0')).toBe(false);
    expect(run('true || 1 / 0 > 0')).toBe(true);
  });

  const refused: Array<[string, RegExp]> = [
    ['', /empty/],
    ['   ', /empty/],
    ['a = 1', /Unexpected|not supported/],
    ['this', /this/],
    ['this.x', /this/],
    ['foo(1)', /function foo is not supported/],
    ['msg.name.toUpperCase()', /not supported/],
    ['a, b', /one expression/],
    ['a; b', /one expression/],
    ['a === b', /Expected|not supported/],
    ['a | b', /Unexpected|not supported|Expected/],
    ['~1', /Unexpected|not supported|Expected/],
    ['len()', /takes 1/],
    ['upper("a", "b")', /takes 1/],
    ['msg.name matches "(a"', /invalid pattern/],
    ['msg.name matches "a{1000}"', /repetition/],
    ['x ? 1', /Expected/],
    ['msg.temperature >', /Expected/],
    ['"unterminated', /Unclosed|Unterminated/i],
    ['x'.repeat(5000), /longer than/],
  ];
  it.each(refused)('refuses %j', (src, error) => {
    const parsed = parseExpr(src);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });

  const typeErrors: Array<[string, RegExp]> = [
    ['msg.name > 5', /mismatched|invalid operation/],
    ['msg.name + 1', /invalid operation/],
    ['msg.temperature && true', /boolean/],
    ['1 / 0', /division by zero/],
    ['5 % 0', /modulo by zero/],
    ['msg.temperature contains "6"', /strings/],
    ['"a" in "abc"', /array or a map/],
    ['int("x")', /invalid argument/],
    ['upper(1)', /invalid argument/],
    ['msg.name matches msg.tags[0] + "("', /invalid pattern/],
  ];
  it.each(typeErrors)('a type error in %j throws ExprError (tryEvalExpr answers it)', (src, error) => {
    expect(() => run(src)).toThrow(error);
    const parsed = parseExpr(src);
    if (!parsed.ok) throw new Error(parsed.error);
    const result = tryEvalExpr(parsed.expr, env);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  it('gives a JSON-safe compiled form that evaluates the same after a round trip', () => {
    const parsed = parseExpr('len(msg.tags) > 1 && msg.nested.list[0].v in [7, 8] ? upper(msg.name) : "no"');
    if (!parsed.ok) throw new Error(parsed.error);
    const copy = JSON.parse(JSON.stringify(parsed.expr)) as typeof parsed.expr;
    expect(evalExpr(copy, env)).toBe('BOB');
  });

  it('keeps prototype members out of reach', () => {
    expect(run('msg.constructor')).toBeNull();
    expect(run('msg["__proto__"]')).toBeNull();
    expect(run('msg.tags.length')).toBeNull();
    expect(run('toString')).toBeNull();
  });

  it('matches in linear time on a catastrophic pattern', () => {
    const started = Date.now();
    expect(run('msg.s matches "(a+)+$"', { msg: { s: 'a'.repeat(5000) + 'b' } })).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('messages and the expression environment', () => {
  it('exposes RuleGo names: id, ts, data, msg, metadata, msgType, type, dataType', () => {
    expect(Object.keys(env).sort()).toEqual(['data', 'dataType', 'id', 'metadata', 'msg', 'msgType', 'ts', 'type']);
    expect(env.data).toBe(msg.data);
    expect((env.msg as { temperature: number }).temperature).toBe(60);
  });

  it('leaves msg a string when dataType is TEXT or the JSON does not parse', () => {
    const text = newMsg({ id: 'x', ts: 0, type: 't', data: 'hello', dataType: 'TEXT' });
    expect(msgData(text)).toBe('hello');
    expect(exprEnv(text).msg).toBe('hello');
    expect(msgData({ ...text, dataType: 'JSON', data: '{not json' })).toBe('{not json');
  });

  it('newMsg writes objects as JSON text and metadata values as strings', () => {
    expect(msg.data).toBe(
      JSON.stringify({
        temperature: 60,
        name: 'Bob',
        tags: ['a', 'b'],
        nested: { x: 1, list: [{ v: 7 }] },
        zero: 0,
        flag: false,
      }),
    );
    expect(msg.metadata).toEqual({ deviceType: 'sensor', count: '3' });
    expect(newMsg({ id: 'a', ts: 1, type: 't' })).toEqual({
      id: 'a',
      ts: 1,
      type: 't',
      dataType: 'JSON',
      data: '',
      metadata: {},
    });
  });

  it('withData copies: objects become JSON, strings keep the dataType unless told', () => {
    const out = withData(msg, { a: 1 });
    expect(out).not.toBe(msg);
    expect(out.metadata).not.toBe(msg.metadata);
    expect([out.data, out.dataType]).toEqual(['{"a":1}', 'JSON']);
    const text = withData({ ...msg, dataType: 'TEXT' }, 'plain');
    expect([text.data, text.dataType]).toEqual(['plain', 'TEXT']);
    expect(withData(msg, 'x', 'TEXT').dataType).toBe('TEXT');
    expect(msg.data).toContain('temperature');
  });

  it('withMetadata puts metadata keys at the top level, never over a built-in', () => {
    const e = exprEnv(newMsg({ id: 'i', ts: 0, type: 't', data: {}, metadata: { token: 'abc', id: 'spoof' } }), {
      withMetadata: true,
    });
    expect(e.token).toBe('abc');
    expect(e.id).toBe('i');
  });
});

describe('${...} placeholders', () => {
  const e = exprEnv(msg, { withMetadata: true });
  const cases: Array<[string, string]> = [
    ['http://x/devices/${metadata.deviceType}/t', 'http://x/devices/sensor/t'],
    ['${msg.name}-${msg.temperature}', 'Bob-60'],
    ['${deviceType}', 'sensor'],
    ['missing=[${msg.none}]', 'missing=[]'],
    ['${msg.tags}', '["a","b"]'],
    ['${msg.temperature > 50 ? "hot" : "cold"}', 'hot'],
    ['no placeholders', 'no placeholders'],
    ['unclosed ${msg.name', 'unclosed ${msg.name'],
  ];
  it.each(cases)('%s → %s', (template, expected) => {
    expect(renderPlaceholders(template, e)).toBe(expected);
  });

  it('renderValue keeps the type of a whole placeholder and renders nested values', () => {
    expect(renderValue('${msg.tags}', e)).toEqual(['a', 'b']);
    expect(renderValue({ a: '${msg.temperature}', b: ['x${msg.name}'], c: 5 }, e)).toEqual({
      a: 60,
      b: ['xBob'],
      c: 5,
    });
  });

  it('throws on a placeholder that does not parse', () => {
    expect(() => renderPlaceholders('${msg.}', e)).toThrow(/msg\./);
  });
});

describe('routing', () => {
  const chain: RuleChainDsl = {
    ruleChain: { id: 'c', name: 'c' },
    metadata: {
      firstNodeIndex: 1,
      nodes: [
        { id: 'a', type: 'fork' },
        { id: 'b', type: 'exprFilter' },
        { id: 'c', type: 'log' },
        { id: 'd', type: 'log' },
        { id: 'j', type: 'join' },
      ],
      connections: [
        { fromId: 'b', toId: 'a', type: 'True' },
        { fromId: 'b', toId: 'c', type: 'False' },
        { fromId: 'a', toId: 'c', type: 'Success' },
        { fromId: 'a', toId: 'd', type: 'Success' },
        { fromId: 'a', toId: 'd', type: 'Success' },
        { fromId: 'a', toId: 'gone', type: 'Success' },
        { fromId: 'c', toId: 'j', type: 'Success' },
        { fromId: 'd', toId: 'j', type: 'Success' },
        { fromId: 'd', toId: 'j', type: 'Failure' },
      ],
    },
  };

  it('starts at firstNodeIndex (default 0) or at the given node', () => {
    expect(firstNodeIds(chain)).toEqual(['b']);
    expect(firstNodeIds({ ...chain, metadata: { ...chain.metadata, firstNodeIndex: undefined } })).toEqual(['a']);
    expect(firstNodeIds(chain, 'd')).toEqual(['d']);
    expect(firstNodeIds(chain, 'nope')).toEqual([]);
    expect(firstNodeIds({ ...chain, metadata: { nodes: [] } })).toEqual([]);
  });

  it('follows every connection of the relation, case-sensitively, each target once', () => {
    expect(nextNodeIds(chain, 'a', 'Success')).toEqual(['c', 'd']);
    expect(nextNodeIds(chain, 'b', 'True')).toEqual(['a']);
    expect(nextNodeIds(chain, 'b', 'true')).toEqual([]);
    expect(nextNodeIds(chain, 'c', 'Failure')).toEqual([]);
  });

  it("finds nodes and a join's predecessors", () => {
    expect(nodeById(chain, 'j')?.type).toBe('join');
    expect(nodeById(chain, 'zz')).toBeUndefined();
    expect(joinPredecessors(chain, 'j')).toEqual(['c', 'd']);
  });
});
