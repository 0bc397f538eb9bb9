// `endpoint/schedule` triggers as Temporal Schedules (docs/rule-chains.md "Schedules"): one per
// router, id `chain-schedule:{tenantId}:{chainId}:{routerIndex}`, its action starting `chainRun`
// with the chain's deployed snapshot. Made on start and on a deploy of a started chain, removed on
// stop and delete, so a stopped chain's schedule cannot fire. Visible in the Temporal Web UI.
import { randomUUID } from 'node:crypto';
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleOptions,
  type ScheduleSpec,
} from '@temporalio/client';
import { cronToCalendar } from '../../chains/index.js';
import {
  CHAIN_RUN_WORKFLOW,
  chainRunWorkflowId,
  type ChainRunInput,
  type EndpointDsl,
  type RuleChainDsl,
} from '../../chains/types.js';
import { AppError } from '../errors.js';

export interface ScheduleTarget {
  temporal: Client;
  taskQueue: string;
}

/**
 * The run id a Schedule's action passes. Temporal appends the fire time to the action's workflow
 * id, so the workflow takes its run id from its own workflow id instead: the part after
 * `chain-run:{tenantId}:` (chainRunWorkflowId), e.g. `schedule-<uuid>-2026-11-29T10:00:00Z`.
 */
export const SCHEDULED_RUN_ID = 'scheduled';

export const SCHEDULE_ENDPOINT = 'endpoint/schedule';

export const chainScheduleId = (tenantId: string, chainId: string, routerIndex: number) =>
  `chain-schedule:${tenantId}:${chainId}:${routerIndex}`;

export interface ChainSchedule {
  endpointId: string;
  cron: string;
  timezone: string;
}

/** The chain's schedule routers in order (every `endpoint/schedule`'s routers, one after another). */
export function scheduleRouters(dsl: RuleChainDsl): ChainSchedule[] {
  const out: ChainSchedule[] = [];
  for (const ep of (dsl.metadata?.endpoints ?? []) as EndpointDsl[]) {
    if (ep.type !== SCHEDULE_ENDPOINT) continue;
    const tz = ep.configuration?.timezone;
    for (const router of ep.routers ?? [])
      out.push({
        endpointId: ep.id,
        cron: router.from.path,
        timezone: typeof tz === 'string' && tz ? tz : 'UTC',
      });
  }
  return out;
}

function options(
  tenantId: string,
  chainId: string,
  version: number,
  dsl: RuleChainDsl,
  s: ChainSchedule,
  index: number,
  taskQueue: string,
): ScheduleOptions {
  const cron = cronToCalendar(s.cron);
  // Validation at save refused a cron that does not convert; this is a document saved before that rule.
  if (!cron.ok)
    throw new AppError('CHAIN_INVALID', `The schedule ${s.cron} does not convert: ${cron.error}`, {
      problems: [{ nodeId: s.endpointId, field: 'routers.from.path', code: 'cron.invalid', message: cron.error }],
    });
  const input: ChainRunInput = {
    runId: SCHEDULED_RUN_ID,
    tenantId,
    chainId,
    chainVersion: version,
    chain: dsl,
    // The workflow gives the message its id (the run id) and time (its start) when it fires.
    msg: { id: '', ts: 0, type: '', dataType: 'TEXT', data: '', metadata: {} },
    trigger: { kind: 'schedule', endpointId: s.endpointId, cron: s.cron },
  };
  return {
    scheduleId: chainScheduleId(tenantId, chainId, index),
    spec: { ...(cron.spec as ScheduleSpec), timezone: cron.timezone ?? s.timezone },
    action: {
      type: 'startWorkflow',
      workflowType: CHAIN_RUN_WORKFLOW,
      // A fresh base per deploy: run ids stay unique across tenants and versions.
      workflowId: chainRunWorkflowId(tenantId, `schedule-${randomUUID()}`),
      taskQueue,
      args: [input],
    },
    policies: { overlap: 'ALLOW_ALL', catchupWindow: '1 minute' },
    memo: { tenantId, chainId, version },
  };
}

/** Creates or updates the chain's schedules for this version; schedules of routers no longer there go. */
export async function syncSchedules(
  target: ScheduleTarget,
  tenantId: string,
  chainId: string,
  version: number,
  dsl: RuleChainDsl,
) {
  const wanted = scheduleRouters(dsl);
  for (const [index, s] of wanted.entries()) {
    const opts = options(tenantId, chainId, version, dsl, s, index, target.taskQueue);
    try {
      await target.temporal.schedule.create(opts);
    } catch (err) {
      if (!(err instanceof ScheduleAlreadyRunning)) throw err;
      await target.temporal.schedule.getHandle(opts.scheduleId).update((prev) => ({
        ...prev,
        spec: opts.spec,
        action: opts.action,
        policies: { ...prev.policies, ...opts.policies },
        state: { ...prev.state, paused: false },
      }));
    }
  }
  await removeFrom(target, tenantId, chainId, wanted.length);
}

/** Deletes every schedule of the chain. */
export const removeSchedules = (target: ScheduleTarget, tenantId: string, chainId: string) =>
  removeFrom(target, tenantId, chainId, 0);

// Routers are numbered without gaps: delete from `first` up until one is not there.
async function removeFrom(target: ScheduleTarget, tenantId: string, chainId: string, first: number) {
  for (let index = first; ; index++) {
    try {
      await target.temporal.schedule.getHandle(chainScheduleId(tenantId, chainId, index)).delete();
    } catch (err) {
      if (err instanceof ScheduleNotFoundError) return;
      throw err;
    }
  }
}
