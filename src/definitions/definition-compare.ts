// GET /process-definitions/{id}/compare/{otherId}: what changed from one definition to another of
// the same tenant, node by node (the diff itself is pure: dsl/compare.ts).
import type { EntityManager } from '@mikro-orm/postgresql';
import { compareDefinitions, parseProcess, type ProcessDocument } from '../../dsl/index.js';
import type { IProcessDefinition } from '../db/entities/index.js';
import { getDefinition, withRedactedFunctions } from './definitions.js';

/**
 * A definition's document as publishing would read it: a draft keeps what the designer wrote,
 * older keys and all, so both sides are normalised alike (one that does not parse is compared
 * as written). The pinned functions stay: parsing drops them.
 */
function documentOf(row: IProcessDefinition): ProcessDocument {
  const raw = row.dsl as unknown as ProcessDocument;
  const parsed = parseProcess(raw).doc;
  return withRedactedFunctions(parsed ? { ...parsed, ...(raw.functions ? { functions: raw.functions } : {}) } : raw);
}

const versionOf = (row: IProcessDefinition) => ({
  id: row.id,
  key: row.key,
  name: row.name,
  version: row.version ?? null,
  status: row.status,
});

export async function compareVersions(em: EntityManager, tenantId: string, id: string, otherId: string) {
  const before = await getDefinition(em, tenantId, id);
  const after = await getDefinition(em, tenantId, otherId);
  return {
    from: versionOf(before),
    to: versionOf(after),
    ...compareDefinitions(documentOf(before), documentOf(after)),
  };
}
