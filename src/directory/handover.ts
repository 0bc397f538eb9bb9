// Handing over a leaver's work (docs/task-actions.md#handing-over-a-leavers-work): the read model
// names the running instances where the user holds something; each gets one handoverUser Update,
// a few at a time. Deactivation refuses a user who still holds open work.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, ErrorCodes, isErrorCode, referenceError } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import * as m from '../../workflows/messages.js';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { actorOf, runUpdate } from '../temporal/engine-client.js';
import { mapBounded } from '../infra/map-bounded.js';

const OPEN = `('pending', 'active', 'waiting', 'suspended')`;
const RUNNING = `('active', 'suspended')`;

export interface OpenWork {
  tasks: number;
  delegated: number;
  poolMemberships: number;
  startedInstances: number;
}

/** What the user holds in running instances of the tenant (the runtime tables hold only those and drafts). */
export async function openWorkOf(em: EntityManager, tenantId: string, userId: string): Promise<OpenWork> {
  const [row] = await em.execute<Array<Record<string, string>>>(
    `select
       (select count(*) from tasks t where t.tenant_id = ? and not t.deleted and t.status in ${OPEN}
          and ((t.assignee = ? and t.owner is null) or t.owner = ?)) as tasks,
       (select count(*) from tasks t where t.tenant_id = ? and not t.deleted and t.status in ${OPEN}
          and t.assignee = ? and t.owner is not null) as delegated,
       (select count(*) from tasks t where t.tenant_id = ? and not t.deleted and t.status in ${OPEN}
          and jsonb_exists(t.candidates->'userIds', ?)) as pools,
       (select count(*) from instances i where i.tenant_id = ? and i.status in ${RUNNING} and i.initiator_id = ?) as started`,
    [tenantId, userId, userId, tenantId, userId, tenantId, userId, tenantId, userId],
  );
  return {
    tasks: Number(row.tasks),
    delegated: Number(row.delegated),
    poolMemberships: Number(row.pools),
    startedInstances: Number(row.started),
  };
}

/** 409 USER_HAS_OPEN_WORK while the user holds tasks, delegations or pool places (started instances may stay). */
export async function requireNoOpenWork(em: EntityManager, tenantId: string, userId: string) {
  const work = await openWorkOf(em, tenantId, userId);
  if (work.tasks + work.delegated + work.poolMemberships > 0) {
    throw new AppError(
      'USER_HAS_OPEN_WORK',
      `${userId} still holds ${work.tasks} task(s), ${work.delegated} delegated task(s) and ${work.poolMemberships} pool place(s): hand them over first`,
      work,
    );
  }
}

export interface HandoverBody {
  toUserId: string;
  reason?: string;
  scope?: Partial<m.HandoverScope>;
}

export const DEFAULT_SCOPE: m.HandoverScope = { tasks: true, pools: true, startedInstances: false };

interface InstanceOutcome {
  instanceId: string;
  tasks: number;
  delegated: number;
  poolMemberships: number;
  instances: number;
  skipped: Array<{ taskId: string; reason: string }>;
}

async function requireUser(em: EntityManager, tenantId: string, id: string, active: boolean) {
  const [row] = await em.execute<Array<{ active: boolean }>>(
    `select active from users where tenant_id = ? and id = ?`,
    [tenantId, id],
  );
  // The path's user: 404 NOT_FOUND; the body's receiver: 404 REFERENCE_NOT_FOUND / 409 USER_INACTIVE.
  if (!row && !active) throw new AppError('NOT_FOUND', `No user ${id}`);
  const err = !row
    ? referenceError([{ path: 'toUserId', message: `no user ${id}` }])
    : active && !row.active
      ? referenceError([], [{ path: 'toUserId', message: `user ${id} is deactivated` }])
      : null;
  if (err) throw err;
}

/** The refusal or failure of one instance's Update, as its catalogue code. */
function failureOf(err: unknown): { type: string; code: number; message: string } {
  if (err instanceof AppError) return { type: err.type, code: err.code, message: err.message };
  const cause = err instanceof WorkflowUpdateFailedError ? err.cause : null;
  if (cause instanceof ApplicationFailure && isErrorCode(cause.type))
    return { type: cause.type, code: ErrorCodes[cause.type].code, message: cause.message };
  return {
    type: 'UNAVAILABLE',
    code: ErrorCodes.UNAVAILABLE.code,
    message: err instanceof Error ? err.message : String(err),
  };
}

export async function handover(deps: AppDeps, principal: Principal, fromUserId: string, body: HandoverBody) {
  const em = deps.orm.em.fork();
  const { tenantId } = principal;
  await requireUser(em, tenantId, fromUserId, false);
  if (body.toUserId === fromUserId) throw new AppError('INVALID_TARGET', 'The receiver is the user handing over');
  await requireUser(em, tenantId, body.toUserId, true);
  const scope: m.HandoverScope = { ...DEFAULT_SCOPE, ...body.scope };
  if (!scope.tasks && !scope.pools && !scope.startedInstances)
    throw new AppError('VALIDATION_FAILED', 'scope: choose at least one of tasks, pools, startedInstances', {
      fields: ['scope: nothing to hand over'],
    });

  const rows = await em.execute<Array<{ id: string }>>(
    `select i.id from instances i where i.tenant_id = ? and i.status in ${RUNNING} and (
       (?::boolean and exists (select 1 from tasks t where t.instance_id = i.id and not t.deleted and t.status in ${OPEN}
          and (t.assignee = ? or t.owner = ?)))
       or (?::boolean and exists (select 1 from tasks t where t.instance_id = i.id and not t.deleted and t.status in ${OPEN}
          and jsonb_exists(t.candidates->'userIds', ?)))
       or (?::boolean and i.initiator_id = ?))
     order by i.start_time, i.id`,
    [tenantId, scope.tasks, fromUserId, fromUserId, scope.pools, fromUserId, scope.startedInstances, fromUserId],
  );

  const actor = actorOf(principal);
  const input = { actor, fromUserId, toUserId: body.toUserId, reason: body.reason, scope };
  const failures: Array<{ instanceId: string; code: number; message: string }> = [];
  const outcomes = await mapBounded(rows, deps.config.HANDOVER_CONCURRENCY, async ({ id }) => {
    try {
      const result = await runUpdate(deps, tenantId, id, m.handoverUser, input);
      return { instanceId: id, ...result.handover! } satisfies InstanceOutcome;
    } catch (err) {
      const failure = failureOf(err);
      // An instance that ended meanwhile has nothing left to hand over.
      if (failure.type === 'INVALID_STATE') return null;
      failures.push({ instanceId: id, code: failure.code, message: failure.message });
      deps.logger.warn({ err, instanceId: id }, 'handover failed for one instance');
      return null;
    }
  });

  const moved = outcomes.filter((o): o is InstanceOutcome => o !== null);
  const sum = (k: 'tasks' | 'delegated' | 'poolMemberships' | 'instances') => moved.reduce((n, o) => n + o[k], 0);
  return {
    fromUserId,
    toUserId: body.toUserId,
    scope,
    counts: {
      tasks: sum('tasks'),
      delegated: sum('delegated'),
      poolMemberships: sum('poolMemberships'),
      instances: sum('instances'),
    },
    perInstance: moved
      .filter((o) => o.tasks + o.delegated + o.poolMemberships + o.instances + o.skipped.length > 0)
      .map(({ instanceId, tasks, delegated, poolMemberships, instances }) => ({
        instanceId,
        tasks,
        delegated,
        poolMemberships,
        initiator: instances > 0,
      })),
    skipped: moved.flatMap((o) => o.skipped.map((s) => ({ instanceId: o.instanceId, ...s }))),
    failures,
  };
}
