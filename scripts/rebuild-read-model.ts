// `npm run rebuild-read-model [-- --tenant <id>]` (or `node dist/scripts/rebuild-read-model.js`):
// writes the `instances` and `tasks` rows of every running instance back from its workflow's
// state (the `readModelState` query), through the same projection code the workers use. Safe to
// run at any time: rows already current are left alone (the projection only writes newer sequence
// numbers), the workers keep projecting meanwhile. See docs/operations.md#rebuilding-the-read-model.
import type { Client } from '@temporalio/client';
import { restoreAssignmentReasons, writeProjection } from '../src/read-model/writer.js';
import { loadConfig } from '../src/config.js';
import { createOrm, migrate, type Orm } from '../src/db/orm.js';
import { createLogger, type Logger } from '../src/observability/logger.js';
import { requireRuntimeEnv } from '../src/main/server.js';
import { createTemporalClient } from '../src/temporal/client.js';
import { readModelState } from '../workflows/read-model.js';

export interface RebuildReport {
  /** Running workflows found in Temporal's visibility store. */
  running: number;
  /** Instances whose rows were written (or found current). */
  rebuilt: number;
  /**
   * Listed as running but already ended: their own last projection archives them. The list lags
   * the workflow by a moment (visibility is written after the run closes), so a just-finished
   * instance lands here (by workflow id) rather than being written back.
   */
  ended: string[];
  /** Workflows that did not answer the query (no worker, or a worker without the query). */
  failed: Array<{ workflowId: string; error: string }>;
  /** `instances` rows whose workflow is not running: ended after the backup they came from. */
  orphans: string[];
}

export async function rebuildReadModel(deps: {
  orm: Orm;
  client: Client;
  logger: Logger;
  tenantId?: string;
  concurrency?: number;
}): Promise<RebuildReport> {
  const tenantFilter = deps.tenantId ? ` AND TenantId = '${deps.tenantId.replace(/'/g, '')}'` : '';
  const query = `WorkflowType = 'approvalProcess' AND ExecutionStatus = 'Running'${tenantFilter}`;
  const report: RebuildReport = { running: 0, rebuilt: 0, ended: [], failed: [], orphans: [] };
  const runningIds = new Set<string>();
  const queue: string[] = [];
  for await (const wf of deps.client.workflow.list({ query })) {
    queue.push(wf.workflowId);
    runningIds.add(wf.workflowId);
  }
  report.running = queue.length;
  const one = async (workflowId: string) => {
    try {
      const snapshot = await deps.client.workflow.getHandle(workflowId).query(readModelState);
      if (snapshot.ended) {
        report.ended.push(workflowId);
        return;
      }
      await writeProjection(deps.orm, snapshot);
      await restoreAssignmentReasons(deps.orm.em.fork(), snapshot.instance.id);
      report.rebuilt++;
    } catch (err) {
      report.failed.push({ workflowId, error: (err as Error).message });
    }
  };
  await Promise.all(
    Array.from({ length: deps.concurrency ?? 8 }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) await one(id);
    }),
  );
  const rows = await deps.orm.em
    .fork()
    .execute<{ workflow_id: string | null }[]>(
      `select workflow_id from instances${deps.tenantId ? ' where tenant_id = ?' : ''}`,
      deps.tenantId ? [deps.tenantId] : [],
    );
  report.orphans = rows.map((r) => r.workflow_id ?? '').filter((id) => !runningIds.has(id));
  return report;
}

async function main() {
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL, 'rebuild-read-model');
  const { databaseUrl } = requireRuntimeEnv(config);
  const tenantArg = process.argv.indexOf('--tenant');
  const tenantId = tenantArg > 0 ? process.argv[tenantArg + 1] : undefined;
  const orm = await createOrm(databaseUrl);
  const client = createTemporalClient(config);
  try {
    // A fresh (empty) database gets its tables first.
    await migrate(orm);
    const report = await rebuildReadModel({ orm, client, logger, tenantId });
    console.log(JSON.stringify(report, null, 2));
    if (report.failed.length) process.exitCode = 1;
  } finally {
    await client.connection.close().catch(() => undefined);
    await orm.close();
  }
}

if (
  import.meta.filename === process.argv[1] ||
  process.argv[1]?.endsWith('rebuild-read-model.ts') ||
  process.argv[1]?.endsWith('rebuild-read-model.js')
) {
  await main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
