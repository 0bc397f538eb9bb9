// Instance repairs and deletion (docs/contract.md#action-rules): re-drive and force-resume go to the workflow
// (workflow:admin); delete removes a draft or an ended instance from every read-model table.
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import type { AppDeps, Principal } from '../context.js';
import * as m from '../../workflows/messages.js';
import { actorOf, runUpdate } from '../temporal/engine-client.js';
import { holds, Permissions } from '../permissions.js';
import { definitionOf, findInstanceRow } from '../read-model/read-model.js';
import { launch, readableInstance } from './instances.js';
import { markInstanceFilesDeleted } from '../attachments/attachments.js';

/** workflow:admin acts on every instance of the tenant; anyone else only on those they may read. */
async function instanceFor(em: EntityManager, principal: Principal, id: string) {
  if (holds(principal.permissions, Permissions.ADMIN)) return findInstanceRow(em, principal.tenantId, id);
  return readableInstance(em, principal, id);
}

function requireRunning(row: { status: string; archived: boolean }) {
  if (row.status === 'draft') throw new AppError('INVALID_STATE', 'A draft is not running: submit it first');
  if (row.archived) throw new AppError('INVALID_STATE', `The instance has ended (${row.status})`);
  if (row.status === 'suspended') throw new AppError('INVALID_STATE', 'The instance is suspended: activate it first');
}

/** Re-drive (failed or stuck) and force-resume (a join that never fired). */
export async function repair(
  deps: AppDeps,
  principal: Principal,
  id: string,
  action: 're-drive' | 'force-resume',
  body: { reason?: string },
  idempotencyKey?: string,
) {
  const em = deps.orm.em.fork();
  const row = await instanceFor(em, principal, id);
  requireRunning(row);
  // A row never projected has no running workflow yet (a crash between the row's insert and
  // the workflow's start): re-drive starts it.
  if (action === 're-drive' && Number(row.seq) === 0 && row.status === 'active') {
    const definition = await definitionOf(em, row);
    if (!definition) throw new AppError('NOT_FOUND', 'The definition of this instance no longer exists');
    await launch(deps, row, definition.dsl);
  } else {
    const def = action === 're-drive' ? m.reDrive : m.forceResume;
    await runUpdate(deps, principal.tenantId, id, def, { actor: actorOf(principal), ...body }, idempotencyKey);
  }
  const after = await findInstanceRow(em, principal.tenantId, id);
  return {
    id,
    status: after.status as string,
    currentNodes: (after.current_nodes ?? []) as string[],
    detail: (after.detail ?? null) as Record<string, unknown> | null,
  };
}

// ---------- delete ----------

const INSTANCE_TABLES = ['tasks', 'tasks_archive', 'trail', 'cc_records', 'task_comments', 'notifications'];

/** A draft by its initiator; an ended instance by workflow:admin; a running one is 409. */
export async function deleteInstance(deps: AppDeps, principal: Principal, id: string) {
  const em = deps.orm.em.fork();
  const row = await instanceFor(em, principal, id);
  const draft = row.status === 'draft';
  if (draft && row.initiator_id !== principal.userId)
    throw new AppError('NOT_INITIATOR', 'Only the initiator may delete a draft');
  if (!draft && !holds(principal.permissions, Permissions.ADMIN))
    throw new AppError('FORBIDDEN', 'Permission required: workflow:admin');
  if (!draft && !row.archived) throw new AppError('INVALID_STATE', `The instance is ${row.status}: terminate it first`);
  await em.transactional(async (tx) => {
    // The status condition loses the race against a concurrent submit of the draft.
    const gone = draft
      ? await tx.execute(`delete from instances where tenant_id = ? and id = ? and status = 'draft' returning id`, [
          principal.tenantId,
          id,
        ])
      : await tx.execute(`delete from instances_archive where tenant_id = ? and id = ? returning id`, [
          principal.tenantId,
          id,
        ]);
    if (!gone.length) throw new AppError('INVALID_STATE', 'The instance changed meanwhile: read it again');
    for (const table of INSTANCE_TABLES)
      await tx.execute(`delete from ${table} where tenant_id = ? and instance_id = ?`, [principal.tenantId, id]);
    // The files go with it: the sweeper removes their objects.
    await markInstanceFilesDeleted(tx, principal.tenantId, id);
  });
  return { id, deleted: true as const };
}

export interface DeleteResult {
  id: string;
  ok: boolean;
  code: number;
  message: string;
}

/** Deletes each id on its own; one refusal does not stop the others. */
export async function deleteInstances(
  deps: AppDeps,
  principal: Principal,
  ids: string[],
): Promise<{ results: DeleteResult[] }> {
  const results: DeleteResult[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      await deleteInstance(deps, principal, id);
      results.push({ id, ok: true, code: 0, message: 'deleted' });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      results.push({ id, ok: false, code: err.code, message: err.message });
    }
  }
  return { results };
}
