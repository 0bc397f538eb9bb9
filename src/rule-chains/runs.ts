// The run's row in rule_chain_runs, written by the chain-run workflow (local activities
// beginChainRun / finishChainRun) from its own record. Both writes are idempotent: a retried
// activity or a replayed workflow writes the same row again, never a second one.
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChainTrigger, NodeRunLog, RuleMsg } from '../../chains/types.js';

export interface RunBegin {
  runId: string;
  tenantId: string;
  chainId: string;
  chainVersion: number;
  chainName: string;
  workflowId: string;
  trigger: ChainTrigger;
  inMsg: RuleMsg;
  /** Workflow time, epoch ms. */
  startedAt: number;
}

export interface RunFinish extends RunBegin {
  success: boolean;
  errorNode: string | null;
  errorMsg: string | null;
  outMsg: RuleMsg | null;
  logs: NodeRunLog[];
  endedAt: number;
}

const COLUMNS = `id, tenant_id, chain_id, chain_version, chain_name, workflow_id, trigger, status, in_msg, logs, started_at`;
const iso = (ms: number) => new Date(ms).toISOString();

/** Inserts the running row; a row already there (a retry, a replay) is left as it is. */
export async function beginRun(em: EntityManager, run: RunBegin): Promise<void> {
  await em.execute(
    `insert into rule_chain_runs (${COLUMNS})
     values (?, ?, ?, ?, ?, ?, ?::jsonb, 'running', ?::jsonb, '[]'::jsonb, ?)
     on conflict (id) do nothing`,
    [
      run.runId,
      run.tenantId,
      run.chainId,
      run.chainVersion,
      run.chainName,
      run.workflowId,
      JSON.stringify(run.trigger),
      JSON.stringify(run.inMsg),
      iso(run.startedAt),
    ],
  );
}

/** Writes the ended run (inserting it when its beginning never landed); only the run's own tenant's row. */
export async function finishRun(em: EntityManager, run: RunFinish): Promise<void> {
  await em.execute(
    `insert into rule_chain_runs (${COLUMNS}, error_node, error_msg, out_msg, ended_at)
     values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, ?::jsonb, ?, ?, ?, ?::jsonb, ?)
     on conflict (id) do update set
       status = excluded.status, error_node = excluded.error_node, error_msg = excluded.error_msg,
       out_msg = excluded.out_msg, logs = excluded.logs, ended_at = excluded.ended_at
     where rule_chain_runs.tenant_id = excluded.tenant_id`,
    [
      run.runId,
      run.tenantId,
      run.chainId,
      run.chainVersion,
      run.chainName,
      run.workflowId,
      JSON.stringify(run.trigger),
      run.success ? 'succeeded' : 'failed',
      JSON.stringify(run.inMsg),
      JSON.stringify(run.logs),
      iso(run.startedAt),
      run.errorNode,
      run.errorMsg,
      run.outMsg === null ? null : JSON.stringify(run.outMsg),
      iso(run.endedAt),
    ],
  );
}
