import { describe, expect, it } from 'vitest';
import { MAX_TEXT_LENGTH, regexMatches } from '../../../src/dsl/regex.js';

describe('regexMatches (linear-time matcher behind CEL matches)', () => {
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
    '\\x41\\u0042',
    'a+?b',
    '(?<year>\\d{4})-\\d{2}',
    '\\s\\S',
    '[]]',
    'a|',
  ];
  const texts = ['', 'abc', 'xabcx', 'AB-123', 'ab-12', 'me@host.io', 'color', 'colour', 'xx', 'xxxy', 'a word here', 'world', 'a-z', '3.14', 'AB', 'aaab', '2024-05', ' x', ']', 'foobaz', 'ababab'];

  it.each(patterns)('agrees with RegExp on %s', (pattern) => {
    for (const text of texts) {
      let expected: boolean;
      try {
        expected = new RegExp(pattern).test(text);
      } catch {
        continue;
      }
      expect([pattern, text, regexMatches(text, pattern)]).toEqual([pattern, text, expected]);
    }
  });

  it.each(['(a+)+$', '^(a|a)*$', '(a*)*b', '.*.*.*.*x', '(x+x+)+y'])('stays linear on the catastrophic pattern %s', (pattern) => {
    const text = 'a'.repeat(MAX_TEXT_LENGTH - 1) + '!';
    const started = performance.now();
    expect(regexMatches(text, pattern)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it.each([
    ['(a)\\1', 'backreferences are not supported'],
    ['a(?=b)', 'lookaround'],
    ['(?i)abc', 'lookaround and inline flags'],
    ['(ab', 'missing )'],
    ['[ab', 'missing ]'],
    ['*a', 'nothing to repeat'],
    ['a**', 'nothing to repeat'],
    ['[z-a]', 'out of order'],
    ['\\q', 'unsupported escape'],
    ['a{1000}', 'repetition above'],
    ['(a{100}){100}', 'too large'],
  ])('refuses %s', (pattern, message) => {
    expect(() => regexMatches('abc', pattern)).toThrow(message);
  });

  it('bounds the text length', () => {
    expect(() => regexMatches('a'.repeat(MAX_TEXT_LENGTH + 1), 'a')).toThrow('text longer than');
  });
});
