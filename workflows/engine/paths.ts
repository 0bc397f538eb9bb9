// Which paths of an instance run and which wait. The instance is quiet — so Updates answer, the
// projection writes and continue-as-new may come — only when no path runs and none is about to wake.

import { condition } from '@temporalio/workflow';

/** Thrown inside a path when the instance ended under it; unwinds that path quietly. */
export class Halt extends Error {
  constructor() {
    super('instance ended');
    this.name = 'Halt';
  }
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** A promise's outcome as a value, so the code after a wait runs whether it resolved or failed. */
const settleOf = <T>(promise: Promise<T>): Promise<Settled<T>> =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

export class Paths {
  /**
   * Paths that are running (not parked). Starts at 1: the workflow's start holds the instance
   * until its first paths run (releaseStart), so an Update dispatched before that (the start's
   * own `sync`, run when its handler is registered) cannot see an empty instance as settled.
   */
  private busy = 1;
  /** Real waits so far (a park whose condition was not already met): the step budget's clock. */
  waits = 0;
  private parked = new Set<() => boolean>();
  /** Outside a workflow (the server's prediction): who keeps the waits instead of Temporal's `condition`. */
  private offlineWait: ((fn: () => boolean) => Promise<boolean>) | null = null;

  /** `ended`: whether the instance ended, which wakes every parked path and halts it. */
  constructor(private readonly ended: () => boolean) {}

  waitWith(wait: (fn: () => boolean) => Promise<boolean>) {
    this.offlineWait = wait;
  }

  /**
   * Temporal's `condition`, or offline the runtime's (whose timeouts never fire: a timer is a wait
   * the prediction does not pass).
   */
  wait(fn: () => boolean): Promise<true>;
  wait(fn: () => boolean, timeoutMs: number, opts?: { summary: string }): Promise<boolean>;
  wait(fn: () => boolean, timeoutMs?: number, opts?: { summary: string }): Promise<boolean> {
    if (this.offlineWait) return this.offlineWait(fn);
    if (timeoutMs === undefined) return condition(fn).then(() => true);
    return opts ? condition(fn, timeoutMs, opts) : condition(fn, timeoutMs);
  }

  /** A path starts or resumes running: the instance is not quiet until it parks or ends. */
  hold() {
    this.busy++;
  }

  /** A path parked or ended. */
  release() {
    if (this.busy <= 0) throw new Error('engine: release without hold');
    this.busy--;
  }

  /** The start (or the resume after continue-as-new) has launched its paths. */
  releaseStart() {
    this.release();
  }

  /**
   * Waits for `predicate` (or the end of the instance). While parked, this path does not count
   * as busy, so the projection and pending Updates may complete. `timerSummary` labels the
   * timeout's timer in the Web UI.
   */
  async park(predicate: () => boolean, timeoutMs?: number, timerSummary?: string): Promise<boolean> {
    const wake = () => this.ended() || predicate();
    if (!wake()) this.waits++;
    this.parked.add(wake);
    this.release();
    const met = await settleOf(
      timeoutMs === undefined
        ? this.wait(wake)
        : this.wait(wake, timeoutMs, timerSummary ? { summary: timerSummary } : undefined),
    );
    this.parked.delete(wake);
    return this.resume(met);
  }

  /** Awaits work that may take long (http call, child process) without holding Updates back. */
  async parkOn<T>(promise: Promise<T>): Promise<T> {
    this.release();
    return this.resume(await settleOf(promise));
  }

  /** Back from a wait: running again; an instance that ended meanwhile halts the path whatever the wait gave. */
  private resume<T>(outcome: Settled<T>): T {
    this.hold();
    if (this.ended()) throw new Halt();
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /** Nothing is running and nothing parked is about to wake: the instance waits for people or time. */
  quiet(): boolean {
    if (this.busy > 0) return false;
    for (const wake of this.parked) if (wake()) return false;
    return true;
  }
}
