// OpenTelemetry tracing (docs/operations.md "Traces"): on only when OTEL_EXPORTER_OTLP_ENDPOINT is
// set. Then a tracer provider exports over OTLP/HTTP (protobuf) in batches, W3C trace context
// travels in Temporal headers (@temporalio/interceptors-opentelemetry) and pg statements get spans
// under the active one. Off, nothing here is loaded past this module and no span is ever made.
import { SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { tracePg } from './pg-tracing.js';
import type { Config } from '../config.js';

export interface Tracing {
  tracer: Tracer;
  resource: Resource;
  spanProcessor: SpanProcessor;
  /** Exports what is buffered and stops. */
  shutdown(): Promise<void>;
}

let active: Tracing | null = null;

/** The running tracing, or null when off. */
export const tracing = () => active;

/** Starts tracing for this process when an endpoint is configured; idempotent. */
export async function startTracing(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_SERVICE_NAME'>,
  role: 'server' | 'worker' | 'dispatcher',
): Promise<Tracing | null> {
  const opts = { endpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: config.OTEL_SERVICE_NAME, role };
  if (active || !opts.endpoint) return active;
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { Resource }, { OTLPTraceExporter }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/exporter-trace-otlp-proto'),
  ]);
  const resource = new Resource({ 'service.name': opts.serviceName, 'service.instance.role': opts.role });
  const url = `${opts.endpoint.replace(/\/+$/, '')}/v1/traces`;
  const spanProcessor = new BatchSpanProcessor(new OTLPTraceExporter({ url }), { scheduledDelayMillis: 1000 });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Global provider, AsyncLocalStorage context and the W3C propagator.
  provider.register();
  const tracer = trace.getTracer('approval-service');
  tracePg(tracer);
  active = {
    tracer,
    resource,
    spanProcessor,
    async shutdown() {
      await provider.shutdown().catch(() => undefined);
      active = null;
    },
  };
  return active;
}

/** Trace and span ids of the active span, for log lines (pino mixin); {} when off or outside a span. */
export function traceFields(): Record<string, string> {
  if (!active) return {};
  const ctx = trace.getActiveSpan()?.spanContext();
  return ctx ? { traceId: ctx.traceId, spanId: ctx.spanId } : {};
}

/** Runs `fn` in a span named `name` when tracing is on; a plain call otherwise. */
export async function inSpan<T>(name: string, attributes: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  if (!active) return fn();
  return active.tracer.startActiveSpan(name, { attributes }, async (span) => {
    try {
      return await fn();
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
      throw err;
    } finally {
      span.end();
    }
  });
}
