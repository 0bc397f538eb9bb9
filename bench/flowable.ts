// The optional Flowable phase of `npm run bench` (BENCH_FLOWABLE=1, docs/performance.md): the same
// workload as part 1 on Flowable 7's REST API — a small Spring Boot app (bench/flowable/: the
// flowable-spring-boot-starter-process-rest 7.2.0 (docs/performance.md says why not the
// umbrella flowable-spring-boot-starter-rest), the PostgreSQL driver, the BPMN of three sequential
// single-approver user tasks, no authentication) on a database of its own in the stack's embedded
// PostgreSQL server. Java 17 and Maven from Debian (installed with apt-get when missing); the jar is
// built once per content of bench/flowable/ into .tools/flowable-bench/, with Maven's local
// repository in .tools/maven-repo (nothing in ~/.m2). Nothing is fetched at run time but from Maven
// Central (the build) and Debian (the tools).
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { cpuOfTrees, diffCpu, loadAverage, stopChild } from './proc.js';
import { loadRatios, type LoadFigures, type Stats } from './median.js';

const root = path.resolve(import.meta.dirname, '..');
const appDir = path.join(root, 'bench', 'flowable');
const toolsDir = path.join(root, '.tools', 'flowable-bench');
const mavenRepo = path.join(root, '.tools', 'maven-repo');
/** The process in bench/flowable/src/main/resources/processes/bench-chain3.bpmn20.xml. */
export const FLOWABLE_PROCESS_KEY = 'benchChain3';
const bpmnFile = path.join(appDir, 'src', 'main', 'resources', 'processes', 'bench-chain3.bpmn20.xml');

interface Recorder {
  start: number[];
  approve: number[];
  todo: number[];
  ids: string[];
}

const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** Java 17 and Maven: Debian's `openjdk-17-jdk-headless maven`, installed with apt-get when `java` or `mvn` is missing. */
export function ensureJavaAndMaven(): void {
  if (has('java', ['-version']) && has('mvn', ['-v'])) return;
  console.log('flowable: installing openjdk-17-jdk-headless and maven with apt-get…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const asRoot = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
  const run = (args: string[]) =>
    asRoot.length
      ? execFileSync(asRoot[0]!, [...asRoot.slice(1), 'apt-get', ...args], { stdio: 'inherit', env })
      : execFileSync('apt-get', args, { stdio: 'inherit', env });
  const install = ['-o', 'DPkg::Lock::Timeout=600', 'install', '-y', '-qq', 'openjdk-17-jdk-headless', 'maven'];
  try {
    run(install);
  } catch {
    run(['-o', 'DPkg::Lock::Timeout=600', 'update', '-qq']);
    run(install);
  }
  if (!has('java', ['-version']) || !has('mvn', ['-v']))
    throw new Error('flowable: java or mvn was not found after apt-get install openjdk-17-jdk-headless maven');
}

/** Every file of the app's sources (pom.xml and src/), in a stable order. */
function sources(dir = appDir): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const file = path.join(dir, name);
      if (dir === appDir && name !== 'pom.xml' && name !== 'src') return [];
      return statSync(file).isDirectory() ? sources(file) : [file];
    });
}

/**
 * The app's jar, built with `mvn -q -DskipTests package` unless a jar of the same sources (a hash of
 * pom.xml and src/) is there already: .tools/flowable-bench/flowable-bench-<hash>.jar.
 */
export function buildFlowableApp(): { jar: string; built: boolean; seconds: number } {
  const hash = createHash('sha256');
  for (const file of sources()) hash.update(path.relative(appDir, file)).update('\0').update(readFileSync(file));
  const jar = path.join(toolsDir, `flowable-bench-${hash.digest('hex').slice(0, 16)}.jar`);
  ensureJavaAndMaven(); // java to run the jar; mvn to build it
  if (existsSync(jar)) return { jar, built: false, seconds: 0 };
  mkdirSync(toolsDir, { recursive: true });
  const buildDir = path.join(toolsDir, 'build');
  console.log(`flowable: building the app with Maven (local repository ${path.relative(root, mavenRepo)})…`);
  const t0 = performance.now();
  execFileSync(
    'mvn',
    [
      '-q',
      '-B',
      '-Dstyle.color=never',
      '-DskipTests',
      `-Dmaven.repo.local=${mavenRepo}`,
      `-Dbench.buildDirectory=${buildDir}`,
      'package',
    ],
    { cwd: appDir, stdio: 'inherit' },
  );
  copyFileSync(path.join(buildDir, 'flowable-bench.jar'), jar);
  // Jars of earlier sources go: one jar in .tools/flowable-bench at a time.
  for (const old of readdirSync(toolsDir))
    if (/^flowable-bench-[0-9a-f]+\.jar$/.test(old) && path.join(toolsDir, old) !== jar)
      rmSync(path.join(toolsDir, old));
  const seconds = (performance.now() - t0) / 1000;
  console.log(`flowable: built ${path.relative(root, jar)} in ${seconds.toFixed(0)} s`);
  return { jar, built: true, seconds };
}

/** The approvers of the BPMN's three user tasks, in order: they must be the bench's APPROVERS. */
export function checkApprovers(approvers: string[]): void {
  const inBpmn = [...readFileSync(bpmnFile, 'utf8').matchAll(/flowable:assignee="([^"]+)"/g)].map((m) => m[1]);
  if (inBpmn.join(',') !== approvers.join(','))
    throw new Error(
      `flowable: the BPMN's assignees (${inBpmn.join(', ')}) are not the bench's APPROVERS (${approvers.join(', ')}): edit ${path.relative(root, bpmnFile)}`,
    );
}

export interface FlowableApp {
  /** The process REST API's base URL (…/process-api). */
  base: string;
  pid: number;
  startupSeconds: number;
  stop(): Promise<void>;
}

/**
 * Starts the app on `port` against `database` (a JDBC URL) and waits until its process is
 * deployed. JAVA_OPTS-like extra arguments: BENCH_FLOWABLE_JVM_OPTS (space-separated; none by default).
 */
export async function startFlowable(opts: {
  jar: string;
  port: number;
  jdbcUrl: string;
  user: string;
  password: string;
  timeoutS?: number;
}): Promise<FlowableApp> {
  const jvmOpts = (process.env.BENCH_FLOWABLE_JVM_OPTS ?? '').split(' ').filter(Boolean);
  const t0 = performance.now();
  const child: ChildProcess = spawn(
    'java',
    [
      ...jvmOpts,
      '-jar',
      opts.jar,
      `--server.port=${opts.port}`,
      '--server.address=127.0.0.1',
      `--spring.datasource.url=${opts.jdbcUrl}`,
      `--spring.datasource.username=${opts.user}`,
      `--spring.datasource.password=${opts.password}`,
    ],
    { cwd: toolsDir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const recent: string[] = [];
  const keep = (d: Buffer) => {
    recent.push(...d.toString().split('\n').filter(Boolean));
    recent.splice(0, Math.max(0, recent.length - 30));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null | undefined;
  child.once('exit', (code, signal) => (exited = code ?? (signal ? -1 : null)));
  const stop = () => stopChild(child, 20_000);
  const base = `http://127.0.0.1:${opts.port}/process-api`;
  const deadline = Date.now() + (opts.timeoutS ?? 300) * 1000;
  for (;;) {
    if (exited !== undefined)
      throw new Error(`flowable: the app exited (${exited}) while starting:\n${recent.join('\n')}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `flowable: the app did not deploy its process in ${opts.timeoutS ?? 300} s:\n${recent.join('\n')}`,
      );
    }
    try {
      const res = await fetch(`${base}/repository/process-definitions?key=${FLOWABLE_PROCESS_KEY}`);
      if (res.ok && ((await res.json()) as { total: number }).total > 0) break;
      if (res.status === 401 || res.status === 403)
        throw Object.assign(
          new Error(`flowable: the REST API answers ${res.status}: it must run without authentication`),
          {
            fatal: true,
          },
        );
    } catch (err) {
      if ((err as { fatal?: boolean }).fatal) {
        await stop();
        throw err;
      }
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { base, pid: child.pid!, startupSeconds: (performance.now() - t0) / 1000, stop };
}

async function rest(url: string, body?: unknown): Promise<any> {
  const res = await fetch(url, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

/**
 * One instance, as part 1 runs it on the service: alice starts it
 * (POST /runtime/process-instances), then each approver lists the tasks assigned to them
 * (GET /runtime/tasks?assignee=…, Flowable's task query), finds the instance's and completes it
 * (POST /runtime/tasks/{id} {"action":"complete"}). No authentication: alice is only in the business key.
 */
export const flowableOne =
  (base: string, approvers: string[], run: string, round: number) => async (i: number, rec: Recorder | null) => {
    const timed = async <T>(into: number[] | undefined, fn: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const out = await fn();
      into?.push(performance.now() - t0);
      return out;
    };
    const started = await timed(rec?.start, () =>
      rest(`${base}/runtime/process-instances`, {
        processDefinitionKey: FLOWABLE_PROCESS_KEY,
        businessKey: `alice-${run}-${round}-${rec ? 'm' : 'w'}-${i}`,
      }),
    );
    rec?.ids.push(started.id);
    for (const user of approvers) {
      const todo = await timed(rec?.todo, () =>
        rest(`${base}/runtime/tasks?assignee=${encodeURIComponent(user)}&size=50`),
      );
      const task = (todo.data as Array<{ id: string; processInstanceId: string }>).find(
        (t) => t.processInstanceId === started.id,
      );
      if (!task) throw new Error(`flowable: ${user} has no task of ${started.id}`);
      await timed(rec?.approve, () => rest(`${base}/runtime/tasks/${task.id}`, { action: 'complete' }));
    }
  };

export interface FlowableResult extends LoadFigures {
  /** CPU ms per instance of the Java process and of PostgreSQL's (postmaster) tree. */
  cpuMsPerInstance: Record<'flowable' | 'postgres', number | null>;
  loadAverageAfter: string;
}

/**
 * `warmup` unmeasured instances, then `n` measured ones through `load` (run.ts's, at its
 * concurrency): latencies, instances/s and CPU ms per instance from /proc (the Java process plus
 * PostgreSQL's tree, as the service's phase counts its processes).
 */
export async function flowablePhase(opts: {
  name: string;
  app: FlowableApp;
  postgresPid: () => number | null;
  approvers: string[];
  warmup: number;
  n: number;
  concurrency: number;
  run: string;
  round: number;
  load: (
    count: number,
    one: (i: number, rec: Recorder | null) => Promise<void>,
    rec: Recorder | null,
  ) => Promise<number>;
  stats: (ms: number[]) => Stats;
}): Promise<FlowableResult> {
  const one = flowableOne(opts.app.base, opts.approvers, opts.run, opts.round);
  process.stdout.write(`${opts.name}: warm-up (${opts.warmup})… `);
  await opts.load(opts.warmup, one, null);
  process.stdout.write(`measuring ${opts.n} at concurrency ${opts.concurrency}… `);
  const rec: Recorder = { start: [], approve: [], todo: [], ids: [] };
  const pids = () => ({ flowable: opts.app.pid, postgres: opts.postgresPid() });
  const cpu0 = cpuOfTrees(pids());
  const client0 = process.cpuUsage();
  const wallS = await opts.load(opts.n, one, rec);
  const clientCpu = process.cpuUsage(client0);
  const cpu = diffCpu(cpuOfTrees(pids()), cpu0);
  console.log(`${wallS.toFixed(1)} s`);
  const per = (v: number | null) => (v === null ? null : Math.round((v / opts.n) * 10) / 10);
  const cpuMsPerInstance = { flowable: per(cpu.flowable), postgres: per(cpu.postgres) };
  return {
    instances: opts.n,
    wallS: Math.round(wallS * 100) / 100,
    perSecond: Math.round((opts.n / wallS) * 100) / 100,
    start: opts.stats(rec.start),
    approve: opts.stats(rec.approve),
    todo: opts.stats(rec.todo),
    cpuMsPerInstance,
    cpuMsPerInstanceTotal: Math.round(((cpuMsPerInstance.flowable ?? 0) + (cpuMsPerInstance.postgres ?? 0)) * 10) / 10,
    loadClientCpuMsPerInstance: Math.round(((clientCpu.user + clientCpu.system) / 1000 / opts.n) * 10) / 10,
    loadAverageAfter: loadAverage(),
  };
}

/** The targets (issue 48) for service/Flowable. */
export const FLOWABLE_TARGETS: Record<string, string> = {
  startP50: '≤ 1.5',
  approveP50: '≤ 1',
  throughput: '≥ 0.9',
  cpuPerInstance: '≤ 1.2',
};

/** The ratios service/Flowable of one round. */
export function againstFlowable(
  flowable: FlowableResult,
  service: Pick<FlowableResult, 'start' | 'approve' | 'perSecond' | 'cpuMsPerInstanceTotal'>,
): Record<string, number> {
  return loadRatios(flowable, service);
}
