// Validation problems carry a stable code and parameters besides their message (dsl/problems.ts):
// a client renders any problem from code + params alone.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileProcess, messageOf, PROBLEM_CODES, type Problem } from '../../../dsl/index.js';

const examples = ['leave-request', 'expense-claim', 'purchase-legacy-keys'].map((name) =>
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../examples', `${name}.json`), 'utf8')),
);

// A seeded walk of small breakages over the examples: wrong types, missing and unknown keys.
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
const values = [
  null,
  0,
  -1,
  '',
  'x',
  '${bad',
  '${foo}',
  true,
  [],
  {},
  ['a'],
  'msg.amount >',
  'toNode',
  'vote',
  'system',
];
const keys = ['type', 'approver', 'levels', 'approveMode', 'voteRule', 'reject', 'cases', 'delayMs', 'url', 'formType'];
function breakSome(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (random() < 0.15 ? breakSome(x) : x));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      const r = random();
      if (r < 0.03) continue;
      out[k] = r < 0.08 ? pick(values) : random() < 0.5 ? breakSome(x) : x;
    }
    if (random() < 0.05) out[pick(keys)] = pick(values);
    return out;
  }
  return random() < 0.1 ? pick(values) : v;
}

function problemsOf(doc: unknown): Problem[] {
  const result = compileProcess(doc, { functions: ['setVariables'] });
  return result.ok ? [] : result.problems;
}

describe('problem codes', () => {
  const found = Array.from({ length: 400 }, () => problemsOf(breakSome(structuredClone(pick(examples))))).flat();

  it('every problem has a catalogued code and parameters its message is made from', () => {
    expect(found.length).toBeGreaterThan(100);
    for (const p of found) {
      expect(PROBLEM_CODES).toContain(p.code);
      expect(typeof p.params).toBe('object');
      // A schema's issue keeps the schema's words; its params name the issue.
      if (p.code === 'value.invalid' || p.code === 'form.invalid') expect(typeof p.params.issue).toBe('string');
      else expect(messageOf(p.code, p.params)).toBe(p.message);
    }
    expect(new Set(found.map((p) => p.code)).size).toBeGreaterThan(15);
  });

  it('parameters are plain JSON', () => {
    for (const p of found) expect(JSON.parse(JSON.stringify(p.params))).toEqual(p.params);
  });

  it('names the problem the designer shows for common mistakes', () => {
    const doc = structuredClone(examples[1]);
    doc.metadata.nodes.find((n: { id: string }) => n.id === 'size').configuration.cases[0].case = 'msg.amount >';
    doc.metadata.nodes.push({ id: 'lost', type: 'userTask', configuration: { approver: { type: 'role' } } });
    const codes = problemsOf(doc).map((p) => [p.nodeId, p.field, p.code]);
    expect(codes).toEqual(
      expect.arrayContaining([
        ['size', 'configuration.cases[0].case', 'condition.invalid'],
        ['lost', 'configuration.approver.roleIds', 'approver.idsRequired'],
        ['lost', 'connections', 'graph.unreachable'],
        ['lost', 'connections', 'graph.noWayToEnd'],
      ]),
    );
    const ids = problemsOf(doc).find((p) => p.code === 'approver.idsRequired')!;
    expect(ids.params).toEqual({ type: 'role', list: 'roleIds' });
  });
});
