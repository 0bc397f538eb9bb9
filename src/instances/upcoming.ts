// The "upcoming" prediction of an instance: approval nodes ahead of the current ones, with
// the approvers they would get now. Read from the path ahead (prediction.ts), which a simulated
// start reads too.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ProcessDocument, UndecidedBy } from '../../dsl/index.js';
import { predictPath } from '../definitions/prediction.js';

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
  const steps = await predictPath(em, {
    info: {
      id: row.id,
      tenantId,
      definitionId: row.definition_id,
      processKey: row.process_key,
      processVersion: row.process_version ?? null,
      processName: row.process_name,
      businessKey: row.business_key ?? null,
      initiatorId: row.initiator_id,
      startTime: String(row.start_time),
    },
    doc,
    variables: (row.variables ?? {}) as Record<string, unknown>,
    from: current,
    approvalsOnly: true,
  });
  return steps.map(({ node, undecided, undecidedBy, assignment }) => ({
    activityId: node.id,
    name: node.name ?? node.id,
    // Who would hold a task: the ballots, the people of a claim, the admins of a fallback; a
    // role/department pool names its candidates instead.
    approvers: assignment && assignment.mode !== 'pool' ? assignment.approvers.map((a) => a.userId) : [],
    candidates: { roleIds: assignment?.candidates.roleIds ?? [], deptIds: assignment?.candidates.deptIds ?? [] },
    undecided,
    undecidedBy,
  }));
}
