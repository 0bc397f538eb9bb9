// The Grafana dashboard of docs/operations.md, typed against Grafana's own dashboard schema
// (@grafana/schema, generated from Grafana's schema definitions): `npm run typecheck` checks it,
// and test/unit/observability-deploy.test.ts checks that deploy/grafana/approval-service.json (what
// an operator imports) is this object, written by `npm run grafana:dashboard`.
import type { Dashboard } from '@grafana/schema';

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
    {
      type: 'row',
      title: 'Approvals',
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 0,
      },
      id: 1,
      panels: [],
    },
    {
      type: 'timeseries',
      title: 'Instances started / ended / failed per minute',
      description: 'Counted when the read model commits the status change',
      id: 2,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 1,
      },
      fieldConfig: {
        defaults: {
          unit: 'short',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (process_key) (rate(approval_instances_started_total[5m])) * 60',
          legendFormat: 'started {{process_key}}',
          refId: 'A',
        },
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (process_key, status) (rate(approval_instances_ended_total[5m])) * 60',
          legendFormat: '{{status}} {{process_key}}',
          refId: 'B',
        },
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (process_key) (rate(approval_instances_failed_total[5m])) * 60',
          legendFormat: 'failed {{process_key}}',
          refId: 'C',
        },
      ],
    },
    {
      type: 'timeseries',
      title: 'Update round trip p50 / p95 by action',
      description: 'Server side: Update sent → answer in the read model',
      id: 3,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 1,
      },
      fieldConfig: {
        defaults: {
          unit: 's',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'histogram_quantile(0.5, sum by (le, action) (rate(approval_update_duration_seconds_bucket[5m])))',
          legendFormat: 'p50 {{action}}',
          refId: 'A',
        },
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'histogram_quantile(0.95, sum by (le, action) (rate(approval_update_duration_seconds_bucket[5m])))',
          legendFormat: 'p95 {{action}}',
          refId: 'B',
        },
      ],
    },
    {
      type: 'timeseries',
      title: 'Open and overdue tasks by tenant',
      description: 'From the maintained counters (open_task_counts)',
      id: 4,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 9,
      },
      fieldConfig: {
        defaults: {
          unit: 'short',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (tenant) (approval_open_tasks)',
          legendFormat: 'open {{tenant}}',
          refId: 'A',
        },
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (tenant) (approval_overdue_tasks)',
          legendFormat: 'overdue {{tenant}}',
          refId: 'B',
        },
      ],
    },
    {
      type: 'timeseries',
      title: 'Failed instances waiting for a repair',
      description: '',
      id: 5,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 9,
      },
      fieldConfig: {
        defaults: {
          unit: 'short',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (tenant) (approval_failed_instances)',
          legendFormat: '{{tenant}}',
          refId: 'A',
        },
      ],
    },
    {
      type: 'row',
      title: 'Read model',
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 17,
      },
      id: 6,
      panels: [],
    },
    {
      type: 'timeseries',
      title: 'Projection lag p50 / p95 / p99',
      description: 'Workflow task recorded the state → read model commit',
      id: 7,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 18,
      },
      fieldConfig: {
        defaults: {
          unit: 's',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'histogram_quantile(0.5, sum by (le) (rate(approval_projection_lag_seconds_bucket[5m])))',
          legendFormat: 'p50',
          refId: 'A',
        },
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'histogram_quantile(0.95, sum by (le) (rate(approval_projection_lag_seconds_bucket[5m])))',
          legendFormat: 'p95',
          refId: 'B',
        },
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'histogram_quantile(0.99, sum by (le) (rate(approval_projection_lag_seconds_bucket[5m])))',
          legendFormat: 'p99',
          refId: 'C',
        },
      ],
    },
    {
      type: 'timeseries',
      title: 'Read-model writes by writer and outcome',
      description: '',
      id: 8,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 18,
      },
      fieldConfig: {
        defaults: {
          unit: 'ops',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (writer, outcome) (rate(approval_projection_writes_total[5m]))',
          legendFormat: '{{writer}} {{outcome}}',
          refId: 'A',
        },
      ],
    },
    {
      type: 'row',
      title: 'HTTP API',
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 26,
      },
      id: 9,
      panels: [],
    },
    {
      type: 'timeseries',
      title: 'Requests per second by status class',
      description: '',
      id: 10,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 27,
      },
      fieldConfig: {
        defaults: {
          unit: 'reqps',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (status) (rate(approval_http_requests_total[5m]))',
          legendFormat: '{{status}}',
          refId: 'A',
        },
      ],
    },
    {
      type: 'timeseries',
      title: 'Latency p95 by route',
      description: '',
      id: 11,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 27,
      },
      fieldConfig: {
        defaults: {
          unit: 's',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'topk(10, histogram_quantile(0.95, sum by (le, method, route) (rate(approval_http_request_duration_seconds_bucket[5m]))))',
          legendFormat: '{{method}} {{route}}',
          refId: 'A',
        },
      ],
    },
    {
      type: 'timeseries',
      title: '5xx ratio',
      description: '',
      id: 12,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 35,
      },
      fieldConfig: {
        defaults: {
          unit: 'percentunit',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum(rate(approval_http_requests_total{status=~"5.."}[5m])) / sum(rate(approval_http_requests_total[5m]))',
          legendFormat: '5xx / all',
          refId: 'A',
        },
      ],
    },
    {
      type: 'timeseries',
      title: 'WebSocket connections',
      description: '',
      id: 13,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 35,
      },
      fieldConfig: {
        defaults: {
          unit: 'short',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (instance) (approval_websocket_connections)',
          legendFormat: '{{instance}}',
          refId: 'A',
        },
      ],
    },
    {
      type: 'row',
      title: 'Integrations and notifications',
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 43,
      },
      id: 14,
      panels: [],
    },
    {
      type: 'timeseries',
      title: 'Service-function and httpCall attempts by function',
      description: '',
      id: 15,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 44,
      },
      fieldConfig: {
        defaults: {
          unit: 'ops',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (activity, function, outcome) (rate(approval_activity_attempts_total{activity=~"callWebhook|httpCall"}[5m]))',
          legendFormat: '{{activity}} {{function}} {{outcome}}',
          refId: 'A',
        },
      ],
    },
    {
      type: 'timeseries',
      title: 'Notification deliveries by channel and outcome',
      description: '',
      id: 16,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 44,
      },
      fieldConfig: {
        defaults: {
          unit: 'ops',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (channel, outcome) (rate(approval_notification_deliveries_total[5m]))',
          legendFormat: '{{channel}} {{outcome}}',
          refId: 'A',
        },
      ],
    },
    {
      type: 'row',
      title: 'Temporal worker (SDK metrics)',
      collapsed: false,
      gridPos: {
        h: 1,
        w: 24,
        x: 0,
        y: 52,
      },
      id: 17,
      panels: [],
    },
    {
      type: 'timeseries',
      title: 'Workflow / activity task schedule-to-start p95',
      description: 'Rising: the workers are short of slots or CPU',
      id: 18,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 0,
        y: 53,
      },
      fieldConfig: {
        defaults: {
          unit: 's',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'histogram_quantile(0.95, sum by (le) (rate(temporal_workflow_task_schedule_to_start_latency_seconds_bucket[5m])))',
          legendFormat: 'workflow tasks',
          refId: 'A',
        },
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'histogram_quantile(0.95, sum by (le) (rate(temporal_activity_schedule_to_start_latency_seconds_bucket[5m])))',
          legendFormat: 'activities',
          refId: 'B',
        },
      ],
    },
    {
      type: 'timeseries',
      title: 'Free task slots',
      description: '',
      id: 19,
      datasource: {
        type: 'prometheus',
        uid: '${datasource}',
      },
      gridPos: {
        h: 8,
        w: 12,
        x: 12,
        y: 53,
      },
      fieldConfig: {
        defaults: {
          unit: 'short',
        },
        overrides: [],
      },
      options: {
        legend: {
          displayMode: 'list',
          placement: 'bottom',
          showLegend: true,
        },
        tooltip: {
          mode: 'multi',
          sort: 'desc',
        },
      },
      targets: [
        {
          datasource: {
            type: 'prometheus',
            uid: '${datasource}',
          },
          expr: 'sum by (worker_type) (temporal_worker_task_slots_available)',
          legendFormat: '{{worker_type}}',
          refId: 'A',
        },
      ],
    },
  ],
} satisfies Dashboard;
