// The render threads: a tenant's message template is parsed, checked and rendered only here, never
// on the thread that serves requests or runs the dispatcher (docs/channels.md#templates). A small
// pool of long-lived worker threads, started on first use; each renders one job at a time, and a
// job that passes its deadline, or a thread that dies (its heap cap reached), costs that thread:
// it is terminated and a fresh one started. Hard limits of a job:
//
// * time: one deadline for the whole job (every part of a message, the check and the sample render
//   of a save). The thread itself gives each part what is left of it as liquidjs' render limit
//   (checked before each tag: a slow loop ends with its line); what that check cannot stop — one
//   filter running for seconds — is stopped by terminating the thread at the deadline plus a grace.
// * memory: the thread's heap is capped (resourceLimits); reaching the cap ends the thread.
// * output: every part's output is counted as it is written (./liquid.ts, OUTPUT_MAX).
import { Worker } from 'node:worker_threads';
import type { Locale, Message, MessageContext, TemplateField, TemplateFields } from '../messages/index.js';
import type { TemplateProblem } from './message.js';
import { siblingThreadModule } from '../../infra/thread-module.js';

export interface RenderLimits {
  /** Render threads at most (each renders one message at a time; more wait their turn). */
  threads: number;
  /** The deadline of one message, all its parts together. */
  deadlineMs: number;
  /** How long past the deadline the thread may take to stop on its own before it is terminated. */
  graceMs: number;
  /** The heap cap of a render thread (V8's old generation; the young one is capped at a quarter). */
  memoryMb: number;
}

export const RENDER_LIMITS: RenderLimits = { threads: 2, deadlineMs: 1_000, graceMs: 100, memoryMb: 64 };

/** What is left of one message's deadline, shared by the jobs it takes (a preview: check, then render). */
export class RenderBudget {
  constructor(public leftMs: number = RENDER_LIMITS.deadlineMs) {}
}

export type RenderRequest =
  | { op: 'check'; kind: MessageContext['kind']; locale: Locale; parts: Partial<TemplateFields> }
  | { op: 'render'; ctx: MessageContext; override: Partial<TemplateFields> };
export interface RenderResult {
  check: TemplateProblem[];
  render: { message: Message | null; fallbacks: Array<{ field: TemplateField; message: string }> };
}

/** To the thread: a job and the time it has. */
export type ThreadRequest = RenderRequest & { id: number; timeLeftMs: number; tooLong: string };
/** From the thread: started, a part started, a job's result or its error. */
export type ThreadMessage =
  | { ready: true }
  | { id: number; field: TemplateField }
  | { id: number; result: unknown }
  | { id: number; error: string };

/** A job the thread did not finish: its deadline passed, its heap cap was reached, or it failed. */
export class RenderStopped extends Error {
  constructor(
    readonly reason: 'deadline' | 'memory' | 'failed',
    message: string,
    /** The part it was rendering, when known. */
    readonly field: TemplateField | null,
  ) {
    super(message);
    this.name = 'RenderStopped';
  }
}

interface Job {
  id: number;
  request: RenderRequest;
  budget: RenderBudget;
  field: TemplateField | null;
  started: number;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

/** How long a thread may take to start (load its modules) before the jobs waiting for it fail. */
const START_TIMEOUT_MS = 30_000;

const thread = siblingThreadModule(import.meta.url, 'thread');

export class RenderPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private seq = 0;

  constructor(readonly limits: RenderLimits = RENDER_LIMITS) {}

  /** "render took longer than 1 s". */
  get tooLong(): string {
    return `render took longer than ${this.limits.deadlineMs / 1000} s`;
  }

  /** Runs a job in a render thread within what is left of the budget (a fresh one: the whole deadline). */
  run<K extends RenderRequest['op']>(
    request: Extract<RenderRequest, { op: K }>,
    budget: RenderBudget = new RenderBudget(this.limits.deadlineMs),
  ): Promise<RenderResult[K]> {
    return new Promise((resolve, reject) => {
      this.queue.push({
        id: ++this.seq,
        request,
        budget,
        field: null,
        started: 0,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  /** Stops every thread (jobs in flight fail). */
  async close(): Promise<void> {
    const slots = [...this.slots];
    for (const slot of slots) this.stop(slot, new RenderStopped('failed', 'render failed: the renderer closed', null));
    for (const job of this.queue.splice(0))
      job.reject(new RenderStopped('failed', 'render failed: the renderer closed', null));
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Gives waiting jobs to ready threads, and starts threads while jobs wait and the pool has room. */
  private pump() {
    for (const slot of this.slots)
      while (slot.ready && !slot.job && this.queue.length) this.dispatch(slot, this.queue.shift()!);
    let starting = [...this.slots].filter((s) => !s.ready).length;
    while (this.queue.length > starting && this.slots.size < this.limits.threads) {
      this.spawn();
      starting++;
    }
    // A thread keeps the process alive only while a job is in it or waits for it.
    for (const slot of this.slots)
      if (slot.job || (!slot.ready && this.queue.length)) slot.worker.ref();
      else slot.worker.unref();
  }

  private spawn(): Slot {
    const worker = new Worker(thread.url, {
      ...(thread.execArgv ? { execArgv: thread.execArgv } : {}),
      resourceLimits: {
        maxOldGenerationSizeMb: this.limits.memoryMb,
        maxYoungGenerationSizeMb: Math.max(4, Math.ceil(this.limits.memoryMb / 4)),
      },
    });
    const slot: Slot = { worker, ready: false };
    this.slots.add(slot);
    worker.on('message', (m: ThreadMessage) => {
      if (!this.slots.has(slot)) return;
      if ('ready' in m) {
        slot.ready = true;
        clearTimeout(slot.timer);
        this.pump();
        return;
      }
      const job = slot.job;
      if (!job || m.id !== job.id) return;
      if ('field' in m) job.field = m.field;
      else if ('result' in m) this.finish(slot, job, () => job.resolve(m.result));
      else
        this.finish(slot, job, () => job.reject(new RenderStopped('failed', `render failed: ${m.error}`, job.field)));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (!this.slots.has(slot)) return;
      const memory = err.code === 'ERR_WORKER_OUT_OF_MEMORY';
      const field = slot.job?.field ?? null;
      const stopped = memory
        ? new RenderStopped('memory', `render used more than ${this.limits.memoryMb} MB of memory`, field)
        : new RenderStopped('failed', `render failed: ${err.message}`, field);
      if (slot.ready) this.stop(slot, stopped);
      else this.startFailed(slot, stopped);
    });
    slot.timer = setTimeout(
      () => this.startFailed(slot, new RenderStopped('failed', 'render failed: the render thread did not start', null)),
      START_TIMEOUT_MS,
    );
    // A spare thread starting must not keep the process alive (a job waiting for it refs the thread).
    slot.timer.unref();
    worker.on('exit', (code) => {
      if (this.slots.has(slot))
        this.stop(slot, new RenderStopped('failed', `render failed: the render thread exited (${code})`, null));
    });
    return slot;
  }

  private dispatch(slot: Slot, job: Job) {
    const timeLeftMs = job.budget.leftMs;
    if (timeLeftMs <= 0) return job.reject(new RenderStopped('deadline', this.tooLong, null));
    slot.job = job;
    job.started = performance.now();
    slot.timer = setTimeout(
      () => this.stop(slot, new RenderStopped('deadline', this.tooLong, job.field)),
      timeLeftMs + this.limits.graceMs,
    );
    slot.worker.postMessage({ ...job.request, id: job.id, timeLeftMs, tooLong: this.tooLong } satisfies ThreadRequest);
  }

  private spend(job: Job) {
    job.budget.leftMs -= performance.now() - job.started;
  }

  private finish(slot: Slot, job: Job, settle: () => void) {
    clearTimeout(slot.timer);
    slot.job = undefined;
    this.spend(job);
    settle();
    this.pump();
  }

  /** A thread that cannot start fails the jobs waiting for it rather than restarting for ever. */
  private startFailed(slot: Slot, err: RenderStopped) {
    this.stop(slot, err);
    if (![...this.slots].some((s) => s.ready)) for (const job of this.queue.splice(0)) job.reject(err);
  }

  /** Ends a thread (its job, if any, fails with `err`); a fresh one is started to stay warm. */
  private stop(slot: Slot, err: RenderStopped) {
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    const job = slot.job;
    slot.job = undefined;
    void slot.worker.terminate().catch(() => {});
    if (job) {
      this.spend(job);
      job.reject(err);
    }
    if (!this.slots.size && err.reason !== 'failed') this.spawn();
    this.pump();
  }
}

let shared: RenderPool | undefined;
/** The process's render threads (RENDER_LIMITS). */
export const renderPool = (): RenderPool => (shared ??= new RenderPool());
