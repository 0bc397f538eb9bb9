// Where approvals and chains meet, on the server's side: a chain's `startProcess` node starts an
// approval (GFlow's components/start_process_node.go), and a process's `automation` node reads the
// chain it runs. Both run in the worker's activities (activities/chain-start-process.ts).
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';
import type { AppDeps } from '../context.js';
import { loadPrincipal } from '../directory/auth.js';
import { holds, Permissions } from '../permissions.js';
import { startInstance } from '../instances/instances.js';
import type { RuleChainDsl } from '../../chains/types.js';
import { loadDeployedChain } from './load.js';

/** A chain as a run needs it: its deployed version and document, or why it cannot run. */
export type ChainForRun =
  { status: 'ok'; version: number; dsl: RuleChainDsl } | { status: 'missing' } | { status: 'stopped' };

/** The chain's deployed version (one primary-key read of its head row). */
export async function loadChainForRun(em: EntityManager, tenantId: string, chainId: string): Promise<ChainForRun> {
  const chain = await loadDeployedChain(em, tenantId, chainId);
  if (!chain) return { status: 'missing' };
  if (chain.disabled) return { status: 'stopped' };
  return { status: 'ok', version: chain.version, dsl: chain.dsl };
}

export interface ChainStartProcessInput {
  tenantId: string;
  processKey: string;
  /** A user id or username of the tenant: the instance's initiator. */
  initiator: string;
  businessKey?: string | null;
  variables?: Record<string, unknown>;
  /** One per node visit of the chain run: a retry with it starts nothing new. */
  callId: string;
}

/** What the starter needs of the server's dependencies (startInstance reads no more of AppDeps). */
export type StartDeps = Pick<AppDeps, 'config' | 'orm' | 'temporal' | 'writeState' | 'intents'>;

/**
 * The instance id of a call: a UUID made from the tenant and the callId, so a retried activity
 * finds the instance its first attempt started (or attaches to its workflow) instead of starting
 * another.
 */
export function instanceIdOfCall(tenantId: string, callId: string): string {
  const h = createHash('sha256').update(`chain-start-process\0${tenantId}\0${callId}`).digest('hex');
  // Laid out as a UUID (version 8: custom), as instance ids are.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function existingInstance(em: EntityManager, id: string): Promise<boolean> {
  const rows = await em.execute(
    'select 1 from instances where id = ? union all select 1 from instances_archive where id = ?',
    [id, id],
  );
  return rows.length > 0;
}

/** The initiator, by id or username, active, holding the permission to start: else a clear refusal. */
async function initiatorOf(em: EntityManager, tenantId: string, initiator: string) {
  const [user] = await em.execute<Array<{ id: string; active: boolean }>>(
    `select id, active from users where tenant_id = ? and (id = ? or username = ?) order by (id = ?) desc limit 1`,
    [tenantId, initiator, initiator, initiator],
  );
  if (!user)
    throw new AppError('REFERENCE_NOT_FOUND', `startProcess: initiator ${initiator} is not a user of the tenant`, {
      fields: [{ path: 'initiator', message: 'no such user' }],
    });
  if (!user.active)
    throw new AppError('USER_INACTIVE', `startProcess: initiator ${initiator} is deactivated`, {
      fields: [{ path: 'initiator', message: 'deactivated' }],
    });
  const principal = await loadPrincipal(em, tenantId, user.id);
  if (!holds(principal.permissions, Permissions.INSTANCE_START))
    throw new AppError('FORBIDDEN', `startProcess: initiator ${initiator} may not start processes`);
  return principal;
}

/**
 * Starts an approval of the process key's active version as `initiator`. Idempotent per callId:
 * the instance id comes from it, so a second call answers the instance the first one started.
 */
export async function startProcessFromChain(
  deps: StartDeps,
  input: ChainStartProcessInput,
): Promise<{ processInstanceId: string }> {
  const em = deps.orm.em.fork();
  const id = instanceIdOfCall(input.tenantId, input.callId);
  if (await existingInstance(em, id)) return { processInstanceId: id };
  const principal = await initiatorOf(em, input.tenantId, input.initiator);
  try {
    await startInstance(deps as AppDeps, principal, {
      processKey: input.processKey,
      businessKey: input.businessKey || null,
      variables: input.variables ?? {},
      instanceId: id,
    });
  } catch (err) {
    // A concurrent attempt of the same call inserted the row first (the unique key it hit is the id).
    if (err instanceof AppError && err.type === 'BUSINESS_KEY_IN_USE' && (await existingInstance(em, id)))
      return { processInstanceId: id };
    throw err;
  }
  return { processInstanceId: id };
}
