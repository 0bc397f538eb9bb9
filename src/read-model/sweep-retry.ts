// When the intent sweeper (projection-sweeper.ts) asks a workflow again after its query failed:
// soon at first, then less often, never later than one sweep interval — so once Temporal (or a
// worker) is back, every intent is written within one interval. Pure, apart from the small memory
// of failures one sweeper keeps.

export interface RetrySchedule {
  /** The first retry, after one failure (ms). */
  baseMs: number;
  /** No retry later than this (ms): the sweep interval. */
  capMs: number;
}

/** The delay before asking again after `failures` failed queries in a row (≥ 1): base · 2^(failures−1), at most the cap. */
export function retryDelayMs(failures: number, { baseMs, capMs }: RetrySchedule): number {
  const n = Math.max(1, Math.floor(failures));
  const cap = Math.max(1, capMs);
  // 2^31 already exceeds any cap; the exponent stops there so the product stays finite.
  return Math.min(cap, Math.max(1, baseMs) * 2 ** Math.min(n - 1, 31));
}

/**
 * An error that says Temporal itself did not answer (unreachable, or no answer in time: no worker
 * to run the query either): every other workflow's query would fail alike, so a sweep stops there
 * instead of waiting out each one's deadline.
 */
export function isTemporalUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    // gRPC status codes: 4 DEADLINE_EXCEEDED, 14 UNAVAILABLE.
    if (code === 4 || code === 14) return true;
    if (/\b(UNAVAILABLE|DEADLINE_EXCEEDED|ECONNREFUSED)\b/.test(String((e as { message?: unknown }).message ?? '')))
      return true;
  }
  return false;
}

/** Failed queries in a row, per intent, as one sweeper saw them (another sweeper starts afresh: it only retries sooner). */
export class RetryMemory {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly schedule: RetrySchedule,
    /** Forgets the oldest entries past this many (intents of workflows that never answer are given up anyway). */
    private readonly limit = 10_000,
  ) {}

  /** Counts one more failure of each intent; the delay before each is asked again. */
  failed(updateIds: string[]): Map<string, number> {
    const delays = new Map<string, number>();
    for (const id of updateIds) {
      const n = (this.failures.get(id) ?? 0) + 1;
      this.failures.delete(id);
      this.failures.set(id, n);
      delays.set(id, retryDelayMs(n, this.schedule));
    }
    while (this.failures.size > this.limit) this.failures.delete(this.failures.keys().next().value!);
    return delays;
  }

  /** The delay before intents are asked again without counting a failure of theirs (a sweep stopped before them). */
  pending(updateIds: string[]): Map<string, number> {
    return new Map(updateIds.map((id) => [id, retryDelayMs(this.failures.get(id) ?? 1, this.schedule)]));
  }

  /** The intents are settled (or answered): they start afresh if they ever fail again. */
  forget(updateIds: string[]) {
    for (const id of updateIds) this.failures.delete(id);
  }

  count(updateId: string): number {
    return this.failures.get(updateId) ?? 0;
  }
}
