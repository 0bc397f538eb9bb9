// An instance's variables: read by whoever may read the instance; written by its initiator or an
// instance manager, through the workflow while it runs and in place while it is a draft.
import { AppError } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import * as m from '../../workflows/messages.js';
import { checkVariables } from '../definitions/form-values.js';
import { actorOf, runUpdate } from '../temporal/engine-client.js';
import { holds, Permissions } from '../permissions.js';
import { definitionOf, findInstanceRow } from '../read-model/read-model.js';
import { readableInstance } from './instances.js';
import { attachWrittenFiles, detach } from '../attachments/attachments.js';
import { WorkflowUpdateFailedError } from '@temporalio/client';

export async function getVariables(deps: AppDeps, principal: Principal, id: string) {
  const em = deps.orm.em.fork();
  const row = await readableInstance(em, principal, id);
  return (row.variables ?? {}) as Record<string, unknown>;
}

/** Writes go through the workflow while it runs; a draft's variables are edited in place. */
export async function writeVariables(
  deps: AppDeps,
  principal: Principal,
  id: string,
  change: { set?: Record<string, unknown>; delete?: string[] },
  idempotencyKey?: string,
) {
  const em = deps.orm.em.fork();
  const row = await readableInstance(em, principal, id);
  const mayWrite = row.initiator_id === principal.userId || holds(principal.permissions, Permissions.INSTANCE_MANAGE);
  if (!mayWrite)
    throw new AppError('FORBIDDEN', 'Only the initiator or workflow:instance:manage may change instance variables');
  if (change.delete?.length) {
    const missing = change.delete.filter((n) => !Object.hasOwn(row.variables ?? {}, n));
    if (missing.length) throw new AppError('NOT_FOUND', `No variable ${missing.join(', ')}`);
  }
  if (row.status === 'draft') {
    const vars = { ...(row.variables ?? {}), ...(change.set ?? {}) };
    for (const n of change.delete ?? []) delete vars[n];
    checkVariables((await definitionOf(em, row))?.form, vars, { requireAll: false });
    await attachWrittenFiles(em, principal, row, change.set);
    await em.execute(
      `update instances set variables = ?::jsonb, updated_at = now() where id = ? and status = 'draft'`,
      [JSON.stringify(vars), id],
    );
    return vars;
  }
  if (row.archived) throw new AppError('INVALID_STATE', `The instance has ended (${row.status})`);
  if (change.set)
    checkVariables((await definitionOf(em, row))?.form, change.set, {
      requireAll: false,
      only: Object.keys(change.set),
    });
  const actor = actorOf(principal);
  const attached = await attachWrittenFiles(em, principal, row, change.set);
  try {
    await runUpdate(
      deps,
      principal.tenantId,
      id,
      m.setVariables,
      { actor, variables: change.set, deleteNames: change.delete },
      idempotencyKey,
    );
  } catch (err) {
    // Refused: the files are the writer's again (an unknown outcome keeps them, see tasks.ts).
    if (err instanceof AppError || err instanceof WorkflowUpdateFailedError)
      await detach(em, principal.tenantId, attached);
    throw err;
  }
  return (await findInstanceRow(em, principal.tenantId, id)).variables as Record<string, unknown>;
}
