// The HTTP side's access to instance workflows: start, and Updates with idempotency.
import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation, WorkflowNotFoundError, WorkflowUpdateFailedError, ServiceError, type Client } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import { AppError } from '../errors.js';
import type { Config } from '../config.js';
import * as m from '../../workflows/messages.js';
import * as sa from '../../workflows/search-attributes.js';
import type { ActionResult, StartInput } from '../../workflows/engine/types.js';
import type { Principal } from '../http/context.js';
import { holds, Permissions } from './permissions.js';

export { workflowIdOf } from '../../workflows/search-attributes.js';

export async function startInstanceWorkflow(client: Client, config: Config, input: StartInput): Promise<ActionResult> {
  const { instance } = input;
  const start = new WithStartWorkflowOperation('approvalProcess', {
    workflowId: sa.workflowIdOf(instance.tenantId, instance.id),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: [
      { key: sa.ProcessKey, value: instance.processKey },
      { key: sa.BusinessKey, value: instance.businessKey ?? '' },
      { key: sa.InstanceStatus, value: 'active' },
      { key: sa.Initiator, value: instance.initiatorId },
      { key: sa.TenantId, value: instance.tenantId },
    ],
    memo: { processName: instance.processName, processVersion: instance.processVersion, definitionId: instance.definitionId },
  });
  return client.workflow.executeUpdateWithStart(m.sync, { startWorkflowOperation: start, updateId: `start-${instance.id}` });
}

/**
 * Runs an Update on a live instance. `scopedKey` is the Idempotency-Key already scoped to the
 * caller and the request and bound to its body (src/http/idempotency.ts), never the raw header:
 * a raw key would let another user's or another task's request with the same key receive this
 * request's answer instead of taking effect. Without one, every call is a new Update.
 */
export async function runUpdate<A>(
  client: Client,
  tenantId: string,
  instanceId: string,
  def: UpdateDefinition<ActionResult, [A]>,
  arg: A,
  scopedKey?: string,
): Promise<ActionResult> {
  const handle = client.workflow.getHandle(sa.workflowIdOf(tenantId, instanceId));
  const updateId = scopedKey ? `${def.name}:${scopedKey}` : randomUUID();
  try {
    return await retryUnprocessed(() => handle.executeUpdate(def, { args: [arg], updateId }));
  } catch (err) {
    if (err instanceof WorkflowNotFoundError || (err instanceof ServiceError && /not found|already completed/i.test(err.message))) {
      throw new AppError('INVALID_STATE', 'The instance has ended');
    }
    throw err;
  }
}

/**
 * The server refuses an Update "because it wasn't processed by worker" when the workflow task
 * that carried it was lost (a worker restart or eviction under it). Nothing of it ran, so it is
 * sent again (same id) instead of answering 500.
 */
async function retryUnprocessed<T>(send: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await send();
    } catch (err) {
      const unprocessed = err instanceof WorkflowUpdateFailedError && /wasn't processed by worker/i.test(`${err.message} ${err.cause?.message ?? ''}`);
      if (!unprocessed || i >= attempts) throw err;
      await new Promise((r) => setTimeout(r, 50 * i));
    }
  }
}

/** The caller as the workflow needs them: id, powers, roles and department for pools. */
export function actorOf(principal: Principal): m.Actor {
  return {
    userId: principal.userId,
    admin: holds(principal.permissions, Permissions.ADMIN),
    manage: holds(principal.permissions, Permissions.INSTANCE_MANAGE),
    monitor: holds(principal.permissions, Permissions.MONITOR),
    roles: principal.roles,
    deptId: principal.deptId,
  };
}
