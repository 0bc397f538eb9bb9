// `matches` on re2js (a port of RE2): linear in the text whatever the pattern, so a chain's regular
// expression cannot stall a workflow task with catastrophic backtracking ((a+)+$ on a long input).
// The same bounds as dsl/matches.ts (chains/ imports nothing outside itself).
import { RE2JS, RE2JSException } from 're2js';

export const MAX_PATTERN_LENGTH = 500;
export const MAX_TEXT_LENGTH = 10_000;
const MAX_PROGRAM_SIZE = 1_000;
const MAX_REPEAT = 100;

export class PatternError extends Error {
  override name = 'PatternError';
}

const cache = new Map<string, RE2JS>();

/** Compiles (and caches) a pattern, or throws PatternError naming what is wrong with it. */
export function compilePattern(pattern: string): RE2JS {
  let re = cache.get(pattern);
  if (re) return re;
  if (pattern.length > MAX_PATTERN_LENGTH)
    throw new PatternError(`invalid pattern: longer than ${MAX_PATTERN_LENGTH} characters`);
  for (const [, min, max] of pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g))
    if (Number(min) > MAX_REPEAT || Number(max || 0) > MAX_REPEAT)
      throw new PatternError(`invalid pattern: repetition above ${MAX_REPEAT}`);
  try {
    re = RE2JS.compile(pattern);
  } catch (e) {
    if (!(e instanceof RE2JSException)) throw e;
    throw new PatternError(e.message.replace(/^error parsing regexp: /, 'invalid pattern: '));
  }
  if (re.programSize() > MAX_PROGRAM_SIZE)
    throw new PatternError(`invalid pattern: too large (more than ${MAX_PROGRAM_SIZE} instructions)`);
  if (cache.size >= 200) cache.delete(cache.keys().next().value!);
  cache.set(pattern, re);
  return re;
}

/** Whether `pattern` matches anywhere in `text` (expr-lang's `matches`: Go's regexp, RE2 syntax). */
export function patternMatches(text: string, pattern: string): boolean {
  const re = compilePattern(pattern);
  if (text.length > MAX_TEXT_LENGTH) throw new PatternError(`matches: text longer than ${MAX_TEXT_LENGTH} characters`);
  return re.test(text);
}
