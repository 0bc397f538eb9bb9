import { Client, Connection } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import type { Config } from '../config.js';
import { tracing } from '../observability/tracing.js';

export function connectionOptions(config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_TLS' | 'TEMPORAL_API_KEY'>) {
  return {
    address: config.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    tls: config.TEMPORAL_TLS || Boolean(config.TEMPORAL_API_KEY) ? {} : undefined,
    apiKey: config.TEMPORAL_API_KEY,
  };
}

/** A lazily connecting client: the server starts (and answers /readyz 503) while Temporal is down. */
export function createTemporalClient(config: Config): Client {
  const connection = Connection.lazy({
    ...connectionOptions(config),
    // gRPC's reconnect backoff grows to 2 minutes by default (×1.6 from 1 s): after a Temporal
    // outage the server's Updates and the worker's intent sweeper would wait that long to notice
    // it is back. Reconnecting at most a second apart heals in a second (issue 49).
    channelArgs: { 'grpc.initial_reconnect_backoff_ms': 250, 'grpc.max_reconnect_backoff_ms': 1000 },
  });
  // With tracing on, starts and Updates carry the request's trace context to the workflow.
  const t = tracing();
  const interceptors = t ? { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: t.tracer })] } : undefined;
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors });
}

export async function temporalReachable(client: Client, timeoutMs = 2000): Promise<boolean> {
  try {
    await client.connection.withDeadline(Date.now() + timeoutMs, () =>
      client.workflowService.describeNamespace({ namespace: client.options.namespace }),
    );
    return true;
  } catch {
    return false;
  }
}
