import { Client, type ConnectionLike, type Metadata } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import {
  DefaultLogger,
  NativeConnection,
  Runtime,
  type LogLevel,
  type NativeConnectionOptions,
  type RuntimeOptions,
} from '@temporalio/worker';
import type { Config } from '../config.js';
import { tracing } from '../observability/tracing.js';

export function connectionOptions(config: Pick<Config, 'TEMPORAL_ADDRESS' | 'TEMPORAL_TLS' | 'TEMPORAL_API_KEY'>) {
  return {
    address: config.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    tls: config.TEMPORAL_TLS || Boolean(config.TEMPORAL_API_KEY) ? {} : undefined,
    apiKey: config.TEMPORAL_API_KEY,
  };
}

/** The SDK's level for LOG_LEVEL. */
const sdkLevel: Record<Config['LOG_LEVEL'], LogLevel> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'ERROR',
  silent: 'ERROR',
};

/**
 * The SDK core's runtime of this process (once, before its first connection): its own logs follow
 * LOG_LEVEL. The worker adds its core's metrics (`telemetryOptions`).
 */
export function installCoreRuntime(level: Config['LOG_LEVEL'], options: Omit<RuntimeOptions, 'logger'> = {}) {
  Runtime.install({ logger: new DefaultLogger(sdkLevel[level]), ...options });
}

/** gRPC's UNAVAILABLE: what a call answers while Temporal cannot be reached. */
const UNAVAILABLE = 14;

/**
 * The client's connection through the SDK core — the Rust gRPC client the worker polls with — made
 * on first use, so the server starts (and answers /readyz 503) while Temporal is down. The SDK's
 * `NativeConnection` powers a `Client` as its own `Connection` does, without grpc-js: its HTTP/2 in
 * JavaScript was about a sixth of the HTTP server's CPU profile (docs/performance.md, thirteenth
 * session). A failed connect fails the call as an unreachable server does (a gRPC UNAVAILABLE, so
 * the client's ServiceError and a 503), and the next call tries again; once connected, the core
 * reconnects by itself.
 */
export class LazyCoreConnection implements ConnectionLike {
  readonly plugins = [];
  readonly workflowService: ConnectionLike['workflowService'] = this.service('workflowService');
  readonly operatorService: ConnectionLike['operatorService'] = this.service('operatorService');
  private connecting: Promise<NativeConnection> | undefined;

  constructor(private readonly options: NativeConnectionOptions) {}

  private connection(): Promise<NativeConnection> {
    this.connecting ??= NativeConnection.connect(this.options).catch((err: unknown) => {
      this.connecting = undefined;
      const message = `Temporal is unreachable: ${err instanceof Error ? err.message : String(err)}`;
      // The shape of a gRPC error the client recognises; its metadata is read for status details.
      throw Object.assign(new Error(message), { code: UNAVAILABLE, details: message, metadata: { get: () => [] } });
    });
    return this.connecting;
  }

  /** The service's methods, each sent on the connection once there is one. */
  private service<K extends 'workflowService' | 'operatorService'>(name: K): NativeConnection[K] {
    return new Proxy({} as NativeConnection[K], {
      get: (_, method) =>
        typeof method === 'string' && method !== 'then'
          ? async (request: unknown) => {
              const service = (await this.connection())[name] as unknown as Record<
                string,
                (request: unknown) => Promise<unknown>
              >;
              return service[method]!(request);
            }
          : undefined,
    });
  }

  async ensureConnected(): Promise<void> {
    await this.connection();
  }

  async withDeadline<R>(deadline: number | Date, fn: () => Promise<R>): Promise<R> {
    return (await this.connection()).withDeadline(deadline, fn);
  }

  async withMetadata<R>(metadata: Metadata, fn: () => Promise<R>): Promise<R> {
    return (await this.connection()).withMetadata(metadata, fn);
  }

  async withAbortSignal<R>(abortSignal: AbortSignal, fn: () => Promise<R>): Promise<R> {
    return (await this.connection()).withAbortSignal(abortSignal, fn);
  }

  async close(): Promise<void> {
    const connecting = this.connecting;
    this.connecting = undefined;
    const connection = await connecting?.catch(() => undefined);
    await connection?.close();
  }
}

/** A lazily connecting client: the server starts (and answers /readyz 503) while Temporal is down. */
export function createTemporalClient(config: Config): Client {
  const connection = new LazyCoreConnection(connectionOptions(config));
  // With tracing on, starts and Updates carry the request's trace context to the workflow.
  const t = tracing();
  const interceptors = t ? { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: t.tracer })] } : undefined;
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors });
}

/** Whether Temporal answers within `timeoutMs`, the connection's first connect included. */
export async function temporalReachable(client: Client, timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const answered = client.connection
    .withDeadline(Date.now() + timeoutMs, () =>
      client.workflowService.describeNamespace({ namespace: client.options.namespace }),
    )
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
