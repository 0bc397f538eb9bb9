// The worker's share of observability: activity attempt metrics (an activity interceptor, outside
// workflow code), the Temporal SDK's own metrics (its Rust core serves them in Prometheus format on
// a loopback port; our /metrics appends them) and, with tracing on, Temporal's OpenTelemetry interceptors.
import { createServer } from 'node:net';
import path from 'node:path';
import type { Context as ActivityContext } from '@temporalio/activity';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptorsFactory,
  Next,
} from '@temporalio/worker';
import { recordActivityAttempt } from './metrics.js';
import type { Tracing } from './tracing.js';

/** The service function (webhook) or the called host (httpCall) an attempt is about, if any. */
function functionOf(activity: string, arg: unknown): string | null {
  const a = arg as { functionName?: unknown; url?: unknown } | undefined;
  if (activity === 'callWebhook' && typeof a?.functionName === 'string') return a.functionName;
  if (activity === 'httpCall' && typeof a?.url === 'string') {
    try {
      return new URL(a.url).host;
    } catch {
      return 'invalid';
    }
  }
  return null;
}

class ActivityMetrics implements ActivityInboundCallsInterceptor {
  constructor(private readonly ctx: ActivityContext) {}
  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
    const activity = this.ctx.info.activityType;
    const started = performance.now();
    const fn = functionOf(activity, input.args[0]);
    try {
      const result = await next(input);
      recordActivityAttempt(activity, fn, 'ok', (performance.now() - started) / 1000);
      return result;
    } catch (err) {
      recordActivityAttempt(activity, fn, 'error', (performance.now() - started) / 1000);
      throw err;
    }
  }
}

export const activityMetrics: ActivityInterceptorsFactory = (ctx) => ({ inbound: new ActivityMetrics(ctx) });

/** A free loopback port for the core's exporter (it binds it itself). */
export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Runtime telemetry for `Runtime.install`: the core's Prometheus exporter on `127.0.0.1:port`,
 * counters with `_total` and durations in seconds, as Prometheus names them.
 */
export function coreMetricsOptions(port: number) {
  return {
    metrics: {
      prometheus: {
        bindAddress: `127.0.0.1:${port}`,
        countersTotalSuffix: true,
        unitSuffix: true,
        useSecondsForDurations: true,
      },
    },
  };
}

/**
 * The workflow interceptors module bundled with the workflows when tracing is on: Temporal's
 * OpenTelemetry interceptors with ids that leave the workflow's random sequence alone
 * (./workflow-tracing.ts says why; .ts from the sources, .js in dist/).
 */
export const otelWorkflowInterceptors = path.join(
  import.meta.dirname,
  `workflow-tracing${path.extname(import.meta.filename)}`,
);

/**
 * What Temporal's OpenTelemetry plugin would add to a worker, with our workflow interceptors module
 * instead of the package's (whose span ids draw on the workflow's Math.random): activity spans,
 * and the sink that exports the workflow's spans. The same options serve a replay.
 */
export async function tracingWorkerOptions(t: Tracing) {
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } =
    await import('@temporalio/interceptors-opentelemetry');
  const activity: ActivityInterceptorsFactory = (ctx) => ({
    inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer: t.tracer }),
    outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
  });
  return {
    activity,
    workflowModules: [otelWorkflowInterceptors],
    sinks: { exporter: makeWorkflowExporter(t.spanProcessor, t.resource) },
  };
}
