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
}

/** How long the sweeper waits for a workflow's answer. */
const QUERY_DEADLINE_MS = 10_000;
/** An intent whose workflow has not answered a query for this long is given up (see sweepOnce). */
const GIVE_UP_MS = 3_600_000;
const IN_LIST = `update_id = any(array(select jsonb_array_elements_text(?::jsonb)))`;
const ids = (list: string[]) => [JSON.stringify(list)];

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
  const byInstance = new Map<string, Intent[]>();
  for (const i of claimed) byInstance.set(i.instance_id, [...(byInstance.get(i.instance_id) ?? []), i]);
  for (const intents of byInstance.values()) {
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
        // A workflow that answers no query (its workflow task keeps failing, no worker polls) makes
        // no progress either: asked again after a pause, given up after an hour — a repair
        // (re-drive, /process-instances/stuck) answers with its state, which its caller writes.
        const old = intents.filter((i) => i.age_ms > GIVE_UP_MS).map((i) => i.update_id);
        await em.execute(
          `update projection_intents set lease_until = now() + interval '5 minutes' where ${IN_LIST}`,
          ids(intents.map((i) => i.update_id)),
        );
        if (old.length) await em.execute(`delete from projection_intents where ${IN_LIST}`, ids(old));
        opts.logger.warn({ err, instanceId }, 'intent sweep: the workflow did not answer; asked again in 5 minutes');
        report.kept += intents.length - old.length;
        report.settled += old.length;
        continue;
      }
      known = new Set(intents.map((i) => i.update_id));
    }
    const settle = intents.filter((i) => known.has(i.update_id) || i.age_ms > abandonMs).map((i) => i.update_id);
    const keep = intents.filter((i) => !settle.includes(i.update_id)).map((i) => i.update_id);
    if (settle.length) await em.execute(`delete from projection_intents where ${IN_LIST}`, ids(settle));
    // Released, not held for the lease: an Update still in flight is looked at again next sweep.
    if (keep.length) await em.execute(`update projection_intents set lease_until = null where ${IN_LIST}`, ids(keep));
    report.settled += settle.length;
    report.kept += keep.length;
  }
  return report;
}

/** Sweeps every `intervalMs` until stopped. */
export class ProjectionSweeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly opts: SweeperOptions) {}

  start() {
    const tick = () => {
      if (this.stopped) return;
      this.running = sweepOnce(this.opts)
        .then((r) => {
          if (r.written) this.opts.logger.info(r, 'intent sweep: wrote missing read-model states');
        })
        .catch((err: unknown) => this.opts.logger.warn({ err }, 'intent sweep failed; will retry'))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(tick, this.opts.intervalMs);
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
