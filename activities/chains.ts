// Activities of the chain-run workflow (workflows/chain-run.workflow.ts): the run's row, the
// JavaScript sandbox, restApiCall under the outbound network rules, and the run-time look-ups of
// `flow` and `functions` nodes. Thin adapters over src/rule-chains/.
import { STATUS_CODES } from 'node:http';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityDeps } from './deps.js';
import type { RuleMsg } from '../chains/types.js';
import { guardedRequest, RequestRefused, ResponseTooLarge } from '../src/infra/outbound/guard.js';
import { tenantTrust } from '../src/infra/outbound/network-trust.js';
import { beginRun, finishRun, type RunBegin, type RunFinish } from '../src/rule-chains/runs.js';
import { runSandboxed, type ScriptKind } from '../src/rule-chains/sandbox.js';
import {
  loadDeployedChain,
  resolveFunction,
  type DeployedChain,
  type FunctionTarget,
} from '../src/rule-chains/load.js';

export interface ChainScriptInput {
  kind: ScriptKind;
  nodeId: string;
  body: string;
  msg: RuleMsg;
  timeoutMs?: number;
}

export interface ChainRestInput {
  tenantId: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface ChainRestAnswer {
  status: number;
  /** RuleGo's metadata `status`: "200 OK". */
  statusText: string;
  body: string;
  attempt: number;
}

/** The attempt of this activity, in an error's details so the workflow can log it when it fails for good. */
const attempt = () => Context.current().info.attempt;
const failure = (message: string, type: string, nonRetryable: boolean) =>
  ApplicationFailure.create({ message, type, nonRetryable, details: [{ attempt: attempt() }] });

export function createChainActivities(deps: ActivityDeps) {
  return {
    async beginChainRun(run: RunBegin): Promise<void> {
      await beginRun(deps.orm.em.fork(), run);
    },

    async finishChainRun(run: RunFinish): Promise<void> {
      await finishRun(deps.orm.em.fork(), run);
    },

    /** One jsFilter / jsTransform / jsSwitch / log script in the QuickJS sandbox. A script error is final. */
    async runChainScript(input: ChainScriptInput): Promise<{ value: unknown; logs: string[]; attempt: number }> {
      const data = input.msg.dataType === 'JSON' ? parseOr(input.msg.data) : input.msg.data;
      const out = await runSandboxed(
        input.kind,
        input.body,
        { msg: data, metadata: input.msg.metadata, msgType: input.msg.type, dataType: input.msg.dataType },
        input.timeoutMs,
      );
      for (const line of out.logs) deps.logger.info({ nodeId: input.nodeId, script: input.kind }, line);
      if (!out.ok) throw failure(out.error, 'CHAIN_SCRIPT_FAILED', true);
      return { value: out.value, logs: out.logs, attempt: attempt() };
    },

    /**
     * restApiCall: one request under the tenant's outbound rules. Any answer comes back (the workflow
     * routes ≥ 400 to Failure); a transport failure is retried per the node's policy; a refused address is final.
     */
    async chainRestApiCall(req: ChainRestInput): Promise<ChainRestAnswer> {
      const trust = await tenantTrust(deps.orm, req.tenantId);
      const res = await guardedRequest(
        deps.config,
        {
          url: req.url,
          method: req.method,
          headers: req.headers,
          body: req.body,
          timeoutMs: req.timeoutMs,
          allowedHosts: null,
          tenantId: req.tenantId,
        },
        trust,
      ).catch((err: unknown) => {
        if (err instanceof RequestRefused) throw failure(err.message, 'CHAIN_HTTP_REFUSED', true);
        if (err instanceof ResponseTooLarge) throw failure(err.message, 'CHAIN_HTTP_FAILED', true);
        throw failure(
          `request failed: ${err instanceof Error ? err.message : String(err)}`,
          'CHAIN_HTTP_FAILED',
          false,
        );
      });
      const text = STATUS_CODES[res.status];
      return {
        status: res.status,
        statusText: text ? `${res.status} ${text}` : String(res.status),
        body: res.text,
        attempt: attempt(),
      };
    },

    /** The sub-chain of a `flow` node: its deployed version now. Missing or stopped is final. */
    async loadFlowChain(input: { tenantId: string; chainId: string }): Promise<DeployedChain> {
      const chain = await loadDeployedChain(deps.orm.em.fork(), input.tenantId, input.chainId);
      if (!chain) throw ApplicationFailure.nonRetryable(`no rule chain ${input.chainId}`, 'NOT_FOUND');
      if (chain.disabled)
        throw ApplicationFailure.nonRetryable(`rule chain ${input.chainId} is stopped`, 'CHAIN_STOPPED');
      return chain;
    },

    /** How a `functions` node's name is served: a built-in, a catalogue entry, or nothing. */
    async resolveChainFunction(input: { tenantId: string; name: string }): Promise<FunctionTarget> {
      return resolveFunction(deps.orm.em.fork(), input.tenantId, input.name);
    },
  };
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
