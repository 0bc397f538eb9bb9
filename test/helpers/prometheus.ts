// Real Prometheus tools for the observability tests: `promtool` (built once from the Go module
// proxy into .tools/promtool/<version>/bin, like the Temporal server) and a reader of sample values.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
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

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** One exposition's metric families (from `# TYPE` lines) and samples, for reading values. */
export interface Exposition {
  families: Set<string>;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Reads the samples of a text exposition (its validity is promtool's job: `promtool check metrics`). */
export function parseExposition(text: string): Exposition {
  const families = new Set<string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) /.exec(line);
    if (type) families.add(type[1]);
    if (!line || line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(LABEL)].map((l) => [l[1], l[2]]));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { families, samples };
}

/** Sum of the samples of `name` whose labels include `labels`; for a histogram, of its `_count`. */
export function sampleSum(expositions: Exposition[], name: string, labels: Record<string, string> = {}): number {
  const all = expositions.flatMap((e) => e.samples);
  const own = all.filter((s) => s.name === name);
  return (own.length ? own : all.filter((s) => s.name === `${name}_count`))
    .filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** Scrapes several /metrics URLs and parses each. */
export async function scrape(urls: string[], token?: string): Promise<{ texts: string[]; families: Exposition[] }> {
  const texts = await Promise.all(
    urls.map(async (url) => {
      const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
      if (!res.ok) throw new Error(`${url} answered ${res.status}`);
      return res.text();
    }),
  );
  return { texts, families: texts.map(parseExposition) };
}
