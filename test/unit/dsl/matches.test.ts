// CEL `matches` through the expression API: RE2 semantics (re2js), linear time, bounded patterns.
import { describe, expect, it } from 'vitest';
import { compileCondition, evaluateCondition, ExpressionError } from '../../../dsl/index.js';
import { MAX_PATTERN_LENGTH, MAX_TEXT_LENGTH } from '../../../dsl/matches.js';

const matches = (text: string, pattern: string) =>
  evaluateCondition('msg.t matches msg.p', { msg: { t: text, p: pattern }, metadata: {} });

describe('matches (RE2 behind CEL conditions)', () => {
  // Patterns whose meaning is the same in RE2 and in JavaScript.
  const patterns = [
    'abc',
    '^abc$',
    'a.c',
    '^[A-Z]{2}-\\d+$',
    '^\\w+@\\w+\\.\\w+$',
    '[^0-9]+',
    '(foo|bar)baz',
    '^(?:ab)*$',
    'colou?r',
    'x{2,3}',
    'x{2,}y',
    '\\bword\\b',
    '\\Bor\\B',
    '^$',
    '[a\\-z]',
    '[\\d.]+',
    '\\x41B',
    'a+?b',
    '(?<year>\\d{4})-\\d{2}',
    '\\s\\S',
    'a|',
  ];
  const texts = [
    '',
    'abc',
    'xabcx',
    'AB-123',
    'ab-12',
    'me@host.io',
    'color',
    'colour',
    'xx',
    'xxxy',
    'a word here',
    'world',
    'a-z',
    '3.14',
    'AB',
    'aaab',
    '2024-05',
    ' x',
    ']',
    'foobaz',
    'ababab',
  ];

  it.each(patterns)('agrees with RegExp on %s', (pattern) => {
    for (const text of texts) {
      expect([pattern, text, matches(text, pattern)]).toEqual([pattern, text, new RegExp(pattern).test(text)]);
    }
  });

  it.each([
    ['\\x{42}', 'ABC', true],
    ['(?P<y>\\d{4})', '2024', true],
    ['(?i)^abc$', 'ABC', true],
    ['^\\pL+$', 'été', true],
    ['^[[:alpha:]]+$', 'abc1', false],
    ['[]]', ']', true],
    ['\\s', '\u00a0', false], // RE2's \s is ASCII whitespace
  ])('follows RE2 syntax: %s on %j → %s', (pattern, text, expected) => {
    expect(matches(text, pattern)).toBe(expected);
  });

  it('works on literal patterns written in conditions', () => {
    const ctx = { msg: { code: 'AB-12' }, metadata: {} };
    expect(evaluateCondition("msg.code matches '^[A-Z]{2}-\\\\d+$'", ctx)).toBe(true);
    expect(evaluateCondition("msg.code matches '^[a-z]+$'", ctx)).toBe(false);
  });

  it.each(['(a+)+$', '^(a|a)*$', '(a*)*b', '.*.*.*.*x', '(x+x+)+y', '(?:[a-z]{100}){5}!'])(
    'stays linear on the catastrophic pattern %s',
    (pattern) => {
      const text = 'a'.repeat(MAX_TEXT_LENGTH - 1) + '!';
      const started = performance.now();
      expect(matches(text, pattern)).toBe(pattern.endsWith('!'));
      // A runaway guard, not a speed target: backtracking here would take astronomically long.
      expect(performance.now() - started).toBeLessThan(5000);
    },
  );

  it.each([
    ['(a)\\1', 'invalid escape sequence: `\\1`'], // no backreferences
    ['a(?=b)', 'invalid or unsupported Perl syntax: `(?=`'], // no lookaround
    ['(ab', 'missing closing ): `(ab`'],
    ['[ab', 'missing closing ]: `[ab`'],
    ['*a', 'missing argument to repetition operator'],
    ['a**', 'invalid nested repetition operator'],
    ['[z-a]', 'invalid character class range'],
    ['\\q', 'invalid escape sequence'],
    ['a{1000}', 'repetition above 100'],
    ['(a{100}){100}', 'invalid repeat count'],
    ['[a-z]{100}'.repeat(11), 'too large'],
    ['a'.repeat(MAX_PATTERN_LENGTH + 1), `longer than ${MAX_PATTERN_LENGTH} characters`],
  ])('refuses %s at deploy and at run time', (pattern, message) => {
    const literal = `msg.t matches '${pattern.replace(/\\/g, '\\\\')}'`;
    expect(compileCondition(literal)).toEqual({
      ok: false,
      error: expect.stringContaining(`invalid pattern: ${message}`),
    });
    expect(() => matches('abc', pattern)).toThrow(ExpressionError);
    expect(() => matches('abc', pattern)).toThrow(`invalid pattern: ${message}`);
  });

  it('bounds the text length', () => {
    expect(matches('a'.repeat(MAX_TEXT_LENGTH), '^a+$')).toBe(true);
    expect(() => matches('a'.repeat(MAX_TEXT_LENGTH + 1), 'a')).toThrow('text longer than');
  });
});
