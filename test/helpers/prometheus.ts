// Real Prometheus tools for the observability tests: `promtool` (built once from the Go module
// proxy into .tools/promtool/<version>/bin, like the Temporal server) and a parser of the text
// exposition to read sample values.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOOLS_DIR } from '../../src/runtime/temporal-cli.js';

const run = promisify(execFile);

/** Prometheus 3.x is published on the Go module proxy as github.com/prometheus/prometheus v0.3xx. */
export const PROMETHEUS_MODULE_VERSION = 'v0.316.0';

/** The promtool binary, built with `go install` when missing (the first build takes minutes). */
export async function ensurePromtool(): Promise<string> {
  const bin = path.join(TOOLS_DIR, 'promtool', PROMETHEUS_MODULE_VERSION, 'bin');
  const promtool = path.join(bin, 'promtool');
  if (existsSync(promtool)) return promtool;
  await run(
    process.env.GO ?? 'go',
    ['install', `github.com/prometheus/prometheus/cmd/promtool@${PROMETHEUS_MODULE_VERSION}`],
    {
      env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'auto', GOBIN: bin },
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return promtool;
}

/** Runs promtool; resolves with its output and exit code instead of throwing on a non-zero exit. */
export async function promtool(args: string[], stdin?: string): Promise<{ code: number; output: string }> {
  const bin = await ensurePromtool();
  return new Promise((resolve) => {
    const child = execFile(bin, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

export interface MetricFamily {
  name: string;
  help: string;
  type: string;
  metrics: Array<{
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }>;
}

const parsePrometheusTextFormat = createRequire(import.meta.url)('parse-prometheus-text-format') as (
  text: string,
) => MetricFamily[];

/** The exposition as metric families (parse-prometheus-text-format). */
export const parseExposition = (text: string): MetricFamily[] => parsePrometheusTextFormat(text);

/**
 * Sum of a family's samples whose labels include `labels` (counters and gauges: the value;
 * histograms: the count).
 */
export function sampleSum(families: MetricFamily[], name: string, labels: Record<string, string> = {}): number {
  return families
    .filter((f) => f.name === name)
    .flatMap((f) => f.metrics)
    .filter((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))
    .reduce((sum, m) => sum + Number(m.value ?? m.count ?? 0), 0);
}

/** Scrapes several /metrics URLs and parses each. */
export async function scrape(urls: string[], token?: string): Promise<{ texts: string[]; families: MetricFamily[] }> {
  const texts = await Promise.all(
    urls.map(async (url) => {
      const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      return res.text();
    }),
  );
  return { texts, families: texts.flatMap(parseExposition) };
}
