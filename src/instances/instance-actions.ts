// Instance lifecycle actions sent to the workflow: withdraw, terminate, complete, suspend, activate.
import { AppError } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import * as m from '../../workflows/messages.js';
import { actorOf, runUpdate } from '../temporal/engine-client.js';
import { holds, Permissions } from '../permissions.js';
import { findInstanceRow } from '../read-model/read-model.js';
import { readableInstance } from './instances.js';

const ENDED = ['completed', 'rejected', 'terminated'];

/** The body's `reason` is the trail comment; `comment` is its deprecated alias (docs/task-actions.md). */
export const reasonOf = (body: { reason?: string; comment?: string }) => body.reason ?? body.comment;

export type InstanceAction = 'withdraw' | 'terminate' | 'complete' | 'suspend' | 'activate';

export async function instanceAction(
  deps: AppDeps,
  principal: Principal,
  id: string,
  action: InstanceAction,
  body: { reason?: string; comment?: string },
  idempotencyKey?: string,
) {
  if (action === 'suspend' || action === 'activate')
    return suspendOrActivateInstance(deps, principal, id, action, body, idempotencyKey);
  const em = deps.orm.em.fork();
  if (action !== 'withdraw' && !holds(principal.permissions, Permissions.INSTANCE_MANAGE)) {
    throw new AppError('FORBIDDEN', 'Permission required: workflow:instance:manage');
  }
  const row = await readableInstance(em, principal, id);
  if (action === 'withdraw' && row.initiator_id !== principal.userId)
    throw new AppError('NOT_INITIATOR', 'Only the initiator may withdraw the application');
  if (row.status === 'draft') {
    if (action !== 'withdraw') throw new AppError('INVALID_STATE', 'A draft is not running: delete it instead');
    throw new AppError('INVALID_STATE', 'A draft is not submitted: delete it instead of withdrawing');
  }
  if (ENDED.includes(row.status)) {
    // Repeating terminate/complete on an ended instance is a harmless no-op.
    if (action !== 'withdraw') return { id, status: row.status as string };
    throw new AppError('INVALID_STATE', `The instance has ended (${row.status})`);
  }
  const def = { withdraw: m.withdraw, terminate: m.terminate, complete: m.completeInstance }[action];
  return updateAndAnswer(deps, principal, id, def, body, idempotencyKey);
}

/** Sends the Update with the caller's reason, then answers the instance's status as projected. */
async function updateAndAnswer(
  deps: AppDeps,
  principal: Principal,
  id: string,
  def: Parameters<typeof runUpdate>[3],
  body: { reason?: string; comment?: string },
  idempotencyKey: string | undefined,
) {
  const reason = reasonOf(body);
  await runUpdate(deps, principal.tenantId, id, def, { actor: actorOf(principal), reason }, idempotencyKey);
  const after = await findInstanceRow(deps.orm.em.fork(), principal.tenantId, id);
  return { id, status: after.status as string };
}

/** The initiator (process switch `suspend`, checked by the workflow) or workflow:instance:manage. */
async function suspendOrActivateInstance(
  deps: AppDeps,
  principal: Principal,
  id: string,
  action: 'suspend' | 'activate',
  body: { reason?: string; comment?: string },
  idempotencyKey?: string,
) {
  const em = deps.orm.em.fork();
  const row = await readableInstance(em, principal, id);
  const manage = holds(principal.permissions, Permissions.INSTANCE_MANAGE);
  if (!manage && row.initiator_id !== principal.userId)
    throw new AppError('NOT_INITIATOR', 'Only the initiator or workflow:instance:manage may suspend or activate');
  if (row.status === 'draft')
    throw new AppError(
      'INVALID_STATE',
      `A draft is not running: it cannot be ${action === 'suspend' ? 'suspended' : 'activated'}`,
    );
  if (row.archived) throw new AppError('INVALID_STATE', `The instance has ended (${row.status})`);
  const def = action === 'suspend' ? m.suspendInstance : m.activateInstance;
  return updateAndAnswer(deps, principal, id, def, body, idempotencyKey);
}
