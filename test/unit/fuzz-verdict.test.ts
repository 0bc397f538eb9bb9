// `npm test` ends with the bounded fuzz pass (scripts/test.ts) and fails when it does; the pass
// fails on any server error and on any failure of positive_data_acceptance,
// negative_data_rejection or status_code_conformance (scripts/fuzz/verdict.ts, docs/fuzz.md).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_CHECKS, failPolicy, verdict, type PassOutcome } from '../../scripts/fuzz/verdict.js';

const root = path.resolve(import.meta.dirname, '../..');

const pass = (over: Partial<PassOutcome> = {}): PassOutcome => ({
  identity: 'admin',
  exitCode: 1,
  errors: [],
  toolErrors: [],
  operations: { tested: 154 },
  cases: { withFailures: 0 },
  failuresByCheck: {},
  serverErrors: [],
  ...over,
});

describe('the fuzz verdict', () => {
  it('npm test runs the bounded pass last and stops with its exit status', () => {
    const script = readFileSync(path.join(root, 'scripts/test.ts'), 'utf8');
    expect(script).toContain("['npm', ['run', 'fuzz', '--', '--quick']]");
    expect(script).toContain('if (status !== 0) process.exit(status)');
    // The bounded pass does not change the policy: without FUZZ_STRICT the contract checks count.
    expect(failPolicy({})).toEqual({ strict: false, contract: true });
  });

  it('fails on a server error', () => {
    expect(verdict([pass({ serverErrors: [{}] })], failPolicy({}), 1)).toHaveLength(1);
  });

  it.each(['positive_data_acceptance', 'negative_data_rejection', 'status_code_conformance'])(
    'fails on one case of %s',
    (check) => {
      expect(CONTRACT_CHECKS).toContain(check);
      const failed = verdict(
        [pass({ cases: { withFailures: 1 }, failuresByCheck: { [check]: { count: 1 } } })],
        failPolicy({}),
        0,
      );
      expect(failed.join()).toContain(check);
    },
  );

  it('reports other checks without failing, unless FUZZ_STRICT=1; FUZZ_STRICT=0 counts only 5xx', () => {
    const other = pass({ cases: { withFailures: 1 }, failuresByCheck: { missing_required_header: { count: 1 } } });
    expect(verdict([other], failPolicy({}), 0)).toEqual([]);
    expect(verdict([other], failPolicy({ FUZZ_STRICT: '1' }), 0)).toHaveLength(1);
    const contract = pass({ failuresByCheck: { negative_data_rejection: { count: 2 } } });
    expect(verdict([contract], failPolicy({ FUZZ_STRICT: '0' }), 0)).toEqual([]);
  });

  it('fails when a pass did not complete, tested nothing or timed out', () => {
    expect(verdict([pass({ exitCode: 2 })], failPolicy({}), 0)).toHaveLength(1);
    expect(verdict([pass({ operations: { tested: 0 } })], failPolicy({}), 0)).toHaveLength(1);
    expect(verdict([pass({ toolErrors: ['Request timed out'] })], failPolicy({}), 0)).toHaveLength(1);
  });
});
