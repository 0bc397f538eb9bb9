// The "upcoming" prediction of an instance: approval nodes ahead of the current ones, with
// the approvers they would get now.
import type { EntityManager } from '@mikro-orm/postgresql';
import { approvalNodesAhead, type ProcessDocument, type UndecidedBy } from '../../dsl/index.js';
import { pgDirectory, resolveApprovers } from '../../activities/approvers.js';
import { config } from '../../workflows/engine/user-task.js';

export interface UpcomingEntry {
  activityId: string;
  name: string;
  approvers: string[];
  candidates: { roleIds: string[]; deptIds: string[] };
  undecided: boolean;
  /** The open switch/inclusive, the variable it needs, the node that would set it (null: missing now). */
  undecidedBy: UndecidedBy[];
}

const ENDED = ['completed', 'rejected', 'terminated'];

export async function predictUpcoming(
  em: EntityManager,
  tenantId: string,
  row: any,
  def: { dsl: ProcessDocument } | null,
): Promise<UpcomingEntry[]> {
  if (ENDED.includes(row.status)) return [];
  const doc = def?.dsl;
  if (!doc) return [];
  const first = doc.metadata.nodes[doc.metadata.firstNodeIndex ?? 0]?.id;
  const current: string[] = row.current_nodes?.length
    ? row.current_nodes
    : row.status === 'draft' && first
      ? [first]
      : [];
  if (!current.length) return [];
  const out: UpcomingEntry[] = [];
  const currentIds = new Set(current);
  // One directory lookup per distinct approver rule, not per node.
  const resolvedBy = new Map<string, ReturnType<typeof resolveApprovers>>();
  const known = {
    msg: (row.variables ?? {}) as Record<string, unknown>,
    metadata: {
      instance_id: row.id,
      process_key: row.process_key,
      business_key: row.business_key,
      owner: row.initiator_id,
      tenant_id: tenantId,
    },
  };
  for (const { node, undecided, undecidedBy } of approvalNodesAhead(doc, current, known)) {
    if (currentIds.has(node.id)) continue;
    const approver = config(node).approver ?? { type: 'user' };
    let approvers: string[];
    let candidates = { roleIds: [] as string[], deptIds: [] as string[] };
    if (approver.type === 'initiatorSelect') {
      const picked = /^\$\{msg\.([A-Za-z0-9_]+)\}$/.exec(approver.expression ?? '')?.[1];
      const value = picked ? row.variables?.[picked] : undefined;
      approvers = Array.isArray(value)
        ? value.map(String)
        : typeof value === 'string'
          ? value.split(',').map((s) => s.trim())
          : [];
    } else {
      const key = JSON.stringify(approver);
      let pending = resolvedBy.get(key);
      if (!pending)
        resolvedBy.set(
          key,
          (pending = resolveApprovers(
            pgDirectory(em, tenantId),
            { tenantId, initiatorId: row.initiator_id, approver },
            { lean: true },
          )),
        );
      const resolved = await pending;
      approvers = resolved.users.map((u) => u.userId);
      if (resolved.pool) candidates = { roleIds: resolved.pool.roleIds, deptIds: resolved.pool.deptIds };
    }
    out.push({ activityId: node.id, name: node.name ?? node.id, approvers, candidates, undecided, undecidedBy });
  }
  return out;
}
