// Tracing must not change what a workflow does. Histories recorded by a worker that traces
// (OTEL_EXPORTER_OTLP_ENDPOINT set: the bundle with the OpenTelemetry workflow interceptors of
// src/observability/workflow-tracing.ts, src/main/worker.ts) replay on the plain bundle — as the
// runbook replays production histories (`npm run replay`, docs/operations.md) and as a worker
// restarted with tracing off takes them over — and on the traced one (a traced worker that lost its
// cache); histories of a plain worker replay on the traced bundle (tracing switched on).
// With the package's own interceptors the spans' ids drew on the workflow's Math.random and
// shifted the task ids made after them: the approve of such a task failed on replay.
import { inject, beforeAll, describe, expect, it } from 'vitest';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { bundleWorkflowCode, Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import type { FunctionBinding } from '../../dsl/index.js';
import { graphDoc, node, parallelProcess, pickyProcess, wire } from '../helpers/dsl.js';
import { otelWorkflowInterceptors, tracingWorkerOptions } from '../../src/observability/worker-telemetry.js';
import { workflowBundleOptions } from '../../src/main/workflow-bundle.js';
import type { Tracing } from '../../src/observability/tracing.js';
import { useHarness, m, type Harness } from './support/harness.js';
import { oneStep, users } from './support/dsl.js';

const exported = new InMemorySpanExporter();
const spanProcessor = new SimpleSpanProcessor(exported);
const resource = new Resource({ 'service.name': 'approval-service-test' });
const tracing: Tracing = {
  tracer: new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] }).getTracer('test'),
  resource,
  spanProcessor,
  shutdown: async () => undefined,
};
let tracedBundle = '';
let traced: Awaited<ReturnType<typeof tracingWorkerOptions>>;

beforeAll(async () => {
  traced = await tracingWorkerOptions(tracing);
  // What scripts/bundle-workflows.ts writes to dist/workflow-bundle-traced.js.
  tracedBundle = (
    await bundleWorkflowCode({
      ...workflowBundleOptions,
      workflowInterceptorModules: [otelWorkflowInterceptors],
      logger: { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} } as never,
    })
  ).code;
}, 180_000);

const tracedWorker = useHarness('traced', undefined, async () => ({
  workflowBundle: { code: tracedBundle },
  interceptors: { activity: [traced.activity] },
  sinks: traced.sinks,
}));
const plainWorker = useHarness('plain');

const down: FunctionBinding = {
  id: 'entry-down',
  kind: 'webhook',
  url: 'http://127.0.0.1:9/hook',
  timeoutMs: 1000,
  retry: { maximumAttempts: 1, initialIntervalMs: 50, backoffCoefficient: 1, maximumIntervalMs: null },
};
const webhookProcess = graphDoc(
  'traced_webhook',
  [node('s', 'startTask'), node('fn', 'serviceTask', { functionName: 'Obs.down' }), node('end', 'end')],
  wire('s>fn fn>end'),
);

async function until(h: Harness, instanceId: string, status: string) {
  for (const deadline = Date.now() + 20_000; h.projection.of(instanceId).instance.status !== status;) {
    if (Date.now() > deadline) throw new Error(`${instanceId} is ${h.projection.of(instanceId).instance.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * What the production test leaves for the runbook: an approve, a failed webhook (running, failed),
 * a failed switch whose variables are fixed and which is re-driven and approved (a task made after
 * Updates), a fork whose failed branch is force-resumed. Answers the histories.
 */
async function scenario(h: Harness) {
  const admin = h.actor('admin', { admin: true });
  const ids: string[] = [];
  const one = (await h.start(oneStep('traced_one', users('bob')))).instanceId;
  await h.decide(one, 'bob');
  ids.push(one);
  const hook = (await h.start(webhookProcess, { functions: { 'Obs.down': down } })).instanceId;
  await until(h, hook, 'failed');
  ids.push(hook);
  const picky = (await h.start(pickyProcess, { variables: { amount: 5 } })).instanceId;
  await until(h, picky, 'failed');
  await h.act(picky, m.setVariables, { actor: admin, variables: { amount: 500 } });
  await h.act(picky, m.reDrive, { actor: admin });
  await h.decide(picky, 'carol');
  await until(h, picky, 'completed');
  ids.push(picky);
  const forked = (await h.start(parallelProcess, { variables: { go: false } })).instanceId;
  await until(h, forked, 'failed');
  await h.decide(forked, 'bob');
  await h.act(forked, m.forceResume, { actor: admin });
  await h.decide(forked, 'dave', 'approve', 'after');
  ids.push(forked);
  return Promise.all(ids.map(async (id) => ({ workflowId: id, history: await h.handle(id).fetchHistory() })));
}

/** The replay's failures by workflow id (none when every history replays). */
async function replayFailures(opts: ReplayWorkerOptions, histories: Awaited<ReturnType<typeof scenario>>) {
  const failed: Record<string, string> = {};
  for await (const r of Worker.runReplayHistories(opts, histories))
    if (r.error) failed[r.workflowId] = String(r.error).slice(0, 400);
  return failed;
}

const plainBundle = () => ({ workflowBundle: { codePath: inject('workflowBundlePath') } });
const tracedReplay = () => ({ workflowBundle: { code: tracedBundle }, sinks: traced.sinks });

describe('histories replay alike with tracing on and off', () => {
  it('a tracing worker: its spans are exported, and its histories replay on the plain and the traced bundle', async () => {
    const histories = await scenario(tracedWorker);
    const names = exported.getFinishedSpans().map((s) => s.name);
    expect(names).toContain('RunWorkflow:approvalProcess');
    expect(names).toContain('HandleUpdate:approve');
    expect(await replayFailures(plainBundle(), histories)).toEqual({});
    expect(await replayFailures(tracedReplay(), histories)).toEqual({});
  });

  it('a plain worker: its histories replay on the traced bundle', async () => {
    const histories = await scenario(plainWorker);
    expect(await replayFailures(tracedReplay(), histories)).toEqual({});
    expect(await replayFailures(plainBundle(), histories)).toEqual({});
  });
});
