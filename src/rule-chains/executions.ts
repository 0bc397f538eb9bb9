// Running a deployed chain on a message (RuleGo's execute and notify, and the HTTP hooks): the
// message is built from the request, the run is the `chainRun` workflow with the chain's deployed
// snapshot (runner.ts); a stopped chain is refused with 409 CHAIN_STOPPED.
import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import type { ChainRunInput, ChainTrigger, DataType, RuleMsg } from '../../chains/types.js';
import { AppError } from '../errors.js';
import { findChain } from './chains.js';
import { executeChainRun, startChainRun } from './runner.js';

export interface RunDeps {
  em: EntityManager;
  temporal: Client;
  taskQueue: string;
}

/** What a request brings to a run. */
export interface RunRequest {
  tenantId: string;
  chainId: string;
  msgType: string;
  /** The body as sent: msg.data. */
  data: string;
  dataType: DataType;
  metadata: Record<string, string>;
  msgId?: string;
  fromNodeId?: string;
  onlyNodeId?: string;
  trigger: ChainTrigger;
}

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

/** JSON when the body says it is (Content-Type), else TEXT — as RuleGo's HTTP endpoint reads it. */
export const dataTypeOf = (contentType: string | undefined): DataType =>
  JSON_MEDIA.test(contentType?.split(';')[0]?.trim() ?? '') ? 'JSON' : 'TEXT';

// Credentials never go into a message: its metadata is stored in the run log.
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'x-gflow-signature', 'proxy-authorization']);

/** RuleGo's `_headersToMetadata`: the request's headers as metadata, credentials left out. */
export function headersToMetadata(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!SECRET_HEADERS.has(name.toLowerCase())) out[name] = value;
  });
  return out;
}

async function runInput(deps: RunDeps, req: RunRequest): Promise<ChainRunInput> {
  const chain = await findChain(deps.em, req.tenantId, req.chainId);
  if (chain.disabled) throw new AppError('CHAIN_STOPPED', `The rule chain ${req.chainId} is stopped: start it first`);
  const runId = randomUUID();
  const msg: RuleMsg = {
    id: req.msgId || runId,
    ts: Date.now(),
    type: req.msgType,
    dataType: req.dataType,
    data: req.data,
    metadata: req.metadata,
  };
  return {
    runId,
    tenantId: req.tenantId,
    chainId: chain.id,
    chainVersion: chain.version,
    chain: chain.dsl,
    msg,
    trigger: req.trigger,
    ...(req.fromNodeId ? { fromNodeId: req.fromNodeId } : {}),
    ...(req.onlyNodeId ? { onlyNodeId: req.onlyNodeId } : {}),
  };
}

/** Notify: the run starts and its id is answered at once. */
export async function notifyChain(deps: RunDeps, req: RunRequest): Promise<{ runId: string }> {
  const input = await runInput(deps, req);
  const { runId } = await startChainRun(deps, input);
  return { runId };
}

/**
 * Execute: runs the chain and answers its output message. A run that failed is 400
 * CHAIN_RUN_FAILED with the node and reason, and the run id in `data`.
 */
export async function executeChain(deps: RunDeps, req: RunRequest): Promise<{ runId: string; msg: RuleMsg }> {
  const input = await runInput(deps, req);
  const failed = (nodeId: string | null, reason: string) =>
    new AppError('CHAIN_RUN_FAILED', `The rule chain ran and failed${nodeId ? ` at node ${nodeId}` : ''}: ${reason}`, {
      runId: input.runId,
      nodeId,
      reason,
    });
  let result;
  try {
    result = await executeChainRun(deps, input);
  } catch (err) {
    if (err instanceof WorkflowFailedError) throw failed(null, err.cause?.message ?? err.message);
    throw err;
  }
  if (!result.success) throw failed(result.error?.nodeId ?? null, result.error?.message ?? 'unknown error');
  return { runId: input.runId, msg: result.msg };
}
