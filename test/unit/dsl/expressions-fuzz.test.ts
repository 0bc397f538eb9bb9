// Property test: arbitrary condition text never reaches prototypes or globals, never throws
// anything but ExpressionError, and every evaluation finishes quickly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileCondition, evaluateCondition, ExpressionError } from '../../../dsl/index.js';

/** Small deterministic PRNG (mulberry32) so failures reproduce. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE = [
  'constructor',
  '__proto__',
  'prototype',
  'this',
  'globalThis',
  'process',
  'require',
  'import',
  'eval',
  'Function',
  'window',
  'toString',
  'valueOf',
  '__defineGetter__',
  'hasOwnProperty',
];
const VOCABULARY = [
  ...HOSTILE,
  'msg',
  'metadata',
  '.',
  '.',
  '.',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  '?',
  '&&',
  '||',
  '!',
  'not',
  'and',
  'or',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  'in',
  'contains',
  'startsWith',
  'endsWith',
  'matches',
  'len',
  'size',
  'has',
  'dyn',
  'type',
  'int',
  'double',
  'string',
  'map',
  'filter',
  'all',
  'exists',
  'exists_one',
  'cel',
  'bind',
  'nil',
  'null',
  'true',
  'false',
  '0',
  '1',
  '2.5',
  '-1',
  '1e308',
  '0x10',
  "'x'",
  '"y"',
  "'(a+)+$'",
  "'.*.*.*x'",
  "'\\\\'",
  'days',
  'items',
  's',
  'user',
  'x',
  '`',
  '$',
  '${',
  ';',
  '=',
  '=>',
  '\\',
  "'",
  '"',
  '"""',
  'b"\\xff"',
  'r"\\d"',
];

function randomExpression(rand: () => number): string {
  const length = 1 + Math.floor(rand() * 30);
  let out = '';
  for (let i = 0; i < length; i++) {
    out += VOCABULARY[Math.floor(rand() * VOCABULARY.length)] + (rand() < 0.5 ? ' ' : '');
  }
  return out;
}

/** Mostly well-formed conditions, so that evaluation (not just parsing) is exercised. */
function plausibleExpression(rand: () => number): string {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)];
  const operand = () =>
    pick([
      'msg.days',
      'msg.half',
      'msg.s',
      'msg.items',
      'msg.user.name',
      'metadata.owner',
      "msg['__proto__']",
      'msg.constructor',
      '1',
      '2.5',
      "'x'",
      'null',
      'true',
      '[1, 2]',
      'msg.deep',
    ]);
  const comparison = () =>
    `${operand()} ${pick(['==', '!=', '<', '>=', 'in', 'contains', 'matches', 'startsWith', '+', '*'])} ${operand()}`;
  let expr = comparison();
  for (let i = Math.floor(rand() * 4); i > 0; i--)
    expr = `${pick(['', 'not ', '!'])}(${expr}) ${pick(['&&', '||', 'and', 'or'])} ${comparison()}`;
  return expr;
}

const LONG_INPUTS = [
  '('.repeat(10_000) + ')'.repeat(10_000),
  '('.repeat(900) + 'true' + ')'.repeat(900),
  '!'.repeat(1999) + 'true',
  '-'.repeat(1990) + '1 > 0',
  "'" + 'a'.repeat(100_000) + "' == msg.s",
  'msg' + '.a'.repeat(995),
  '['.repeat(500),
  '[' + '1,'.repeat(990) + '1] == []',
  'msg.items' + '.map(x, x)'.repeat(180) + '.size() > 0',
  'msg.items.map(a, msg.items.map(b, msg.items.map(c, 1)))',
  'cel.bind(a, msg.s + msg.s, cel.bind(b, a + a, cel.bind(c, b + b, size(c) > 0)))',
  'size(' + Array(16).fill('msg.items').join(' + ') + ') > 0',
  'size(' + Array(160).fill('msg.items').join('+') + ') > 0',
  'msg.items.map(x, msg.items + msg.items).size() > 0',
  'msg.items.exists(x, ' + Array(50).fill('x in [1, 2, 3]').join(' && ') + ' && false)',
  "msg.s.split('').size() > 0 && msg.s.contains(msg.s) && msg.s.indexOf('!') > 0",
  'size(msg.items.filter(x, x % 7 == 0).map(x, x * 2)) > 0',
  "msg.s matches '(a+)+$' && msg.s matches '^(a|a)*$' && msg.s matches '.*.*.*.*x'",
  "msg.constructor.constructor('return process')()",
  "msg['constructor']['constructor']('return this')()",
  'type(msg).constructor',
  'dyn(msg).__proto__.polluted == 1',
  '{}.constructor == null',
  "'x'.constructor",
  'msg.items.map(x, x.constructor).size() > 0',
  'has(msg.__proto__)',
  'globalThis.process.exit(1)',
  'this.constructor',
  "require('fs')",
  "import('fs')",
  'eval("1")',
  'Function("return 1")()',
];

const hostileContext = () => ({
  msg: {
    ...JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}'),
    days: 2,
    half: 2.5,
    s: 'a'.repeat(9_999) + '!',
    items: Array.from({ length: 5_000 }, (_, i) => i),
    user: { name: 'alice' },
    deep: JSON.parse('['.repeat(60) + ']'.repeat(60)),
  },
  metadata: { owner: 'alice' },
});

const snapshot = () => ({
  object: Object.getOwnPropertyNames(Object.prototype).sort(),
  array: Object.getOwnPropertyNames(Array.prototype).sort(),
  function: Object.getOwnPropertyNames(Function.prototype).sort(),
  string: Object.getOwnPropertyNames(String.prototype).sort(),
  global: Object.getOwnPropertyNames(globalThis).sort(),
});

// A runaway guard, not a speed target (those live in the bench): catastrophic backtracking or an
// unbounded macro takes seconds to minutes, while a loaded 2-core CI machine can make a normal case
// take a few hundred milliseconds.
const RUNAWAY_MS = 3_000;

describe('expression fuzzing', () => {
  let before: ReturnType<typeof snapshot>;
  let slowest = { ms: 0, expression: '' };
  beforeAll(() => {
    before = snapshot();
  });
  afterAll(() => {
    expect(snapshot()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(slowest.ms).toBeLessThan(RUNAWAY_MS);
  });

  /** Evaluates and returns the outcome; anything but a boolean or an ExpressionError fails. */
  function outcome(expression: string, ctx = hostileContext()): boolean | ExpressionError {
    const started = performance.now();
    let result: boolean | ExpressionError;
    try {
      result = evaluateCondition(expression, ctx);
      expect(typeof result).toBe('boolean');
    } catch (e) {
      if (!(e instanceof ExpressionError))
        throw new Error(`non-ExpressionError for ${JSON.stringify(expression)}: ${String(e)}`, { cause: e });
      result = e;
    }
    const ms = performance.now() - started;
    if (ms > slowest.ms) slowest = { ms, expression: expression.slice(0, 80) };
    expect(ms, expression.slice(0, 80)).toBeLessThan(RUNAWAY_MS);
    const compiled = compileCondition(expression, { days: 'number', s: 'string' });
    expect(typeof compiled.ok).toBe('boolean');
    return result;
  }

  it('survives 3000 random token strings (seed 20240611)', () => {
    const rand = prng(20240611);
    const ctx = hostileContext();
    for (let i = 0; i < 3000; i++) outcome(randomExpression(rand), ctx);
  });

  it('survives 2000 plausible conditions (seed 7)', () => {
    const rand = prng(7);
    const ctx = hostileContext();
    let evaluated = 0;
    for (let i = 0; i < 2000; i++) if (typeof outcome(plausibleExpression(rand), ctx) === 'boolean') evaluated++;
    expect(evaluated).toBeGreaterThan(100); // the generator really reaches evaluation
  });

  it.each(LONG_INPUTS.map((e) => [e.slice(0, 60), e]))('bounds %s', (_, expression) => {
    outcome(expression);
  });

  it('never exposes a prototype member as a value', () => {
    // (__proto__ and constructor are own keys of this context, see below)
    for (const name of HOSTILE.filter((n) => !['__proto__', 'constructor'].includes(n))) {
      expect(outcome(`has(msg.${name})`), name).not.toBe(true);
      expect(outcome(`msg.${name} == null`), name).toBeInstanceOf(ExpressionError);
    }
    // own keys parsed from JSON are plain data, never the real prototype
    expect(outcome("msg['__proto__'].polluted == true")).toBe(true);
    expect(outcome('msg.constructor.prototype.polluted == true')).toBe(true);
    expect(outcome('metadata.constructor == null')).toBeInstanceOf(ExpressionError);
  });
});
