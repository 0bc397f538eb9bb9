// The alert rules and the Grafana dashboard of deploy/, checked by Prometheus's own promtool (built
// from the Go module proxy into .tools/, test/helpers/prometheus.ts): the rules load, each alert
// fires on its series in `promtool test rules`, every dashboard query parses as PromQL, and every
// metric they name is one the service (or the Temporal SDK) exports. The dashboard's schema is
// checked by the type check (deploy/grafana/approval-service.dashboard.ts satisfies @grafana/schema).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { dashboard } from '../../deploy/grafana/approval-service.dashboard.js';
import { registry } from '../../src/observability/metrics.js';
import { registerBacklogGauges } from '../../src/observability/backlog-gauges.js';
import type { Orm } from '../../src/db/orm.js';
import { promtool } from '../helpers/prometheus.js';

const root = path.resolve(import.meta.dirname, '../..');
const rules = path.join(root, 'deploy/prometheus/alerts.yml');

const exprs = dashboard.panels.flatMap((p) => ('targets' in p ? (p.targets ?? []).map((t) => t.expr) : []));

/** Metric names a PromQL expression reads (histogram series back to their family). */
const metricNames = (expr: string) =>
  [...expr.matchAll(/\b((?:approval|temporal)_[a-z_]+)/g)].map((m) => m[1].replace(/_(bucket|sum|count)$/, ''));

describe('deploy/: alert rules and dashboard', () => {
  it('the alert rules pass promtool check rules', async () => {
    const checked = await promtool(['check', 'rules', rules]);
    expect(checked.output).toContain('SUCCESS: 7 rules found');
    expect(checked.code).toBe(0);
  }, 900_000);

  it('each alert fires on its series and stays quiet on healthy ones (promtool test rules)', async () => {
    const tested = await promtool(['test', 'rules', path.join(root, 'deploy/prometheus/alerts.test.yml')]);
    expect(tested.output).toContain('SUCCESS');
    expect(tested.code).toBe(0);
  }, 900_000);

  it('every dashboard query parses as PromQL (as recording rules, promtool check rules)', async () => {
    expect(exprs.length).toBeGreaterThan(15);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dashboard-'));
    try {
      const file = path.join(dir, 'dashboard-queries.yml');
      const recorded = exprs.map((expr, i) => ({ record: `dashboard:query_${i}`, expr }));
      await writeFile(file, stringify({ groups: [{ name: 'dashboard', rules: recorded }] }));
      const checked = await promtool(['check', 'rules', file]);
      expect(checked.output).toContain(`SUCCESS: ${exprs.length} rules found`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 900_000);

  it('names only metrics the service exports, and the JSON an operator imports is the typed source', async () => {
    registerBacklogGauges({} as Orm); // declares the scrape-time gauges; nothing is queried here
    const ours = new Set(registry.getMetricsAsArray().map((m) => m.name));
    const alertText = await readFile(rules, 'utf8');
    for (const name of [...exprs.flatMap(metricNames), ...metricNames(alertText)].filter((n) =>
      n.startsWith('approval_'),
    ))
      expect(ours.has(name), name).toBe(true);
    const json = JSON.parse(await readFile(path.join(root, 'deploy/grafana/approval-service.json'), 'utf8'));
    expect(json).toEqual(JSON.parse(JSON.stringify(dashboard)));
  });
});
