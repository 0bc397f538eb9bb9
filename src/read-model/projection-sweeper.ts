// The sweeper of write-ahead intents (engine version 4, docs/engine.md "Read model"). An intent
// older than the grace period is an Update whose answered state may be recorded in Temporal but
// missing from PostgreSQL: the server that sent it died, or its write failed. The sweeper asks the
// workflow (`sweepState`: the whole state plus the events of its last answers) and writes that —
// every part of a write is idempotent, so writing what is already there changes nothing. Any
// number of sweepers may run: each claims intents with a lease under SKIP LOCKED.
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../observability/logger.js';
import { writeProjection } from './writer.js';
import type { ProjectionSnapshot } from '../../workflows/engine/types.js';
import { sweepState } from '../../workflows/read-model.js';
import { workflowIdOf } from '../../workflows/search-attributes.js';
import { RetryMemory, isTemporalUnavailable } from './sweep-retry.js';

export interface SweeperOptions {
  orm: Orm;
  temporal: Client;
  logger: Logger;
  /** An intent this old may be a missing write. */
  graceMs: number;
  /** Between sweeps. */
  intervalMs: number;
  /**
   * An intent whose Update the workflow does not know after this long is dropped: the Update never
   * ran (the server died before sending it, or it was refused and the drop was lost). Longer than an
   * Update can stay in flight (src/temporal/engine-client.ts re-sends for at most 60 s).
   */
  abandonMs?: number;
  batch?: number;
  /**
   * The first retry (ms) of an intent whose workflow did not answer its query; doubled per failure
   * in a row, at most `intervalMs` (sweep-retry.ts). Default 1000 (at most `intervalMs`).
   */
  retryBaseMs?: number;
  /** Failures in a row per intent, kept across sweeps (ProjectionSweeper keeps one); without it each failure counts as the first. */
  retry?: RetryMemory;
  /** After a state is written (the composition hands its events to rule chains: src/main/worker.ts). */
  afterWrite?: (snapshot: ProjectionSnapshot) => Promise<void>;
}

interface Intent {
  update_id: string;
  tenant_id: string;
  instance_id: string;
  age_ms: number;
}

export interface SweepReport {
  /** Instances written from their workflow's answer. */
  written: number;
  /** Intents settled (their Update's state is written, or it never ran). */
  settled: number;
  /** Intents left for a later sweep (their Update may still be in flight). */
  kept: number;
  /** When a query failed: the soonest any intent of this sweep is asked again (ms). */
  retryInMs?: number;
  /** Temporal itself did not answer: the intents this sweep backed off for that reason. */
  temporalDown?: string[];
}

/**
 * How long the sweeper waits for a workflow's answer. Short: a query is answered in milliseconds by
 * a worker that has the workflow cached; one that was sent while no worker polled (right after a
 * Temporal outage, before the workers' pollers are back) waits for this long before it is asked
 * again, and a workflow that needed a longer replay is cached by then.
 */
const QUERY_DEADLINE_MS = 3000;
/** An intent whose workflow has not answered a query for this long is given up (see sweepOnce). */
const GIVE_UP_MS = 3_600_000;
const IN_LIST = `update_id = any(array(select jsonb_array_elements_text(?::jsonb)))`;
const ids = (list: string[]) => [JSON.stringify(list)];

const retrySchedule = (opts: SweeperOptions) => ({
  baseMs: Math.min(opts.retryBaseMs ?? 1000, opts.intervalMs),
  capMs: opts.intervalMs,
});

/** One sweep: claims due intents, writes their instances, settles what it can. */
export async function sweepOnce(opts: SweeperOptions): Promise<SweepReport> {
  const em = opts.orm.em.fork();
  const abandonMs = opts.abandonMs ?? 120_000;
  const claimed = await em.execute<Intent[]>(
    `update projection_intents p set lease_until = now() + interval '30 seconds'
     from (select update_id from projection_intents
           where created_at < now() - make_interval(secs => ?) and (lease_until is null or lease_until < now())
           order by created_at limit ? for update skip locked) due
     where p.update_id = due.update_id
     returning p.update_id, p.tenant_id, p.instance_id, (extract(epoch from now() - p.created_at) * 1000)::float8 as age_ms`,
    [opts.graceMs / 1000, opts.batch ?? 50],
  );
  const report: SweepReport = { written: 0, settled: 0, kept: 0 };
  const memory = opts.retry ?? new RetryMemory(retrySchedule(opts));
  const byInstance = new Map<string, Intent[]>();
  for (const i of claimed) byInstance.set(i.instance_id, [...(byInstance.get(i.instance_id) ?? []), i]);
  const groups = [...byInstance.values()];
  for (const [g, intents] of groups.entries()) {
    const { tenant_id: tenantId, instance_id: instanceId } = intents[0];
    let known: Set<string>;
    try {
      const handle = opts.temporal.workflow.getHandle(workflowIdOf(tenantId, instanceId));
      const state = await opts.temporal.withDeadline(Date.now() + QUERY_DEADLINE_MS, () => handle.query(sweepState));
      const { updateIds, ...snapshot } = state;
      await writeProjection(opts.orm, snapshot, { writer: 'sweeper' });
      await opts.afterWrite?.(snapshot);
      report.written++;
      known = new Set(updateIds);
    } catch (err) {
      // A run started before engine version 4 has no such query: its projection activity writes
      // every state, so there is nothing to sweep. A workflow that does not exist never started.
      if (
        !(err instanceof WorkflowNotFoundError) &&
        !/sweepState|unknown query|query.*not.*registered/i.test(String(err))
      ) {
        // A workflow that answers no query (Temporal is down, no worker polls, its workflow task
        // keeps failing) is asked again soon, then less often, at most one sweep interval later
        // (sweep-retry.ts): once Temporal is back, its state is written within one interval. Given
        // up after an hour — a repair (re-drive, /process-instances/stuck) answers with its state,
        // which its caller writes.
        const old = intents.filter((i) => i.age_ms > GIVE_UP_MS).map((i) => i.update_id);
        const failing = intents.map((i) => i.update_id).filter((id) => !old.includes(id));
        const delays = memory.failed(failing);
        // Temporal itself did not answer: every other instance's query would wait out its deadline
        // alike. They are released with their own delay (no failure counted) and the sweep stops.
        const rest = isTemporalUnavailable(err) ? groups.slice(g + 1).flatMap((l) => l.map((i) => i.update_id)) : [];
        for (const [id, ms] of memory.pending(rest)) delays.set(id, ms);
        await backOff(em, delays);
        if (old.length) {
          await em.execute(`delete from projection_intents where ${IN_LIST}`, ids(old));
          memory.forget(old);
        }
        const soonest = Math.min(...delays.values());
        if (delays.size) report.retryInMs = Math.min(report.retryInMs ?? Infinity, soonest);
        opts.logger.warn(
          { err, instanceId, failures: memory.count(failing[0] ?? ''), released: rest.length },
          `intent sweep: the workflow did not answer; asked again in ${delays.size ? soonest : 0} ms`,
        );
        report.kept += failing.length + rest.length;
        report.settled += old.length;
        if (isTemporalUnavailable(err)) {
          report.temporalDown = [...failing, ...rest];
          break;
        }
        continue;
      }
      known = new Set(intents.map((i) => i.update_id));
    }
    const settle = intents.filter((i) => known.has(i.update_id) || i.age_ms > abandonMs).map((i) => i.update_id);
    const keep = intents.filter((i) => !settle.includes(i.update_id)).map((i) => i.update_id);
    // The workflow answered: its intents' failures in a row are over.
    memory.forget(intents.map((i) => i.update_id));
    if (settle.length) await em.execute(`delete from projection_intents where ${IN_LIST}`, ids(settle));
    // Released, not held for the lease: an Update still in flight is looked at again next sweep.
    if (keep.length) await em.execute(`update projection_intents set lease_until = null where ${IN_LIST}`, ids(keep));
    report.settled += settle.length;
    report.kept += keep.length;
  }
  return report;
}

/** Leases each intent for its delay: no sweeper claims it before. */
async function backOff(em: ReturnType<Orm['em']['fork']>, delays: Map<string, number>) {
  const byDelay = new Map<number, string[]>();
  for (const [id, ms] of delays) byDelay.set(ms, [...(byDelay.get(ms) ?? []), id]);
  for (const [ms, list] of byDelay)
    await em.execute(`update projection_intents set lease_until = now() + make_interval(secs => ?) where ${IN_LIST}`, [
      ms / 1000,
      ...ids(list),
    ]);
}

/** How often a sweeper that found Temporal down asks whether it is back (ms, at most the interval). */
const OUTAGE_PROBE_MS = 1000;

/**
 * Sweeps every `intervalMs` until stopped (sooner after a failed query: its first retries come
 * sooner). After a sweep that found Temporal itself down it only asks Temporal, every second,
 * whether it is back (DescribeNamespace, one cheap call); once it is, it releases the intents it
 * backed off for the outage and sweeps at once — the read model is right a second or two after
 * the outage ends, whatever the backoff had reached.
 */
export class ProjectionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Intents backed off because Temporal was down (empty: no outage seen). */
  private readonly waitingOnTemporal = new Set<string>();

  private readonly retry: RetryMemory;

  constructor(private readonly opts: SweeperOptions) {
    this.retry = opts.retry ?? new RetryMemory(retrySchedule(opts));
  }

  /** Whether Temporal answers now (a short deadline: this runs every second during an outage). */
  private async temporalBack(): Promise<boolean> {
    const { temporal } = this.opts;
    try {
      await temporal.withDeadline(Date.now() + OUTAGE_PROBE_MS, () =>
        temporal.workflowService.describeNamespace({ namespace: temporal.options.namespace }),
      );
      return true;
    } catch {
      return false;
    }
  }

  private async sweep(): Promise<number> {
    const probeMs = Math.min(OUTAGE_PROBE_MS, this.opts.intervalMs);
    if (this.waitingOnTemporal.size) {
      if (!(await this.temporalBack())) return probeMs;
      // Back: the failures were Temporal's, not the workflows'; ask at once.
      const back = [...this.waitingOnTemporal];
      await this.opts.orm.em
        .fork()
        .execute(
          `update projection_intents set lease_until = null where ${IN_LIST} and lease_until > now()`,
          ids(back),
        );
      this.retry.forget(back);
      this.waitingOnTemporal.clear();
      this.opts.logger.info({ intents: back.length }, 'intent sweep: Temporal answers again; sweeping now');
    }
    const r = await sweepOnce({ ...this.opts, retry: this.retry });
    if (r.written) this.opts.logger.info(r, 'intent sweep: wrote missing read-model states');
    if (r.temporalDown?.length) {
      for (const id of r.temporalDown) if (this.waitingOnTemporal.size < 10_000) this.waitingOnTemporal.add(id);
      return probeMs;
    }
    return r.retryInMs !== undefined ? Math.min(this.opts.intervalMs, Math.max(50, r.retryInMs)) : this.opts.intervalMs;
  }

  start() {
    const tick = () => {
      if (this.stopped) return;
      let next = this.opts.intervalMs;
      this.running = this.sweep()
        .then((ms) => {
          next = ms;
        })
        .catch((err: unknown) => this.opts.logger.warn({ err }, 'intent sweep failed; will retry'))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(tick, next);
        });
    };
    this.timer = setTimeout(tick, this.opts.intervalMs);
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
