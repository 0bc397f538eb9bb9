// Process events as a chain trigger (`endpoint/processEvent`, docs/rule-chains.md): once a state of
// an approval is in the read model, its events — instance started, instance ended (with its
// outcome), task created, task decided — each start a run of every started chain of the tenant
// that subscribes (one process key or all; some events or all). Called after every projection
// write (the worker's projection activity, the server's write of an Update's state, the sweeper).
//
// The approval path stays fast and safe: the tenant's subscriptions are one read of its started
// chains, kept for a few seconds; nothing here throws to the writer (a run that cannot start is
// logged). A run's id comes from the chain, the endpoint and the event, so a state written twice
// (a retried activity, the sweeper) starts its runs once: a run already recorded is not started
// again, and one starting now is the same workflow (startChainRun uses the existing one).
import type { Client } from '@temporalio/client';
import type { Orm } from '../db/orm.js';
import type { Logger } from '../observability/logger.js';
import type { ProjectionSnapshot, TaskResult, TaskState } from '../../workflows/engine/types.js';
import {
  PROCESS_EVENTS,
  type ChainRunInput,
  type EndpointDsl,
  type ProcessEventName,
  type RuleChainDsl,
} from '../../chains/types.js';
import { startChainRun } from './runner.js';

export interface ProcessEventDeps {
  orm: Orm;
  /** The client, or how to get it (an activity's context gives it per call). */
  temporal: Client | (() => Client);
  taskQueue: string;
  logger: Logger;
}

export const PROCESS_EVENT_ENDPOINT = 'endpoint/processEvent';

/** One endpoint of a started chain that listens to process events. */
interface Subscription {
  chainId: string;
  version: number;
  dsl: RuleChainDsl;
  endpointId: string;
  /** Null: every process. */
  processKey: string | null;
  /** Null: every event. */
  events: ProcessEventName[] | null;
}

/** One event of a written state: `key` is unique per event of the instance (the run id derives from it). */
export interface ProcessEvent {
  name: ProcessEventName;
  key: string;
  instanceId: string;
  data: Record<string, unknown>;
}

/** How long a tenant's subscriptions are kept before they are read again (a start or stop shows within it). */
export const SUBSCRIPTIONS_TTL_MS = 2_000;
const cache = new Map<string, { until: number; subs: Promise<Subscription[]> }>();
const CACHE_SIZE = 10_000;

/** The endpoint's configuration as we read it: `processKey` (empty or `*`: all), `events` (empty: all). */
export function subscriptionOf(chainId: string, version: number, dsl: RuleChainDsl, ep: EndpointDsl): Subscription {
  const cfg = (ep.configuration ?? {}) as { processKey?: unknown; events?: unknown };
  const key =
    typeof cfg.processKey === 'string' && cfg.processKey.trim() && cfg.processKey !== '*' ? cfg.processKey : null;
  const events = Array.isArray(cfg.events)
    ? cfg.events.filter((e): e is ProcessEventName => (PROCESS_EVENTS as readonly unknown[]).includes(e))
    : [];
  return { chainId, version, dsl, endpointId: ep.id, processKey: key, events: events.length ? events : null };
}

async function readSubscriptions(orm: Orm, tenantId: string): Promise<Subscription[]> {
  // The tenant's started chains with a processEvent endpoint: the primary key's tenant prefix.
  const rows = await orm.em.fork().execute<Array<{ id: string; version: number; dsl: RuleChainDsl }>>(
    `select id, version, dsl from rule_chains
     where tenant_id = ? and not disabled and dsl->'metadata'->'endpoints' @> ?::jsonb`,
    [tenantId, JSON.stringify([{ type: PROCESS_EVENT_ENDPOINT }])],
  );
  return rows.flatMap((r) =>
    (r.dsl.metadata?.endpoints ?? [])
      .filter((ep) => ep.type === PROCESS_EVENT_ENDPOINT)
      .map((ep) => subscriptionOf(r.id, r.version, r.dsl, ep)),
  );
}

function subscriptions(orm: Orm, tenantId: string): Promise<Subscription[]> {
  const now = Date.now();
  const hit = cache.get(tenantId);
  if (hit && hit.until > now) return hit.subs;
  const subs = readSubscriptions(orm, tenantId);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(tenantId, { until: now + SUBSCRIPTIONS_TTL_MS, subs });
  subs.catch(() => cache.delete(tenantId));
  return subs;
}

/** Forgets the subscriptions this process keeps (a chain of the tenant was saved, started or stopped here). */
export function forgetSubscriptions(tenantId?: string) {
  if (tenantId === undefined) cache.clear();
  else cache.delete(tenantId);
}

/** A person's (or a rule's) decision; cancelled and withdrawn tasks were not decided. */
const DECIDED: readonly TaskResult[] = [
  'approved',
  'rejected',
  'returned',
  'auto_approved',
  'auto_rejected',
  'completed',
];
const PEOPLE_TASKS = new Set(['approval', 'handle']);
/** The parent of a node's several ballots (workflows/engine/user-task.ts): nobody's task; its ballots are the events. */
const holdsNoOne = (t: TaskState) =>
  !t.assignee && !t.candidates.userIds.length && !t.candidates.roleIds.length && !t.candidates.deptIds.length;

/** The events a written state carries. */
export function eventsOf(s: ProjectionSnapshot): ProcessEvent[] {
  const i = s.instance;
  const base = {
    instanceId: i.id,
    processKey: i.processKey,
    processVersion: i.processVersion,
    businessKey: i.businessKey,
  };
  const events: ProcessEvent[] = [];
  if (s.trail.some((e) => e.type === 'start'))
    events.push({
      name: 'instanceStarted',
      key: 'instanceStarted',
      instanceId: i.id,
      data: { ...base, initiator: i.initiatorId, startTime: i.startTime, variables: i.variables },
    });
  const task = (t: TaskState) => ({
    ...base,
    taskId: t.id,
    nodeId: t.activityId,
    taskName: t.name,
    kind: t.kind,
    assignee: t.assignee,
    candidates: t.candidates,
  });
  for (const t of s.tasks) {
    if (!PEOPLE_TASKS.has(t.kind) || holdsNoOne(t)) continue;
    events.push({
      name: 'taskCreated',
      key: `taskCreated:${t.id}`,
      instanceId: i.id,
      data: { ...task(t), createTime: t.createTime, dueDate: t.dueDate },
    });
    if (t.status === 'completed' && t.result && DECIDED.includes(t.result))
      events.push({
        name: 'taskDecided',
        key: `taskDecided:${t.id}`,
        instanceId: i.id,
        data: { ...task(t), decision: t.result, comment: t.comment, endTime: t.endTime },
      });
  }
  if (s.ended)
    events.push({
      name: 'instanceEnded',
      key: 'instanceEnded',
      instanceId: i.id,
      data: {
        ...base,
        outcome: i.status,
        endCode: i.endCode ?? null,
        endReason: i.endReason,
        endTime: i.endTime,
        initiator: i.initiatorId,
        variables: i.variables,
      },
    });
  return events;
}

const matches = (sub: Subscription, processKey: string, event: ProcessEventName) =>
  (sub.processKey === null || sub.processKey === processKey) && (sub.events === null || sub.events.includes(event));

/** The run of one subscription for one event: its id names the chain, the endpoint and the event. */
export function eventRun(tenantId: string, sub: Subscription, event: ProcessEvent): ChainRunInput {
  const runId = `event:${sub.chainId}:${sub.endpointId}:${event.instanceId}:${event.key}`;
  return {
    runId,
    tenantId,
    chainId: sub.chainId,
    chainVersion: sub.version,
    chain: sub.dsl,
    msg: {
      id: runId,
      ts: Date.now(),
      type: event.name,
      dataType: 'JSON',
      data: JSON.stringify(event.data),
      metadata: {
        event: event.name,
        instanceId: event.instanceId,
        processKey: String(event.data.processKey ?? ''),
        businessKey: String(event.data.businessKey ?? ''),
        tenant_id: tenantId,
      },
    },
    trigger: { kind: 'event', endpointId: sub.endpointId, event: event.name, instanceId: event.instanceId },
  };
}

/** Hands a written state's events to the subscribed chains. Never throws: the write is done, whatever happens here. */
export async function deliverProcessEvents(deps: ProcessEventDeps, snapshot: ProjectionSnapshot): Promise<void> {
  const tenantId = snapshot.instance.tenantId;
  try {
    const subs = await subscriptions(deps.orm, tenantId);
    if (!subs.length) return;
    const runs = eventsOf(snapshot).flatMap((event) =>
      subs
        .filter((sub) => matches(sub, snapshot.instance.processKey, event.name))
        .map((sub) => eventRun(tenantId, sub, event)),
    );
    if (!runs.length) return;
    // A run already recorded is not started again (a retried write, the sweeper's whole state).
    const recorded = await deps.orm.em
      .fork()
      .execute<Array<{ id: string }>>(
        `select id from rule_chain_runs where id = any(array(select jsonb_array_elements_text(?::jsonb)))`,
        [JSON.stringify(runs.map((r) => r.runId))],
      );
    const skip = new Set(recorded.map((r) => r.id));
    const temporal = typeof deps.temporal === 'function' ? deps.temporal() : deps.temporal;
    await Promise.all(
      runs
        .filter((run) => !skip.has(run.runId))
        .map((run) =>
          startChainRun({ temporal, taskQueue: deps.taskQueue }, run).catch((err: unknown) =>
            deps.logger.warn(
              { err, tenantId, chainId: run.chainId, runId: run.runId },
              'process event: the chain run could not be started',
            ),
          ),
        ),
    );
  } catch (err) {
    deps.logger.warn({ err, tenantId, instanceId: snapshot.instance.id }, 'process events: not delivered');
  }
}
