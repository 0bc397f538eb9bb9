import { DefaultLogger, NativeConnection, Runtime, type LogLevel, type WorkerOptions } from '@temporalio/worker';
import { createWorkflowWorker } from './workflow-worker.js';
import { loadConfig, type Config } from '../config.js';
import { workflowSource } from './workflow-source.js';
import { limitWorkflowStackTraces } from './workflow-stack-traces.js';
import { createLogger, type Logger } from '../observability/logger.js';
import { createOrm, type Orm } from '../db/orm.js';
import { connectionOptions, createTemporalClient } from '../temporal/client.js';
import { ProjectionSweeper } from '../read-model/projection-sweeper.js';
import { deliverProcessEvents } from '../rule-chains/process-events.js';
import { Dispatcher } from '../notifications/dispatcher.js';
import { enableMetrics } from '../observability/metrics.js';
import { fetchedSource, metricsListenerOf } from '../observability/metrics-endpoint.js';
import { startTracing } from '../observability/tracing.js';
import {
  activityMetrics,
  coreMetricsOptions,
  freeLoopbackPort,
  tracingWorkerOptions,
} from '../observability/worker-telemetry.js';

/** Bounds the worker's memory and concurrency (docs/runtime.md, "Worker sizing"). */
export function workerLimits(
  config: Config,
): Pick<
  WorkerOptions,
  | 'maxCachedWorkflows'
  | 'maxConcurrentWorkflowTaskExecutions'
  | 'maxConcurrentActivityTaskExecutions'
  | 'maxConcurrentLocalActivityExecutions'
> {
  return {
    maxCachedWorkflows: config.WORKER_MAX_CACHED_WORKFLOWS,
    // The SDK requires at most as many concurrent workflow tasks as cached runs.
    maxConcurrentWorkflowTaskExecutions: Math.max(
      1,
      Math.min(config.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS, config.WORKER_MAX_CACHED_WORKFLOWS),
    ),
    maxConcurrentActivityTaskExecutions: config.WORKER_MAX_CONCURRENT_ACTIVITIES,
    maxConcurrentLocalActivityExecutions: config.WORKER_MAX_CONCURRENT_ACTIVITIES,
  };
}

/** How the worker gets its activities: activities/index.ts's createActivities, handed in by ./worker.ts (src/ imports no adapter). */
export type ActivityFactory = (deps: { orm: Orm; config: Config; logger: Logger }) => object;

export async function runWorker(createActivities: ActivityFactory, config: Config = loadConfig()) {
  // Before the logger (its lines carry the trace id).
  const tracing = await startTracing(config, 'worker');
  const logger = createLogger(config.LOG_LEVEL, 'worker');
  if (!config.DATABASE_URL || !config.TEMPORAL_ADDRESS) {
    throw new Error(
      'DATABASE_URL and TEMPORAL_ADDRESS must be set: run `npm start` for the embedded runtime, or set both.',
    );
  }
  // The SDK's own logs follow LOG_LEVEL too.
  const sdkLevel: Record<string, LogLevel> = {
    trace: 'TRACE',
    debug: 'DEBUG',
    info: 'INFO',
    warn: 'WARN',
    error: 'ERROR',
    fatal: 'ERROR',
    silent: 'ERROR',
  };
  const metricsOn = config.METRICS_PORT !== undefined;
  if (metricsOn) enableMetrics('worker');
  // The SDK's own worker metrics (task slots, poll and schedule-to-start latencies, sticky cache),
  // served by its core on a loopback port and appended to our /metrics.
  const corePort = metricsOn ? await freeLoopbackPort() : null;
  Runtime.install({
    logger: new DefaultLogger(sdkLevel[config.LOG_LEVEL]),
    ...(corePort === null ? {} : { telemetryOptions: coreMetricsOptions(corePort) }),
  });
  const orm = await createOrm(config.DATABASE_URL);
  const connection = await NativeConnection.connect(connectionOptions(config));
  // Tracing: span-making activity interceptors, the workflow interceptors (in the traced bundle,
  // prebuilt or bundled from source) and the sink their spans leave the workflow through.
  const traced = tracing ? await tracingWorkerOptions(tracing) : null;
  const { prebuilt, ...source } = await workflowSource(config, logger, traced?.workflowModules ?? []);
  logger.info(
    prebuilt ? { bundle: prebuilt } : {},
    prebuilt ? 'using the prebuilt workflow bundle' : 'bundled the workflows from source',
  );
  limitWorkflowStackTraces(config.WORKFLOW_STACK_TRACE_LIMIT);
  // Without a per-call timeout, without stack traces and on its main thread unless configured (src/main/workflow-worker.ts).
  const worker = await createWorkflowWorker(
    {
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      ...source,
      activities: createActivities({ orm, config, logger }),
      ...workerLimits(config),
      interceptors: {
        activity: [...(traced ? [traced.activity] : []), ...(metricsOn ? [activityMetrics] : [])],
      },
      ...(traced ? { sinks: traced.sinks } : {}),
    },
    {
      vmTimeoutMs: config.WORKFLOW_VM_TIMEOUT_MS,
      stackTraces: config.WORKFLOW_STACK_TRACES,
      threads: config.WORKFLOW_THREADS,
    },
  );
  const metrics = await metricsListenerOf(
    config,
    logger,
    corePort === null ? [] : [fetchedSource(`http://127.0.0.1:${corePort}/metrics`, logger)],
  );
  // The notification dispatcher (docs/channels.md) shares the process, not the work: it is plain
  // async I/O on its own connections, outside Temporal's task slots, so it never holds up a workflow
  // task; NOTIFY_DISPATCHER=false leaves it to `npm run dispatcher` processes.
  const dispatcher = config.NOTIFY_DISPATCHER
    ? new Dispatcher({ orm, config, logger, databaseUrl: config.DATABASE_URL })
    : null;
  await dispatcher?.start();
  // Write-ahead intents left by a server that died between an Update's answer and its write
  // (engine version 4, docs/engine.md "Read model"): plain async I/O too, any number of workers.
  const sweepClient = config.PROJECTION_SWEEP ? createTemporalClient(config) : null;
  const sweeper = sweepClient
    ? new ProjectionSweeper({
        orm,
        temporal: sweepClient,
        logger,
        graceMs: config.PROJECTION_SWEEP_GRACE_MS,
        intervalMs: config.PROJECTION_SWEEP_INTERVAL_MS,
        afterWrite: (snapshot) =>
          deliverProcessEvents({ orm, temporal: sweepClient, taskQueue: config.TEMPORAL_TASK_QUEUE, logger }, snapshot),
      })
    : null;
  sweeper?.start();
  // Said once every part listens (its /metrics too): the stacks wait for this line before they use the worker.
  logger.info({ taskQueue: config.TEMPORAL_TASK_QUEUE }, 'worker started');
  // Worker.run() resolves after SIGINT/SIGTERM once in-flight tasks are done (the SDK's shutdown signals).
  await worker.run();
  await dispatcher?.stop();
  await sweeper?.stop();
  await sweepClient?.connection.close();
  await metrics?.stop();
  await connection.close();
  await orm.close();
  await tracing?.shutdown();
  logger.info('worker stopped');
}
