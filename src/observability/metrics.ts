// The service's Prometheus metrics (docs/operations.md "Metrics"): one prom-client registry per
// process, written by small hooks in the server, the worker's activities, the projection and the
// notification dispatcher. Recording is off until `enableMetrics()` (METRICS_PORT or
// METRICS_TOKEN set): every hook is then a no-op, so a process without metrics pays nothing.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();

let enabled = false;

/** Turns recording on and adds Node's process metrics (CPU, memory, event-loop lag, GC). */
export function enableMetrics(role: 'server' | 'worker' | 'dispatcher') {
  if (enabled) return;
  enabled = true;
  registry.setDefaultLabels({ role });
  collectDefaultMetrics({ register: registry });
}

export const metricsEnabled = () => enabled;

/**
 * A label whose values come from tenants' data (process keys, function names, tenants): the first
 * `cap` distinct values are kept, any later one is reported as `other`, so a process's series stay
 * bounded whatever the tenants create.
 */
export class BoundedLabel {
  private readonly seen = new Set<string>();
  constructor(private readonly cap: number) {}
  of(value: string | null | undefined): string {
    const v = value || 'none';
    if (this.seen.has(v)) return v;
    if (this.seen.size >= this.cap) return 'other';
    this.seen.add(v);
    return v;
  }
}

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

const httpRequests = new Counter({
  name: 'approval_http_requests_total',
  help: 'HTTP requests by route template, method and status',
  labelNames: ['method', 'route', 'status'],
  registers: [registry],
});
const httpDuration = new Histogram({
  name: 'approval_http_request_duration_seconds',
  help: 'HTTP request latency by route template, method and status class',
  labelNames: ['method', 'route', 'status_class'],
  buckets: seconds,
  registers: [registry],
});
const routes = new BoundedLabel(300);

/** One answered request; `route` is the matched template (`/api/v1/workflow/tasks/:id/approve`), never the raw path. */
export function recordHttpRequest(method: string, route: string, status: number, durationSeconds: number) {
  if (!enabled) return;
  const r = routes.of(route);
  httpRequests.inc({ method, route: r, status: String(status) });
  httpDuration.observe({ method, route: r, status_class: `${Math.floor(status / 100)}xx` }, durationSeconds);
}

const updateDuration = new Histogram({
  name: 'approval_update_duration_seconds',
  help: 'Round trip of a Temporal Update (or update-with-start) sent by the server, until its state is in the read model, by action and outcome',
  labelNames: ['action', 'outcome'],
  buckets: seconds,
  registers: [registry],
});
const actions = new BoundedLabel(100);

export function recordUpdate(action: string, outcome: 'ok' | 'error', durationSeconds: number) {
  if (!enabled) return;
  updateDuration.observe({ action: actions.of(action), outcome }, durationSeconds);
}

const processKeys = new BoundedLabel(200);
const instancesStarted = new Counter({
  name: 'approval_instances_started_total',
  help: 'Instances whose first state reached the read model, by process key',
  labelNames: ['process_key'],
  registers: [registry],
});
const instancesEnded = new Counter({
  name: 'approval_instances_ended_total',
  help: 'Instances that ended (completed, rejected, terminated), by process key and status',
  labelNames: ['process_key', 'status'],
  registers: [registry],
});
const instancesFailed = new Counter({
  name: 'approval_instances_failed_total',
  help: 'Instances that entered the failed status (a node failed after its retries), by process key',
  labelNames: ['process_key'],
  registers: [registry],
});

/** A status change the read model just committed (src/read-model/writer.ts); `from` null: a new instance. */
export function recordInstanceTransition(processKey: string, from: string | null, to: string) {
  if (!enabled || from === to) return;
  const key = processKeys.of(processKey);
  if (from === null) instancesStarted.inc({ process_key: key });
  if (to === 'failed') instancesFailed.inc({ process_key: key });
  else if (to === 'completed' || to === 'rejected' || to === 'terminated')
    instancesEnded.inc({ process_key: key, status: to });
}

const projectionLag = new Histogram({
  name: 'approval_projection_lag_seconds',
  help: 'From the workflow task that recorded a state (the projection activity scheduled) to its commit in the read model',
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [registry],
});
const projectionWrites = new Counter({
  name: 'approval_projection_writes_total',
  help: 'Read-model writes by writer (the worker activity, the server with an Update answer, the intent sweeper) and outcome',
  labelNames: ['writer', 'outcome'],
  registers: [registry],
});

export function recordProjectionLag(lagSeconds: number) {
  if (enabled) projectionLag.observe(Math.max(0, lagSeconds));
}
export function recordProjectionWrite(writer: 'worker' | 'server' | 'sweeper', outcome: 'ok' | 'error') {
  if (enabled) projectionWrites.inc({ writer, outcome });
}

const activityAttempts = new Counter({
  name: 'approval_activity_attempts_total',
  help: 'Activity attempts run by this worker, by activity, service function and outcome',
  labelNames: ['activity', 'function', 'outcome'],
  registers: [registry],
});
const activityDuration = new Histogram({
  name: 'approval_activity_duration_seconds',
  help: 'Activity attempt duration by activity',
  labelNames: ['activity'],
  buckets: seconds,
  registers: [registry],
});
const functions = new BoundedLabel(200);
const activityNames = new BoundedLabel(100);

export function recordActivityAttempt(
  activity: string,
  fn: string | null,
  outcome: 'ok' | 'error',
  durationSeconds: number,
) {
  if (!enabled) return;
  const a = activityNames.of(activity);
  activityAttempts.inc({ activity: a, function: fn === null ? '' : functions.of(fn), outcome });
  activityDuration.observe({ activity: a }, durationSeconds);
}

const wsConnections = new Gauge({
  name: 'approval_websocket_connections',
  help: 'Open notification WebSocket connections on this server',
  registers: [registry],
});

/** Counts one accepted socket until it closes. */
export function trackSocket(socket: { once(event: 'close', listener: () => void): unknown }) {
  if (!enabled) return;
  wsConnections.inc();
  socket.once('close', () => wsConnections.dec());
}

const deliveries = new Counter({
  name: 'approval_notification_deliveries_total',
  help: 'Notification delivery attempts by channel kind and outcome (sent, retry, failed, skipped)',
  labelNames: ['channel', 'outcome'],
  registers: [registry],
});
const channels = new BoundedLabel(20);

export function recordDelivery(channel: string | null, outcome: 'sent' | 'retry' | 'failed' | 'skipped') {
  if (enabled) deliveries.inc({ channel: channels.of(channel ?? 'unknown'), outcome });
}

/** Gauges read from PostgreSQL when scraped (the server's registry only); see `backlogGauges`. */
export function registerCollectedGauge(opts: {
  name: string;
  help: string;
  labelNames: string[];
  collect: (set: (labels: Record<string, string>, value: number) => void) => Promise<void>;
}) {
  const gauge: Gauge = new Gauge({
    name: opts.name,
    help: opts.help,
    labelNames: opts.labelNames,
    registers: [registry],
    async collect() {
      gauge.reset();
      await opts.collect((labels, value) => gauge.set(labels, value));
    },
  });
  return gauge;
}
