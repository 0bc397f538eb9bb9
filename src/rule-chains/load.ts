// What a running chain looks up at run time: the deployed version of a sub-chain (`flow`) and how a
// `functions` node's name is served (a built-in, or a catalogue entry: activity or webhook).
import type { EntityManager } from '@mikro-orm/postgresql';
import type { FunctionBinding } from '../../dsl/index.js';
import type { RuleChainDsl } from '../../chains/types.js';
import { ServiceFunction } from '../db/entities/index.js';
import { serviceFunctionNames } from '../definitions/builtin-functions.js';

export interface DeployedChain {
  chainId: string;
  name: string;
  version: number;
  disabled: boolean;
  dsl: RuleChainDsl;
}

/** The chain's deployed version (its head row), or null when the tenant has no such chain. */
export async function loadDeployedChain(
  em: EntityManager,
  tenantId: string,
  chainId: string,
): Promise<DeployedChain | null> {
  const [row] = await em.execute<
    Array<{ id: string; name: string; version: number; disabled: boolean; dsl: RuleChainDsl }>
  >('select id, name, version, disabled, dsl from rule_chains where tenant_id = ? and id = ?', [tenantId, chainId]);
  if (!row) return null;
  return { chainId: row.id, name: row.name, version: Number(row.version), disabled: row.disabled, dsl: row.dsl };
}

export type FunctionTarget =
  { kind: 'builtin' } | { kind: 'catalogue'; binding: FunctionBinding } | { kind: 'missing' };

/** How the tenant's function `name` is called now (a chain is not pinned to a catalogue entry as a process is). */
export async function resolveFunction(em: EntityManager, tenantId: string, name: string): Promise<FunctionTarget> {
  const row = await em.findOne(ServiceFunction, { tenantId, name });
  if (row)
    return {
      kind: 'catalogue',
      binding: {
        id: row.id,
        kind: row.kind,
        ...(row.kind === 'activity'
          ? { taskQueue: row.taskQueue!, activityType: row.activityType! }
          : { url: row.url! }),
        timeoutMs: row.timeoutMs,
        retry: row.retry,
      },
    };
  return serviceFunctionNames.includes(name) ? { kind: 'builtin' } : { kind: 'missing' };
}
