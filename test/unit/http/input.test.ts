import { describe, expect, it } from 'vitest';
import { acceptableString, inspectJson, MAX_JSON_DEPTH } from '../../../src/input-rules.js';
import { TimestampQuery } from '../../../src/shapes.js';
import { hasDotSegment } from '../../../src/http/input.js';

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 ? { a: v } : [v];
  return v;
}

describe('acceptableString', () => {
  it('refuses NUL and unpaired surrogates, keeps paired ones', () => {
    expect(acceptableString('plain text, ünïcödé')).toBe(true);
    expect(acceptableString('emoji \u{1F600}')).toBe(true);
    expect(acceptableString('a\u0000b')).toBe(false);
    expect(acceptableString('\uD800')).toBe(false);
    expect(acceptableString('x\uDC00y')).toBe(false);
    expect(acceptableString('\uDC00\uD800')).toBe(false);
  });
});

describe('inspectJson', () => {
  it('names the field of a refused string or key', () => {
    expect(inspectJson({ variables: { note: 'a\u0000' } })?.path).toBe('variables.note');
    expect(inspectJson({ list: ['ok', '\uD83D'] })?.path).toBe('list.1');
    expect(inspectJson({ variables: { 'k\u0000': 1 } })?.path).toBe('variables."k\\u0000"');
    expect(inspectJson({ fine: [1, true, null, 'x'] })).toBeNull();
  });

  it('bounds the depth without recursion, even for hostile depths', () => {
    expect(inspectJson(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(inspectJson(nested(MAX_JSON_DEPTH + 1))?.message).toMatch(/deeper than 32/);
    const t0 = performance.now();
    expect(inspectJson(nested(200_000))).not.toBeNull();
    expect(performance.now() - t0).toBeLessThan(5000); // a runaway guard, generous for a loaded machine
  });
});

describe('TimestampQuery', () => {
  it('normalises to UTC and refuses what PostgreSQL would not take', () => {
    expect(TimestampQuery.parse('2026-01-01T00:00:00+16:00')).toBe('2025-12-31T08:00:00.000Z');
    expect(TimestampQuery.parse('2026-01-01T10:00:00Z')).toBe('2026-01-01T10:00:00.000Z');
    expect(TimestampQuery.safeParse('0001-01-01T00:00:00+01:00').success).toBe(false);
    expect(TimestampQuery.safeParse('9999-12-31T23:00:00-05:00').success).toBe(false);
    expect(TimestampQuery.safeParse('2026-13-01T00:00:00Z').success).toBe(false);
    expect(TimestampQuery.safeParse('yesterday').success).toBe(false);
  });
});

describe('hasDotSegment', () => {
  it('finds . and .. segments, also percent-encoded, in origin and absolute form; not dots inside a segment', () => {
    for (const target of [
      '/api/v1/workflow/tasks/./delegate',
      '/api/v1/workflow/tasks/../delegate',
      '/api/v1/users/%2E',
      '/api/v1/users/.%2e/roles',
      '/api/v1/users/..?x=1',
      'http://host:8080/api/v1/users/./x',
    ])
      expect(hasDotSegment(target), target).toBe(true);
    for (const target of [
      '/api/v1/users/u.1',
      '/api/v1/users/...',
      '/api/v1/users/%2e%2e%2e',
      '/api/v1/users/x?path=/./',
      '/api/v1/users/x#/../',
      'http://a.b/api/v1/users',
    ])
      expect(hasDotSegment(target), target).toBe(false);
  });
});
