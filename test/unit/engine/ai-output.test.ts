// The pure parts of the aiAgent node and of httpCall's GFlow output (docs/ai-review.md): reading the
// verdict as GFlow reads it, and putting an answer into the variables under GFlow's three rules.
import { describe, expect, it } from 'vitest';
import { extractVerdict, summaryOf } from '../../../workflows/engine/ai-verdict.js';
import { answerValue, extractJsonObject, mergeOutput, valueAtPath } from '../../../workflows/engine/output-merge.js';

describe('extractVerdict', () => {
  it.each([
    ['Fine.\nAI_DECISION: PASS', 'PASS'],
    ['Too expensive.\nAI_DECISION: REJECT.', 'REJECT'],
    ['ai_decision：approved', 'PASS'],
    ['AI_DECISION: DENIED', 'REJECT'],
    ['金额在预算内。\nAI_DECISION：通过', 'PASS'],
    ['裁决：驳回', 'REJECT'],
    ['裁决: 同意，理由充分', 'PASS'],
    // The last marker wins: a model that first repeats the protocol, then decides.
    ['AI_DECISION: PASS\n…on reflection…\nAI_DECISION: REJECT', 'REJECT'],
    // A repeated protocol text names both outcomes: no verdict.
    ['exactly AI_DECISION: PASS or AI_DECISION: REJECT', 'UNRESOLVED'],
    ['AI_DECISION: PASS or REJECT, I cannot say', 'UNRESOLVED'],
    ['I think it should pass.', 'UNRESOLVED'],
    ['通过', 'UNRESOLVED'],
    ['', 'UNRESOLVED'],
  ])('%j → %s', (text, verdict) => {
    expect(extractVerdict(text)).toBe(verdict);
  });

  it('a summary leaves out the marker lines and is cut at 500 characters', () => {
    expect(summaryOf('Within budget.\nAI_DECISION: PASS\n')).toBe('Within budget.');
    expect(summaryOf('x'.repeat(600))).toBe(`${'x'.repeat(500)}…`);
  });
});

describe('the GFlow output rules', () => {
  it('finds the JSON object in an answer: whole, fenced, amid prose; braces in strings do not count', () => {
    expect(extractJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(extractJsonObject('Here:\n```json\n{"a":{"b":"}"}}\n```\nAI_DECISION: PASS')).toEqual({ a: { b: '}' } });
    expect(extractJsonObject('{not json} then {"ok":true}')).toEqual({ ok: true });
    expect(extractJsonObject('[1,2]')).toBeNull();
    expect(extractJsonObject('no object')).toBeNull();
  });

  it('keeps an object as it is and anything else as text', () => {
    expect(answerValue({ a: 1 })).toEqual({ a: 1 });
    expect(answerValue('  OK  ')).toBe('OK');
    expect(answerValue([1, 2])).toBe('[1,2]');
    expect(answerValue(42)).toBe('42');
  });

  it('reads paths as GFlow (JSONPath $ prefix, array indexes) and this service did (body.)', () => {
    const v = { data: { score: 7 }, items: [{ name: 'x' }] };
    expect(valueAtPath(v, '$.data.score')).toBe(7);
    expect(valueAtPath(v, 'data.score')).toBe(7);
    expect(valueAtPath(v, 'items.0.name')).toBe('x');
    expect(valueAtPath(v, 'body.data.score')).toBe(7);
    expect(valueAtPath({ body: { a: 1 } }, 'body.a')).toBe(1);
    expect(valueAtPath(v, '$.missing.x')).toBeUndefined();
  });

  it('merges: the whole answer under the reserved key, flattened fields, mappings last; unsafe keys never', () => {
    const vars: Record<string, unknown> = { title: 'Trip', risk: 'unknown' };
    mergeOutput(vars, '{"risk":"low","__proto__":{"x":1},"n":{"v":2}}', {
      reservedKey: '_ai',
      flatten: true,
      mappings: [
        { from: '$.n.v', to: 'risk' },
        { from: 'nope', to: 'skipped' },
        { from: 'n', to: '__proto__' },
      ],
    });
    expect(Object.keys(vars).sort()).toEqual(['_ai', 'n', 'risk', 'title']);
    expect(vars).toMatchObject({ title: 'Trip', risk: 2, n: { v: 2 }, _ai: { risk: 'low', n: { v: 2 } } });
    expect(Object.getPrototypeOf(vars)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    const text: Record<string, unknown> = {};
    mergeOutput(text, 'plain words', { reservedKey: '_http', flatten: true, mappings: [{ from: 'a', to: 'b' }] });
    expect(text).toEqual({ _http: 'plain words' });
  });
});
