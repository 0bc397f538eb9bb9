// Summaries for BENCH_PROFILE=1: V8 .cpuprofile files (self time by function and by origin,
// optionally only the samples inside a time window) and pg_stat_statements' top statements.
import { readFileSync } from 'node:fs';
import type { Orm } from '../src/db/orm.js';

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileSummary {
  file: string;
  sampledMs: number;
  windowed: boolean;
  byOrigin: Array<{ origin: string; ms: number; pct: number }>;
  topFunctions: Array<{ fn: string; ms: number; pct: number }>;
}

function originOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native/builtin)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return 'node:internal';
  const m = url.match(/\/(src|workflows|activities|bench|scripts)\//);
  if (m) return `project ${m[1]}/`;
  if (url.includes('workflow-bundle') || url.includes('webpack')) return 'workflow bundle';
  return url
    .replace(/^file:\/\//, '')
    .split('/')
    .slice(-2)
    .join('/');
}

/** `window`: [from, to] in µs of the monotonic clock (process.hrtime), which V8's profile timestamps share on Linux. */
export function summarizeCpuProfile(file: string, window?: [number, number], top = 20): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let t = p.startTime;
  let inWindow = 0;
  const pass = (useWindow: boolean) => {
    self.clear();
    t = p.startTime;
    inWindow = 0;
    for (let i = 0; i < p.samples.length; i++) {
      t += p.timeDeltas[i];
      const dt = p.timeDeltas[i + 1] ?? 0;
      if (useWindow && window && (t < window[0] || t > window[1])) continue;
      inWindow++;
      self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + dt);
    }
  };
  pass(true);
  const windowed = !!window && inWindow > 0;
  if (!windowed) pass(false);
  const byFn = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  let total = 0;
  for (const [id, us] of self) {
    const cf = byId.get(id)!.callFrame;
    if (cf.functionName === '(idle)') continue;
    total += us;
    const origin = originOf(cf.url, cf.functionName);
    const fn =
      `${cf.functionName || '(anonymous)'} ${cf.url ? `${cf.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(src|workflows|activities|bench|scripts)\//, '$1/')}:${cf.lineNumber + 1}` : ''}`.trim();
    byFn.set(fn, (byFn.get(fn) ?? 0) + us);
    byOrigin.set(origin, (byOrigin.get(origin) ?? 0) + us);
  }
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]);
  return {
    file,
    sampledMs: Math.round(total / 1000),
    windowed,
    byOrigin: sorted(byOrigin)
      .slice(0, 15)
      .map(([origin, us]) => ({ origin, ms: Math.round(us / 1000), pct: Math.round((1000 * us) / total) / 10 })),
    topFunctions: sorted(byFn)
      .slice(0, top)
      .map(([fn, us]) => ({ fn, ms: Math.round(us / 1000), pct: Math.round((1000 * us) / total) / 10 })),
  };
}

export async function ensurePgStatStatements(orm: Orm): Promise<boolean> {
  try {
    await orm.em.fork().execute(`create extension if not exists pg_stat_statements`);
    await orm.em.fork().execute(`select pg_stat_statements_reset()`);
    return true;
  } catch {
    return false;
  }
}

export async function resetPgStatStatements(orm: Orm) {
  await orm.em.fork().execute(`select pg_stat_statements_reset()`);
}

export interface StatementRow {
  query: string;
  calls: number;
  totalMs: number;
  meanMs: number;
  /** Planning time (pg_stat_statements.track_planning): statements with inlined values are planned on every call. */
  planMs: number;
  rows: number;
}

export async function topStatements(orm: Orm, limit = 15): Promise<StatementRow[]> {
  const rows = await orm.em.fork().execute<any[]>(
    `select query, calls, total_exec_time, mean_exec_time, total_plan_time, rows from pg_stat_statements
      where query not ilike '%pg_stat_statements%' order by total_exec_time + total_plan_time desc limit ?`,
    [limit],
  );
  return rows.map((r) => ({
    query: String(r.query).replace(/\s+/g, ' '),
    calls: Number(r.calls),
    totalMs: Math.round(Number(r.total_exec_time)),
    meanMs: Math.round(Number(r.mean_exec_time) * 100) / 100,
    planMs: Math.round(Number(r.total_plan_time ?? 0)),
    rows: Number(r.rows),
  }));
}

/** EXPLAIN (GENERIC_PLAN) of normalised statements (PostgreSQL 16+): the plan shape, indexes used or not. */
export async function genericPlans(
  orm: Orm,
  rows: StatementRow[],
): Promise<Array<{ query: string; meanMs: number; plan: string }>> {
  const out: Array<{ query: string; meanMs: number; plan: string }> = [];
  for (const r of rows) {
    try {
      const plan = await orm.em.fork().getConnection().execute<any[]>(`explain (generic_plan) ${r.query}`, [], 'all');
      out.push({ query: r.query, meanMs: r.meanMs, plan: plan.map((p) => p['QUERY PLAN']).join('\n') });
    } catch (err) {
      out.push({ query: r.query, meanMs: r.meanMs, plan: `(no plan: ${(err as Error).message.split('\n')[0]})` });
    }
  }
  return out;
}
