// What each chain node does, with RuleGo's configuration keys. Expression nodes, delay, fork and
// flow run in the workflow; scripts, HTTP, functions and startProcess are activities.
import { executeChild, sleep, uuid4, workflowInfo } from '@temporalio/workflow';
import {
  CHAIN_RUN_WORKFLOW,
  MAX_FLOW_DEPTH,
  RELATIONS,
  chainRunWorkflowId,
  type ChainRunInput,
  type ChainRunResult,
  type RuleMsg,
  type RuleNode,
} from '../../chains/types.js';
import { evalExpr, parseExpr, type CompiledExpr } from '../../chains/expr.js';
import { exprEnv, msgData, withData } from '../../chains/msg.js';
import { nextNodeIds } from '../../chains/routing.js';
import { renderPlaceholders, renderValue } from '../../chains/template.js';
import type { FunctionCall } from '../../activities/service-function-calls.js';
import { chainLocal, namedActivities, restActivities, scripts, webhookCalls } from './activities.js';
import type { ChainRun } from './run.js';

export interface NodeOutcome {
  /** The relations to follow: one, or several (jsSwitch). */
  relations: string[];
  msg: RuleMsg;
  err?: string;
  attempts?: number;
}

type Config = Record<string, unknown>;
const cfgOf = (node: RuleNode): Config => (node.configuration ?? {}) as Config;
const ok = (msg: RuleMsg, relation: string = RELATIONS.SUCCESS): NodeOutcome => ({ relations: [relation], msg });
const failed = (msg: RuleMsg, err: string, attempts?: number): NodeOutcome => ({
  relations: [RELATIONS.FAILURE],
  msg,
  err,
  ...(attempts !== undefined ? { attempts } : {}),
});
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The innermost message of an activity or child failure, and the attempt it failed on when the activity said. */
export function failureOf(err: unknown): { message: string; attempts?: number } {
  let e = err as { cause?: unknown; message?: string; details?: unknown[] } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  const detail = e?.details?.[0] as { attempt?: unknown } | undefined;
  return {
    message: e?.message ?? String(err),
    ...(typeof detail?.attempt === 'number' ? { attempts: detail.attempt } : {}),
  };
}

/** A parsed expression, once per source and run (validated at save: a parse error here is the node's failure). */
function expr(run: ChainRun, source: unknown): CompiledExpr {
  const src = String(source ?? '');
  let hit = run.exprs.get(src);
  if (!hit) {
    const parsed = parseExpr(src);
    if (!parsed.ok) throw new Error(`expression ${JSON.stringify(src)}: ${parsed.error}`);
    hit = parsed.expr;
    run.exprs.set(src, hit);
  }
  return hit;
}

export async function runNode(run: ChainRun, node: RuleNode, msg: RuleMsg): Promise<NodeOutcome> {
  switch (node.type) {
    case 'exprFilter':
      return ok(msg, evalExpr(expr(run, cfgOf(node).expr), exprEnv(msg)) === true ? RELATIONS.TRUE : RELATIONS.FALSE);
    case 'exprTransform':
      return exprTransform(run, node, msg);
    case 'switch':
      return switchNode(run, node, msg);
    case 'msgTypeSwitch':
      return ok(msg, nextNodeIds(run.chain, node.id, msg.type).length ? msg.type : RELATIONS.DEFAULT);
    case 'fork':
      return ok(msg);
    case 'delay':
      return delay(node, msg);
    case 'flow':
      return flow(run, node, msg);
    case 'jsFilter':
    case 'jsTransform':
    case 'jsSwitch':
    case 'log':
      return script(node, msg);
    case 'restApiCall':
      return restApiCall(run, node, msg);
    case 'functions':
      return functions(run, node, msg);
    case 'startProcess':
      return startProcess(run, node, msg);
    default:
      return failed(msg, `node type ${node.type} is not run by this service`);
  }
}

/** RuleGo: `expr` replaces the data with its value; else `mapping` builds a JSON object field by field. */
function exprTransform(run: ChainRun, node: RuleNode, msg: RuleMsg): NodeOutcome {
  const cfg = cfgOf(node);
  const env = exprEnv(msg);
  if (typeof cfg.expr === 'string' && cfg.expr.trim())
    return ok(withData(msg, evalExpr(expr(run, cfg.expr), env) ?? null));
  const out: Record<string, unknown> = {};
  for (const [field, source] of Object.entries(isObject(cfg.mapping) ? cfg.mapping : {}))
    out[field] = evalExpr(expr(run, source), env) ?? null;
  return ok(withData(msg, out, 'JSON'));
}

/** RuleGo's switch: the first case that is true names the relation; a case that fails to evaluate is skipped; else Default. */
function switchNode(run: ChainRun, node: RuleNode, msg: RuleMsg): NodeOutcome {
  const env = exprEnv(msg);
  const cases = Array.isArray(cfgOf(node).cases)
    ? (cfgOf(node).cases as Array<{ case?: unknown; then?: unknown }>)
    : [];
  for (const c of cases) {
    let hit: boolean;
    try {
      hit = evalExpr(expr(run, c.case), env) === true;
    } catch {
      continue;
    }
    if (hit) return ok(msg, String(c.then));
  }
  return ok(msg, RELATIONS.DEFAULT);
}

/** A durable timer: `delayMs` (a number or a `${...}` template), or the older `periodInSeconds(Pattern)`. */
async function delay(node: RuleNode, msg: RuleMsg): Promise<NodeOutcome> {
  const cfg = cfgOf(node);
  const env = exprEnv(msg, { withMetadata: true });
  let ms: number;
  if (cfg.delayMs !== undefined && String(cfg.delayMs).trim() !== '') {
    ms = Number(renderPlaceholders(String(cfg.delayMs).trim(), env));
  } else if (typeof cfg.periodInSecondsPattern === 'string' && cfg.periodInSecondsPattern.trim()) {
    ms = Number(renderPlaceholders(cfg.periodInSecondsPattern, env)) * 1000;
  } else ms = Number(cfg.periodInSeconds ?? 60) * 1000;
  if (!Number.isFinite(ms))
    return failed(msg, `delay is not a number of milliseconds: ${String(cfg.delayMs ?? cfg.periodInSecondsPattern)}`);
  if (ms > 0) await sleep(ms);
  return ok(msg);
}

/** A sub-chain as a child workflow on its deployed version; its output message is this node's. */
async function flow(run: ChainRun, node: RuleNode, msg: RuleMsg): Promise<NodeOutcome> {
  const targetId = String(cfgOf(node).targetId ?? '');
  const depth = (run.input.depth ?? 0) + 1;
  if (depth > MAX_FLOW_DEPTH) return failed(msg, `sub-chain ${targetId} refused: deeper than ${MAX_FLOW_DEPTH} chains`);
  let target;
  try {
    target = await chainLocal.loadFlowChain({ tenantId: run.input.tenantId, chainId: targetId });
  } catch (err) {
    return failed(msg, `sub-chain ${targetId}: ${failureOf(err).message}`);
  }
  const input: ChainRunInput = {
    runId: uuid4(),
    tenantId: run.input.tenantId,
    chainId: target.chainId,
    chainVersion: target.version,
    chain: target.dsl,
    msg,
    trigger: { kind: 'flow', parentRunId: run.input.runId, nodeId: node.id },
    depth,
  };
  const result = (await executeChild(CHAIN_RUN_WORKFLOW, {
    workflowId: chainRunWorkflowId(input.tenantId, input.runId),
    taskQueue: workflowInfo().taskQueue,
    args: [input],
  })) as ChainRunResult;
  if (result.success) return ok({ ...result.msg, id: msg.id });
  const at = result.error?.nodeId ? ` at ${result.error.nodeId}` : '';
  return failed(msg, `sub-chain ${targetId} failed${at}: ${result.error?.message ?? 'failed'}`);
}

const SCRIPT_KINDS = ['jsFilter', 'jsTransform', 'jsSwitch', 'log'] as const;

/** jsFilter → True/False, jsTransform → the message it returns, jsSwitch → the relations it names, log → Success. */
async function script(node: RuleNode, msg: RuleMsg): Promise<NodeOutcome> {
  const cfg = cfgOf(node);
  const kind = SCRIPT_KINDS.find((k) => k === node.type)!;
  let answer: { value: unknown; attempt: number };
  try {
    answer = await scripts.runChainScript({
      kind,
      nodeId: node.id,
      body: String(cfg.jsScript ?? ''),
      msg,
      ...(typeof cfg.timeoutMs === 'number' ? { timeoutMs: cfg.timeoutMs } : {}),
    });
  } catch (err) {
    const f = failureOf(err);
    return failed(msg, f.message, f.attempts);
  }
  const { value, attempt } = answer;
  const done = (out: NodeOutcome): NodeOutcome => ({ ...out, attempts: attempt });
  switch (kind) {
    case 'jsFilter':
      return done(ok(msg, value === true ? RELATIONS.TRUE : RELATIONS.FALSE));
    case 'log':
      return done(ok(msg));
    case 'jsSwitch': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        return done(failed(msg, 'Switch must return an array of relation names'));
      return done({ relations: [...new Set(value as string[])], msg });
    }
    case 'jsTransform': {
      if (!isObject(value)) return done(failed(msg, 'Transform must return {msg, metadata, msgType}'));
      let out: RuleMsg = { ...msg, metadata: { ...msg.metadata } };
      const dataType =
        value.dataType === 'JSON' || value.dataType === 'TEXT' || value.dataType === 'BINARY'
          ? value.dataType
          : undefined;
      if ('msg' in value)
        out = withData(out, value.msg ?? null, dataType ?? (typeof value.msg === 'string' ? undefined : 'JSON'));
      else if (dataType) out.dataType = dataType;
      if (isObject(value.metadata))
        out.metadata = Object.fromEntries(
          Object.entries(value.metadata).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
        );
      if (typeof value.msgType === 'string' && value.msgType) out.type = value.msgType;
      return done(ok(out));
    }
  }
}

/** RuleGo's restApiCall under our outbound rules: ≥ 400 → Failure with metadata status, statusCode, errorBody. */
async function restApiCall(run: ChainRun, node: RuleNode, msg: RuleMsg): Promise<NodeOutcome> {
  const cfg = cfgOf(node);
  const env = exprEnv(msg, { withMetadata: true });
  const headers: Record<string, string> = {};
  const configured = isObject(cfg.headers) ? cfg.headers : { 'Content-Type': 'application/json' };
  for (const [k, v] of Object.entries(configured))
    headers[renderPlaceholders(k, env)] = renderPlaceholders(String(v), env);
  const method = String(cfg.requestMethod ?? 'POST').toUpperCase();
  const readTimeout = Number(cfg.readTimeoutMs ?? 0);
  const timeoutMs = Number.isFinite(readTimeout) && readTimeout > 0 ? Math.min(readTimeout, 120_000) : 30_000;
  const attempts = Math.min(Math.max(1, Number(cfg.maxAttempts ?? 3) || 3), 10);
  const request = {
    tenantId: run.input.tenantId,
    url: renderPlaceholders(String(cfg.restEndpointUrlPattern ?? ''), env),
    method,
    headers,
    ...(cfg.withoutRequestBody === true ? {} : { body: msg.data }),
    timeoutMs,
  };
  let res;
  try {
    res = await restActivities(timeoutMs, attempts).chainRestApiCall(request);
  } catch (err) {
    const f = failureOf(err);
    return failed(msg, f.message, f.attempts);
  }
  const metadata = { ...msg.metadata, status: res.statusText, statusCode: String(res.status) };
  if (res.status >= 400)
    return failed({ ...msg, metadata: { ...metadata, errorBody: res.body } }, `HTTP ${res.statusText}`, res.attempt);
  return { ...ok({ ...msg, metadata, data: res.body }), attempts: res.attempt };
}

/**
 * Our service-function catalogue (as a process serviceTask calls it): a built-in, a catalogue
 * activity on its queue or a signed webhook. The function gets the message data as `param` (and as
 * `variables` when it is an object); an object it answers is merged into the data.
 */
async function functions(run: ChainRun, node: RuleNode, msg: RuleMsg): Promise<NodeOutcome> {
  const name = renderPlaceholders(String(cfgOf(node).functionName ?? ''), exprEnv(msg, { withMetadata: true }));
  const { tenantId, runId } = run.input;
  const data = msgData(msg);
  const variables = isObject(data) ? data : {};
  const target = await chainLocal.resolveChainFunction({ tenantId, name });
  let out: unknown;
  try {
    if (target.kind === 'missing') return failed(msg, `no service function ${name}`);
    if (target.kind === 'builtin') {
      out = await chainLocal.runServiceFunction({ name, param: data, variables, instanceId: runId, tenantId });
    } else {
      const b = target.binding;
      const call: FunctionCall = {
        instanceId: runId,
        nodeId: node.id,
        businessKey: null,
        variables,
        param: data,
        callId: `${workflowInfo().workflowId}:${node.id}:${run.nextVisit()}`,
      };
      const retry = {
        maximumAttempts: b.retry.maximumAttempts,
        initialInterval: b.retry.initialIntervalMs,
        backoffCoefficient: b.retry.backoffCoefficient,
        ...(b.retry.maximumIntervalMs ? { maximumInterval: b.retry.maximumIntervalMs } : {}),
      };
      out =
        b.kind === 'activity'
          ? await namedActivities({ taskQueue: b.taskQueue!, startToCloseTimeout: b.timeoutMs, retry })[
              b.activityType!
            ](call)
          : await webhookCalls(b.timeoutMs, retry).callWebhook({
              tenantId,
              functionId: b.id,
              functionName: name,
              url: b.url!,
              timeoutMs: b.timeoutMs,
              call,
            });
    }
  } catch (err) {
    return failed(msg, `service function ${name} failed: ${failureOf(err).message}`);
  }
  if (out !== null && out !== undefined && !isObject(out))
    return failed(
      msg,
      `service function ${name} answered ${Array.isArray(out) ? 'an array' : typeof out}, not an object`,
    );
  const merged: Record<string, unknown> = { ...variables };
  for (const [k, v] of Object.entries(out ?? {})) if (k !== '__proto__' && k !== 'constructor') merged[k] = v;
  return ok(isObject(data) || !msg.data.trim() ? withData(msg, merged, 'JSON') : withData(msg, out ?? {}, 'JSON'));
}

/** GFlow's startProcess: starts an approval; its id goes to metadata.processInstanceId and the data's top level. */
async function startProcess(run: ChainRun, node: RuleNode, msg: RuleMsg): Promise<NodeOutcome> {
  const cfg = cfgOf(node);
  const env = exprEnv(msg, { withMetadata: true });
  const processKey = renderPlaceholders(String(cfg.processKey ?? ''), env).trim();
  if (!processKey) return failed(msg, 'startProcess processKey resolves empty');
  const trigger = run.input.trigger as { userId?: string };
  const initiator = (cfg.initiator ? renderPlaceholders(String(cfg.initiator), env) : (trigger.userId ?? '')).trim();
  if (!initiator) return failed(msg, 'startProcess initiator resolves empty');
  const businessKey = cfg.businessKey ? renderPlaceholders(String(cfg.businessKey), env) || null : null;
  const data = msgData(msg);
  let configured: unknown = cfg.variables;
  if (typeof configured === 'string' && configured.trim()) {
    try {
      configured = JSON.parse(configured) as unknown;
    } catch {
      return failed(msg, 'startProcess variables is not a valid JSON object');
    }
  }
  const variables =
    isObject(configured) && Object.keys(configured).length
      ? Object.fromEntries(
          Object.entries(configured).map(([k, v]) => [
            k,
            typeof v === 'string' ? renderPlaceholders(v, env) : renderValue(v, env),
          ]),
        )
      : isObject(data)
        ? data
        : {};
  let answer: { processInstanceId: string };
  try {
    answer = (await namedActivities({
      startToCloseTimeout: '30s',
      retry: { maximumAttempts: 5, initialInterval: '1s' },
    }).chainStartProcess({
      tenantId: run.input.tenantId,
      processKey,
      initiator,
      businessKey,
      variables,
      callId: `${workflowInfo().workflowId}:${node.id}:${run.nextVisit()}`,
    })) as { processInstanceId: string };
  } catch (err) {
    return failed(msg, `startProcess ${processKey}: ${failureOf(err).message}`);
  }
  const body = isObject(data) ? { ...data } : {};
  body.processInstanceId = answer.processInstanceId;
  return ok({
    ...withData(msg, body, 'JSON'),
    metadata: { ...msg.metadata, processInstanceId: answer.processInstanceId },
  });
}
