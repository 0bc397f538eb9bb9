// The Grafana dashboard of docs/operations.md, typed against Grafana's own dashboard schema
// (@grafana/schema, generated from Grafana's schema definitions): `npm run typecheck` checks it,
// and test/unit/observability-deploy.test.ts checks that deploy/grafana/approval-service.json (what
// an operator imports) is this object, written by `npm run grafana:dashboard`.
import type { Dashboard } from '@grafana/schema';

const datasource = { type: 'prometheus', uid: '${datasource}' };

/** A row of panels across the dashboard, at height `y`. */
const row = (id: number, title: string, y: number) => ({
  type: 'row',
  title,
  collapsed: false,
  gridPos: { h: 1, w: 24, x: 0, y },
  id,
  panels: [],
});

/** A time series of PromQL `targets` ([expression, legend]), lettered A, B, … in order. */
const timeseries = (
  id: number,
  title: string,
  description: string,
  at: { x: number; y: number; w: number; h: number },
  unit: string,
  targets: Array<[expr: string, legendFormat: string]>,
) => ({
  type: 'timeseries',
  title,
  description,
  id,
  datasource,
  gridPos: { h: at.h, w: at.w, x: at.x, y: at.y },
  fieldConfig: { defaults: { unit }, overrides: [] },
  options: {
    legend: { displayMode: 'list', placement: 'bottom', showLegend: true },
    tooltip: { mode: 'multi', sort: 'desc' },
  },
  targets: targets.map(([expr, legendFormat], i) => ({
    datasource,
    expr,
    legendFormat,
    refId: String.fromCharCode(65 + i),
  })),
});

export const dashboard = {
  title: 'Approval service',
  uid: 'approval-service',
  tags: ['approvals', 'temporal'],
  timezone: 'browser',
  schemaVersion: 39,
  version: 1,
  editable: true,
  refresh: '30s',
  time: {
    from: 'now-6h',
    to: 'now',
  },
  annotations: {
    list: [],
  },
  templating: {
    list: [
      {
        name: 'datasource',
        label: 'Prometheus',
        type: 'datasource',
        query: 'prometheus',
        hide: 0,
      },
    ],
  },
  panels: [
    row(1, 'Approvals', 0),
    timeseries(
      2,
      'Instances started / ended / failed per minute',
      'Counted when the read model commits the status change',
      { x: 0, y: 1, w: 12, h: 8 },
      'short',
      [
        ['sum by (process_key) (rate(approval_instances_started_total[5m])) * 60', 'started {{process_key}}'],
        ['sum by (process_key, status) (rate(approval_instances_ended_total[5m])) * 60', '{{status}} {{process_key}}'],
        ['sum by (process_key) (rate(approval_instances_failed_total[5m])) * 60', 'failed {{process_key}}'],
      ],
    ),
    timeseries(
      3,
      'Update round trip p50 / p95 by action',
      'Server side: Update sent → answer in the read model',
      { x: 12, y: 1, w: 12, h: 8 },
      's',
      [
        [
          'histogram_quantile(0.5, sum by (le, action) (rate(approval_update_duration_seconds_bucket[5m])))',
          'p50 {{action}}',
        ],
        [
          'histogram_quantile(0.95, sum by (le, action) (rate(approval_update_duration_seconds_bucket[5m])))',
          'p95 {{action}}',
        ],
      ],
    ),
    timeseries(
      4,
      'Open and overdue tasks by tenant',
      'From the maintained counters (open_task_counts)',
      { x: 0, y: 9, w: 12, h: 8 },
      'short',
      [
        ['sum by (tenant) (approval_open_tasks)', 'open {{tenant}}'],
        ['sum by (tenant) (approval_overdue_tasks)', 'overdue {{tenant}}'],
      ],
    ),
    timeseries(5, 'Failed instances waiting for a repair', '', { x: 12, y: 9, w: 12, h: 8 }, 'short', [
      ['sum by (tenant) (approval_failed_instances)', '{{tenant}}'],
    ]),
    row(6, 'Read model', 17),
    timeseries(
      7,
      'Projection lag p50 / p95 / p99',
      'Workflow task recorded the state → read model commit',
      { x: 0, y: 18, w: 12, h: 8 },
      's',
      [
        ['histogram_quantile(0.5, sum by (le) (rate(approval_projection_lag_seconds_bucket[5m])))', 'p50'],
        ['histogram_quantile(0.95, sum by (le) (rate(approval_projection_lag_seconds_bucket[5m])))', 'p95'],
        ['histogram_quantile(0.99, sum by (le) (rate(approval_projection_lag_seconds_bucket[5m])))', 'p99'],
      ],
    ),
    timeseries(8, 'Read-model writes by writer and outcome', '', { x: 12, y: 18, w: 12, h: 8 }, 'ops', [
      ['sum by (writer, outcome) (rate(approval_projection_writes_total[5m]))', '{{writer}} {{outcome}}'],
    ]),
    row(9, 'HTTP API', 26),
    timeseries(10, 'Requests per second by status class', '', { x: 0, y: 27, w: 12, h: 8 }, 'reqps', [
      ['sum by (status) (rate(approval_http_requests_total[5m]))', '{{status}}'],
    ]),
    timeseries(11, 'Latency p95 by route', '', { x: 12, y: 27, w: 12, h: 8 }, 's', [
      [
        'topk(10, histogram_quantile(0.95, sum by (le, method, route) (rate(approval_http_request_duration_seconds_bucket[5m]))))',
        '{{method}} {{route}}',
      ],
    ]),
    timeseries(12, '5xx ratio', '', { x: 0, y: 35, w: 12, h: 8 }, 'percentunit', [
      [
        'sum(rate(approval_http_requests_total{status=~"5.."}[5m])) / sum(rate(approval_http_requests_total[5m]))',
        '5xx / all',
      ],
    ]),
    timeseries(13, 'WebSocket connections', '', { x: 12, y: 35, w: 12, h: 8 }, 'short', [
      ['sum by (instance) (approval_websocket_connections)', '{{instance}}'],
    ]),
    row(14, 'Integrations and notifications', 43),
    timeseries(15, 'Service-function and httpCall attempts by function', '', { x: 0, y: 44, w: 12, h: 8 }, 'ops', [
      [
        'sum by (activity, function, outcome) (rate(approval_activity_attempts_total{activity=~"callWebhook|httpCall"}[5m]))',
        '{{activity}} {{function}} {{outcome}}',
      ],
    ]),
    timeseries(16, 'Notification deliveries by channel and outcome', '', { x: 12, y: 44, w: 12, h: 8 }, 'ops', [
      ['sum by (channel, outcome) (rate(approval_notification_deliveries_total[5m]))', '{{channel}} {{outcome}}'],
    ]),
    row(17, 'Temporal worker (SDK metrics)', 52),
    timeseries(
      18,
      'Workflow / activity task schedule-to-start p95',
      'Rising: the workers are short of slots or CPU',
      { x: 0, y: 53, w: 12, h: 8 },
      's',
      [
        [
          'histogram_quantile(0.95, sum by (le) (rate(temporal_workflow_task_schedule_to_start_latency_seconds_bucket[5m])))',
          'workflow tasks',
        ],
        [
          'histogram_quantile(0.95, sum by (le) (rate(temporal_activity_schedule_to_start_latency_seconds_bucket[5m])))',
          'activities',
        ],
      ],
    ),
    timeseries(19, 'Free task slots', '', { x: 12, y: 53, w: 12, h: 8 }, 'short', [
      ['sum by (worker_type) (temporal_worker_task_slots_available)', '{{worker_type}}'],
    ]),
  ],
} satisfies Dashboard;
