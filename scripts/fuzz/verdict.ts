// Whether a fuzz run fails (scripts/fuzz.ts; docs/fuzz.md "Exit status"). Its own module so a unit
// test (test/unit/fuzz-verdict.test.ts) can hold the rule: `npm test`'s bounded pass and the full
// run fail on any server error and on any failure of the three contract checks.

/** The checks that say the OpenAPI document and the server disagree: any failure fails the run. */
export const CONTRACT_CHECKS = ['positive_data_acceptance', 'negative_data_rejection', 'status_code_conformance'];

export interface FailPolicy {
  /** Every check fails the run (FUZZ_STRICT=1). */
  strict: boolean;
  /** The contract checks fail the run (unless FUZZ_STRICT=0). */
  contract: boolean;
}

/** The same for the full run and for `--quick`: only FUZZ_STRICT changes it. */
export const failPolicy = (env: Record<string, string | undefined>): FailPolicy => ({
  strict: env.FUZZ_STRICT === '1',
  contract: env.FUZZ_STRICT !== '0',
});

export interface PassOutcome {
  identity: string;
  exitCode: number | null;
  errors: string[];
  toolErrors: string[];
  operations: { tested: number };
  cases: { withFailures: number };
  failuresByCheck: Record<string, { count: number }>;
  serverErrors: unknown[];
}

/** Why the run fails; empty when it passes. */
export function verdict(passes: PassOutcome[], policy: FailPolicy, distinctCauses: number): string[] {
  const failed: string[] = [];
  const fiveXX = passes.reduce((n, p) => n + p.serverErrors.length, 0);
  if (fiveXX) failed.push(`${fiveXX} response(s) with a 5xx status (${distinctCauses} distinct)`);
  for (const p of passes) {
    if (p.exitCode !== 0 && p.exitCode !== 1)
      failed.push(`pass ${p.identity} did not complete (exit ${p.exitCode}): ${p.errors.join('; ').slice(0, 300)}`);
    else if (p.operations.tested === 0) failed.push(`pass ${p.identity} tested no operation`);
    const hangs = p.toolErrors.filter((e) => /time ?out|timed out|network|connection/i.test(e));
    if (hangs.length)
      failed.push(
        `pass ${p.identity}: requests timed out or lost their connection (${hangs.join('; ').slice(0, 200)})`,
      );
    if (policy.strict && p.cases.withFailures)
      failed.push(`pass ${p.identity}: ${p.cases.withFailures} case(s) failed a check (FUZZ_STRICT=1)`);
    else if (policy.contract) {
      const broken = CONTRACT_CHECKS.filter((check) => p.failuresByCheck[check]?.count);
      if (broken.length)
        failed.push(
          `pass ${p.identity}: the document and the server disagree — ${broken
            .map((check) => `${check} ${p.failuresByCheck[check].count} case(s)`)
            .join(', ')} (see summary.md; FUZZ_STRICT=0 reports them without failing)`,
        );
    }
  }
  return failed;
}
