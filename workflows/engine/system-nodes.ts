// System nodes: delay, serviceTask, httpCall, subProcess.
import { proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { DslNode, FunctionBinding } from '../../dsl/index.js';
import type { FunctionCall } from '../../activities/service-function-calls.js';
import { renderTemplate, resolveTemplateValue } from '../../dsl/templates.js';
import { type Engine, Halt, type NodeRun, type Token } from './engine.js';
import { httpActivities, local, webhookActivities } from './activities.js';
import * as sa from '../search-attributes.js';
import { templateContext } from './user-task/config.js';
import { nodeName, safeUrl, shortTime } from './details.js';
import { staticDetailsOf, staticSummaryOf } from '../ui-metadata.js';
import { causeMessage, hasEdge, NodeFailure, type Step } from './flow.js';
import { said } from '../../dsl/history.js';
import type { TaskState } from './types.js';
import { serviceFunctionCatalogue } from './features.js';
import { mergeOutput } from './output-merge.js';
import { ending } from '../../dsl/ending.js';

export async function delay(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  const raw = ((node.configuration ?? {}) as { delayMs?: number | string }).delayMs ?? 0;
  const ms = typeof raw === 'number' ? raw : Number(resolveTemplateValue(raw, templateContext(engine)));
  if (!Number.isFinite(ms) || ms < 0) throw new NodeFailure(`delayMs is not a non-negative number: ${String(raw)}`);
  const run = engine.newRun(node.id, token.id);
  const task = engine.createTask({
    activityId: node.id,
    name: node.name ?? node.id,
    kind: 'delay',
    runId: run.id,
    status: 'waiting',
    dueDate: new Date(Date.parse(engine.now()) + ms).toISOString(),
  });
  run.taskIds.push(task.id);
  token.wakeAt = task.dueDate;
  return delayWait(engine, token, run, task);
}

export async function delayWait(engine: Engine, token: Token, run: NodeRun, task: TaskState): Promise<Step> {
  token.parked = true;
  engine.touch();
  const early = await engine.paths.park(
    () => !engine.isOpen(task),
    Math.max(0, Date.parse(token.wakeAt!) - Date.parse(engine.now())),
    `delay at ${task.name} until ${shortTime(token.wakeAt)}`,
  );
  token.parked = false;
  token.wakeAt = null;
  if (!early) engine.closeTask(task, 'completed', 'Delay elapsed');
  run.outcome = 'completed';
  return { follow: 'Success' };
}

export async function serviceTask(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  const cfg = (node.configuration ?? {}) as { functionName: string; param?: unknown };
  const param =
    cfg.param === undefined || cfg.param === ''
      ? engine.variables
      : typeof cfg.param === 'string'
        ? resolveTemplateValue(cfg.param, templateContext(engine))
        : cfg.param;
  // Pinned at deploy: catalogue edits after it do not change this instance.
  const binding = engine.doc.functions?.[cfg.functionName];
  if (binding && serviceFunctionCatalogue()) return catalogueFunction(engine, token, node, binding, param);
  try {
    const out = await local.runServiceFunction.executeWithOptions(
      { summary: `service function ${cfg.functionName} at ${nodeName(node)}` },
      [
        {
          name: cfg.functionName,
          param,
          variables: engine.variables,
          instanceId: engine.info.id,
          tenantId: engine.info.tenantId,
        },
      ],
    );
    Object.assign(engine.variables, out);
    engine.touch();
    return { follow: 'Success' };
  } catch (err) {
    const message = causeMessage(err);
    engine.trail('system', {
      activityId: node.id,
      ...said('serviceFunction.failed', { functionName: cfg.functionName, message }),
    });
    if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
    throw new NodeFailure(`service function ${cfg.functionName} failed: ${message}`);
  }
}

/** A rendered template that is a JSON object or array goes out as that value, not as its text. */
function jsonParam(param: unknown): unknown {
  if (typeof param !== 'string' || !/^\s*[[{]/.test(param)) return param;
  try {
    return JSON.parse(param);
  } catch {
    return param;
  }
}

/**
 * A catalogue function: a Temporal activity on the entry's task queue (any worker, any language),
 * or a signed webhook sent by this service's worker. Retried per the entry's policy; then the
 * Failure edge, else the instance fails and a re-drive calls it again with the same callId.
 */
async function catalogueFunction(
  engine: Engine,
  token: Token,
  node: DslNode,
  binding: FunctionBinding,
  param: unknown,
): Promise<Step> {
  const name = (node.configuration as { functionName: string }).functionName;
  // One id per visit of the node (the instance's change counter when the path arrived), kept on
  // the path until the call succeeds or takes its Failure edge: retries and re-drives reuse it.
  token.callId ??= `${workflowInfo().workflowId}:${node.id}:${engine.seq}`;
  const call: FunctionCall = {
    instanceId: engine.info.id,
    nodeId: node.id,
    businessKey: engine.info.businessKey,
    variables: engine.variables,
    param: jsonParam(param),
    callId: token.callId,
  };
  const retry = {
    maximumAttempts: binding.retry.maximumAttempts,
    initialInterval: binding.retry.initialIntervalMs,
    backoffCoefficient: binding.retry.backoffCoefficient,
    ...(binding.retry.maximumIntervalMs ? { maximumInterval: binding.retry.maximumIntervalMs } : {}),
  };
  const summary = `service function ${name} at ${nodeName(node)}`;
  token.parked = true;
  engine.touch();
  let out: unknown;
  try {
    if (binding.kind === 'activity') {
      // The activity type is the entry's, so the proxy is untyped: any name is an activity.
      const remote = proxyActivities<Record<string, (call: FunctionCall) => Promise<unknown>>>({
        taskQueue: binding.taskQueue!,
        startToCloseTimeout: binding.timeoutMs,
        retry,
      });
      out = await engine.paths.parkOn(remote[binding.activityType!].executeWithOptions({ summary }, [call]));
    } else {
      out = await engine.paths.parkOn(
        webhookActivities(binding.timeoutMs, retry).callWebhook.executeWithOptions({ summary }, [
          {
            tenantId: engine.info.tenantId,
            functionId: binding.id,
            functionName: name,
            url: binding.url!,
            timeoutMs: binding.timeoutMs,
            call,
          },
        ]),
      );
    }
    if (out !== null && out !== undefined && (typeof out !== 'object' || Array.isArray(out)))
      throw new Error(`answered ${Array.isArray(out) ? 'an array' : typeof out}, not an object`);
  } catch (err) {
    if (err instanceof Halt) throw err;
    token.parked = false;
    const message = causeMessage(err);
    engine.trail('system', {
      activityId: node.id,
      ...said('serviceFunction.failed', { functionName: name, message }),
      detail: { functionName: name, callId: token.callId },
    });
    if (hasEdge(engine, node.id, 'Failure')) {
      token.callId = undefined;
      return { follow: 'Failure' };
    }
    throw new NodeFailure(`service function ${name} failed: ${message}`);
  }
  token.parked = false;
  token.callId = undefined;
  for (const [k, v] of Object.entries((out ?? {}) as Record<string, unknown>))
    if (k !== '__proto__' && k !== 'constructor') engine.variables[k] = v;
  engine.touch();
  return { follow: 'Success' };
}

export async function httpCall(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  const cfg = (node.configuration ?? {}) as {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: unknown;
    timeoutMs?: number;
    flattenOutput?: boolean;
    outputMappings?: Array<{ from: string; to: string }>;
    reservedKey?: string;
    allowedHosts?: string[];
  };
  const ctx = templateContext(engine);
  const timeoutMs = cfg.timeoutMs ?? 10_000;
  const request = {
    url: renderTemplate(cfg.url, ctx),
    method: (cfg.method ?? 'GET').toUpperCase(),
    headers: Object.fromEntries(Object.entries(cfg.headers ?? {}).map(([k, v]) => [k, renderTemplate(String(v), ctx)])),
    body:
      cfg.body === undefined
        ? undefined
        : typeof cfg.body === 'string'
          ? renderTemplate(cfg.body, ctx)
          : JSON.stringify(cfg.body),
    timeoutMs,
    allowedHosts: cfg.allowedHosts ?? null,
    // Whose private-address allowlist applies (src/infra/outbound/network-trust.ts).
    tenantId: engine.info.tenantId,
  };
  token.parked = true;
  engine.touch();
  let response: { status: number; body: unknown };
  try {
    const summary = `${request.method} ${safeUrl(request.url)} at ${nodeName(node)}`;
    response = await engine.paths.parkOn(httpActivities(timeoutMs).httpCall.executeWithOptions({ summary }, [request]));
  } catch (err) {
    if (err instanceof Halt) throw err;
    token.parked = false;
    const message = causeMessage(err);
    if (engine.features.gflowHttpOutput) engine.variables[`${cfg.reservedKey ?? '_http'}Error`] = message;
    else engine.variables[cfg.reservedKey ?? '_http'] = { error: message };
    engine.trail('system', { activityId: node.id, ...said('httpCall.failed', { message }) });
    if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
    throw new NodeFailure(`HTTP call failed: ${message}`);
  }
  token.parked = false;
  const gflow = engine.features.gflowHttpOutput;
  const reservedKey = cfg.reservedKey ?? '_http';
  if (gflow) engine.variables[`${reservedKey}Status`] = response.status;
  else engine.variables[reservedKey] = { status: response.status, body: response.body };
  if (response.status >= 400) {
    engine.trail('system', { activityId: node.id, ...said('httpCall.status', { status: response.status }) });
    if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
    throw new NodeFailure(`HTTP call answered ${response.status} from ${request.method} ${safeUrl(request.url)}`);
  }
  const body = response.body;
  if (gflow) {
    mergeOutput(engine.variables, body, {
      reservedKey,
      flatten: cfg.flattenOutput ?? true,
      mappings: cfg.outputMappings,
    });
    engine.touch();
    return { follow: 'Success' };
  }
  if ((cfg.flattenOutput ?? true) && body && typeof body === 'object' && !Array.isArray(body)) {
    for (const [k, v] of Object.entries(body)) if (k !== '__proto__' && k !== 'constructor') engine.variables[k] = v;
  }
  for (const m of cfg.outputMappings ?? []) engine.variables[m.to] = pick(body, m.from);
  engine.touch();
  return { follow: 'Success' };
}

function pick(value: unknown, path: string): unknown {
  let cur = value;
  for (const part of path
    .replace(/^body\.?/, '')
    .split('.')
    .filter(Boolean)) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, part)) return null;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur ?? null;
}

export async function subProcess(engine: Engine, token: Token, node: DslNode): Promise<Step> {
  const cfg = (node.configuration ?? {}) as { targetId: string };
  let start;
  try {
    start = await local.prepareSubProcess.executeWithOptions(
      { summary: `prepare sub-process ${cfg.targetId} at ${nodeName(node)}` },
      [
        {
          tenantId: engine.info.tenantId,
          processKey: cfg.targetId,
          childInstanceId: engine.newId(),
          initiatorId: engine.info.initiatorId,
          parentInstanceId: engine.info.id,
          parentBusinessKey: engine.info.businessKey,
          nodeId: node.id,
          variables: engine.variables,
        },
      ],
    );
  } catch (err) {
    throw new NodeFailure(`sub-process ${cfg.targetId}: ${causeMessage(err)}`);
  }
  engine.trail('system', {
    activityId: node.id,
    ...said('subProcess.started', { targetId: cfg.targetId }),
    detail: { childInstanceId: start.input.instance.id },
  });
  token.parked = true;
  engine.touch();
  const child = await startChild<(input: unknown) => Promise<{ status: string; variables?: Record<string, unknown> }>>(
    'approvalProcess',
    {
      workflowId: start.workflowId,
      args: [start.input],
      taskQueue: workflowInfo().taskQueue,
      typedSearchAttributes: [
        { key: sa.ProcessKey, value: start.input.instance.processKey },
        { key: sa.BusinessKey, value: start.input.instance.businessKey ?? '' },
        { key: sa.InstanceStatus, value: 'active' },
        { key: sa.Initiator, value: start.input.instance.initiatorId },
        { key: sa.TenantId, value: start.input.instance.tenantId },
        ...(start.input.instance.processVersion === null
          ? []
          : [{ key: sa.ProcessVersion, value: start.input.instance.processVersion }]),
      ],
      staticSummary: staticSummaryOf(start.input.instance),
      staticDetails: staticDetailsOf(start.input.instance, { instanceId: engine.info.id, nodeId: node.id }),
      memo: {
        processName: start.input.instance.processName,
        processVersion: start.input.instance.processVersion,
        parentInstanceId: engine.info.id,
      },
    },
  );
  const result = await engine.paths.parkOn(child.result());
  token.parked = false;
  if (result.status === 'completed') {
    Object.assign(engine.variables, result.variables ?? {});
    engine.touch();
    return { follow: 'Success' };
  }
  if (hasEdge(engine, node.id, 'Failure')) return { follow: 'Failure' };
  engine.end('terminated', ending('end.subProcess', { targetId: cfg.targetId, status: result.status }));
  throw new Halt();
}
