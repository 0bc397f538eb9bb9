// CPU time of process trees from /proc (Linux): utime + stime of a process and every live
// descendant, plus the reaped children they waited for (cutime + cstime).
import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const TICKS_PER_S = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

export const procAvailable = existsSync('/proc/self/stat');

/** A stat file's name (comm) and its fields after it: state ppid … utime(14) stime(15) cutime(16) cstime(17). */
function parseStat(s: string): { name: string; f: string[] } {
  return { name: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')), f: s.slice(s.lastIndexOf(')') + 2).split(' ') };
}

function readStat(pid: number): { ppid: number; ticks: number } | null {
  try {
    const { f } = parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
  } catch {
    return null;
  }
}

/** CPU ms used so far by each named process tree (null for a missing pid). */
export function cpuOfTrees<K extends string>(roots: Record<K, number | null | undefined>): Record<K, number | null> {
  const out = {} as Record<K, number | null>;
  if (!procAvailable) {
    for (const k of Object.keys(roots) as K[]) out[k] = null;
    return out;
  }
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = readStat(Number(d));
    if (!st) continue;
    ticks.set(Number(d), st.ticks);
    const list = children.get(st.ppid) ?? [];
    list.push(Number(d));
    children.set(st.ppid, list);
  }
  for (const [k, root] of Object.entries(roots) as Array<[K, number | null | undefined]>) {
    if (!root || !ticks.has(root)) {
      out[k] = null;
      continue;
    }
    let total = 0;
    const stack = [root];
    while (stack.length) {
      const pid = stack.pop()!;
      total += ticks.get(pid) ?? 0;
      stack.push(...(children.get(pid) ?? []));
    }
    out[k] = (total * 1000) / TICKS_PER_S;
  }
  return out;
}

/**
 * CPU ms used so far by one process's threads, summed by thread name (the stat file of each
 * /proc/<pid>/task entry): Node names its own (MainThread, WorkerThread — the SDK's workflow
 * thread —, V8Worker for the compiler and GC helpers, libuv-worker), the SDK's Rust core names its
 * tokio threads. Threads that ended meanwhile are missing; the bench reads it around a window in
 * which none end.
 */
export function cpuByThreadName(pid: number | null | undefined): Record<string, number> | null {
  if (!procAvailable || !pid) return null;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const out: Record<string, number> = {};
  for (const tid of tids) {
    let s: string;
    try {
      s = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended since the listing
    }
    const { name, f } = parseStat(s);
    out[name] = (out[name] ?? 0) + ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S;
  }
  return out;
}

export function diffCpu<K extends string>(
  after: Record<K, number | null>,
  before: Record<K, number | null>,
): Record<K, number | null> {
  const out = {} as Record<K, number | null>;
  for (const k of Object.keys(after) as K[])
    out[k] = after[k] === null || before[k] === null ? null : after[k]! - before[k]!;
  return out;
}

export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

/** Resident memory of one process in MB (VmRSS), or null without /proc. */
export function residentMb(pid: number | null | undefined): number | null {
  if (!pid || !procAvailable) return null;
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
export async function stopChild(child: ChildProcess, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await gone;
  clearTimeout(timer);
}
