// Reading and deleting the run log (RuleGo's /logs/runs): the rows the chain-run workflow wrote
// (runs.ts). A run still going whose row has no node log yet asks the workflow for its record.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client } from '@temporalio/client';
import type { NodeRunLog } from '../../chains/types.js';
import { AppError } from '../errors.js';
import { RuleChainRun, type IRuleChainRun } from '../db/entities/index.js';

/** The query a running chainRun workflow answers with its node log so far. */
export const CHAIN_RUN_STATE_QUERY = 'chainRunState';

/** RuleGo's run summary (`logs` left out of lists), plus ours: status, trigger, version, error node. */
export function runSummary(row: IRuleChainRun) {
  return {
    id: row.id,
    chainId: row.chainId,
    chainName: row.chainName,
    startTs: row.startedAt.getTime(),
    endTs: row.endedAt ? row.endedAt.getTime() : 0,
    success: row.status === 'succeeded',
    errorMsg: row.errorMsg ?? '',
    status: row.status,
    trigger: row.trigger,
    chainVersion: row.chainVersion,
    errorNodeId: row.errorNode ?? null,
  };
}

export interface RunFilter {
  chainId?: string;
  /** Epoch ms, inclusive. */
  startTime?: number;
  endTime?: number;
  page: number;
  size: number;
}

/** Newest first. */
export async function listRuns(em: EntityManager, tenantId: string, f: RunFilter) {
  const where: Record<string, unknown> = { tenantId };
  if (f.chainId) where.chainId = f.chainId;
  const started: Record<string, Date> = {};
  if (f.startTime !== undefined) started.$gte = new Date(f.startTime);
  if (f.endTime !== undefined) started.$lte = new Date(f.endTime);
  if (Object.keys(started).length) where.startedAt = started;
  const [rows, total] = await em.findAndCount(RuleChainRun, where, {
    orderBy: { startedAt: 'desc', id: 'asc' },
    limit: f.size,
    offset: (f.page - 1) * f.size,
    exclude: ['logs', 'inMsg', 'outMsg'] as never,
  });
  return { total, page: f.page, size: f.size, items: rows.map((r) => ({ ...runSummary(r), logs: null })) };
}

const asLogs = (v: unknown): NodeRunLog[] | null =>
  Array.isArray(v)
    ? (v as NodeRunLog[])
    : v && typeof v === 'object' && Array.isArray((v as any).logs)
      ? (v as any).logs
      : null;

/** One run with its node log and messages; 404 for another tenant's. */
export async function getRun(em: EntityManager, temporal: Client, tenantId: string, id: string) {
  const row = await em.findOne(RuleChainRun, { tenantId, id });
  if (!row) throw new AppError('NOT_FOUND', `No run ${id}`);
  let logs = row.logs ?? [];
  if (row.status === 'running' && !logs.length) {
    try {
      logs = asLogs(await temporal.workflow.getHandle(row.workflowId).query(CHAIN_RUN_STATE_QUERY)) ?? logs;
    } catch {
      // Ended in between, or not queryable: the row is what there is.
    }
  }
  return { ...runSummary(row), inMsg: row.inMsg, outMsg: row.outMsg ?? null, logs };
}

/** DELETE /logs/runs: one run (`id`) or every run of a chain (`chainId`). */
export async function deleteRuns(em: EntityManager, tenantId: string, by: { id?: string; chainId?: string }) {
  if (!by.id && !by.chainId)
    throw new AppError('VALIDATION_FAILED', 'Name the run (id) or the chain (chainId) whose runs go', {
      fields: [{ path: 'query', message: 'id or chainId is required' }],
    });
  const where: Record<string, unknown> = { tenantId };
  if (by.id) where.id = by.id;
  if (by.chainId) where.chainId = by.chainId;
  await em.nativeDelete(RuleChainRun, where);
}
