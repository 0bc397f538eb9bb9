// The JavaScript sandbox of jsFilter, jsTransform, jsSwitch and log nodes: QuickJS compiled to
// WebAssembly (quickjs-emscripten's release-sync build), one runtime per call with a memory limit,
// a stack limit and a deadline. Nothing of the host is reachable from a script: no process, require,
// fetch or timers; only a console.log whose lines are captured. Node's `vm` is not a boundary.
// Activities call runSandboxed: the script runs in a thread of its own (sandbox-thread.ts), which
// is terminated when the script outlives its limit inside native code the deadline cannot reach
// (a memory bomb spends seconds in QuickJS's allocator and collector).
import { Worker } from 'node:worker_threads';
import { siblingThreadModule } from '../infra/thread-module.js';
import {
  newQuickJSWASMModule,
  shouldInterruptAfterDeadline,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten';

export const SCRIPT_MEMORY_BYTES = 32 * 1024 * 1024;
export const SCRIPT_STACK_BYTES = 256 * 1024;
export const SCRIPT_TIMEOUT_MS = 1000;
/** The most a node may ask for (its `timeoutMs`): a script is a transformation, not a job. */
export const SCRIPT_MAX_TIMEOUT_MS = 10_000;
const MAX_LOG_LINES = 100;
const MAX_LOG_LINE = 2000;

/** RuleGo's function each node's `jsScript` body is wrapped in. */
export const SCRIPT_FUNCTIONS = {
  jsFilter: 'Filter',
  jsTransform: 'Transform',
  jsSwitch: 'Switch',
  log: 'ToString',
} as const;
export type ScriptKind = keyof typeof SCRIPT_FUNCTIONS;

export interface ScriptArgs {
  /** The parsed JSON when dataType is JSON, else the data string. */
  msg: unknown;
  metadata: Record<string, string>;
  msgType: string;
  dataType: string;
}

export type ScriptOutcome =
  { ok: true; value: unknown; logs: string[]; ms: number } | { ok: false; error: string; logs: string[]; ms: number };

// A WebAssembly module is loaded once (about 10 ms) and serves every call, each in a runtime of its
// own. A script that failed may have left the engine in a state it cannot free (QuickJS aborts the
// whole module after a stack overflow): that module is dropped and the next call loads a new one.
let scripts: Promise<QuickJSWASMModule> | null = null;
// Syntax checks at save (synchronous for the server's validation) use their own module.
let checker: QuickJSWASMModule | null = await newQuickJSWASMModule();

const PARAMS = 'msg, metadata, msgType, dataType';
const wrap = (name: string, body: string) => `function ${name}(${PARAMS}) {\n${body}\n}`;
const MAX_NESTING = 200;

/** QuickJS's parser recurses on the host's stack: a script nested deeper than this is refused before it is parsed. */
function tooDeep(source: string): string | null {
  let depth = 0;
  for (const ch of source) {
    if (ch === '(' || ch === '[' || ch === '{') {
      if (++depth > MAX_NESTING) return `the script nests brackets more than ${MAX_NESTING} deep`;
    } else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
  }
  return null;
}

/** A script's syntax problem (compiled, never run), or null. The server calls it when a chain is saved. */
export function checkScript(source: string): string | null {
  const deep = tooDeep(source);
  if (deep) return deep;
  if (!checker) return 'the script checker is restarting: save again in a moment';
  const module = checker;
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(SCRIPT_MEMORY_BYTES);
  runtime.setMaxStackSize(SCRIPT_STACK_BYTES);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + SCRIPT_TIMEOUT_MS));
  const ctx = runtime.newContext();
  let healthy = true;
  try {
    const result = ctx.evalCode(wrap('Script', source), 'script.js', { compileOnly: true, strict: true });
    if (result.error) {
      const message = errorText(ctx, result.error);
      result.error.dispose();
      return message;
    }
    result.value.dispose();
    return null;
  } catch (err) {
    healthy = false;
    return `the script cannot be compiled: ${err instanceof Error ? err.message : String(err)}`;
  } finally {
    if (!release(ctx, runtime) || !healthy) {
      checker = null;
      void newQuickJSWASMModule().then((m) => (checker = m));
    }
  }
}

/** Frees a call's context and runtime; false when the engine aborted (its module is unusable). */
function release(ctx: QuickJSContext, runtime: QuickJSRuntime): boolean {
  try {
    ctx.dispose();
    runtime.dispose();
    return true;
  } catch {
    return false;
  }
}

/** Runs one node's script on one message. Never throws for what the script does: the outcome says. */
export async function runScript(
  kind: ScriptKind,
  body: string,
  args: ScriptArgs,
  timeoutMs = SCRIPT_TIMEOUT_MS,
): Promise<ScriptOutcome> {
  const deep = tooDeep(body);
  if (deep) return { ok: false, error: deep, logs: [], ms: 0 };
  const loading = (scripts ??= newQuickJSWASMModule());
  let quickjs: QuickJSWASMModule;
  try {
    quickjs = await loading;
  } catch (err) {
    scripts = null;
    throw err;
  }
  const limit = Math.min(Math.max(1, timeoutMs), SCRIPT_MAX_TIMEOUT_MS);
  const started = Date.now();
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(SCRIPT_MEMORY_BYTES);
  runtime.setMaxStackSize(SCRIPT_STACK_BYTES);
  let interrupted = false;
  const deadline = shouldInterruptAfterDeadline(started + limit);
  runtime.setInterruptHandler((rt) => (interrupted = deadline(rt) === true));
  const ctx = runtime.newContext();
  const logs: string[] = [];
  let failed = false;
  const done = (outcome: { ok: true; value: unknown } | { ok: false; error: string }): ScriptOutcome => {
    failed = !outcome.ok;
    return { ...outcome, logs, ms: Date.now() - started };
  };
  try {
    installConsole(ctx, logs);
    const input = ctx.newString(JSON.stringify(args));
    ctx.setProp(ctx.global, '__input', input);
    input.dispose();
    const name = SCRIPT_FUNCTIONS[kind];
    const code = `${wrap(name, body)}
;(function () {
  const a = JSON.parse(globalThis.__input);
  delete globalThis.__input;
  const out = ${name}(a.msg, a.metadata, a.msgType, a.dataType);
  return out === undefined ? 'null' : JSON.stringify(out);
})()`;
    const result = ctx.evalCode(code, 'script.js', { strict: true });
    if (result.error) {
      const raw = errorText(ctx, result.error);
      result.error.dispose();
      if (interrupted) return done({ ok: false, error: `script ran longer than ${limit} ms and was stopped` });
      if (/out of memory/i.test(raw))
        return done({
          ok: false,
          error: `script used more than ${SCRIPT_MEMORY_BYTES / 1024 / 1024} MB and was stopped`,
        });
      if (/stack overflow/i.test(raw)) return done({ ok: false, error: `script overflowed its stack: ${raw}` });
      if (/\b(process|require|fetch|setTimeout|setInterval|module|Buffer)\b.* is not defined/.test(raw))
        return done({ ok: false, error: `${raw} (scripts run in a sandbox without Node's globals)` });
      return done({ ok: false, error: raw });
    }
    const text = ctx.getString(result.value);
    result.value.dispose();
    return done({ ok: true, value: text === undefined ? null : (JSON.parse(text) as unknown) });
  } catch (err) {
    // The engine itself gave up (e.g. memory exhausted while marshalling): the script's fault.
    if (interrupted) return done({ ok: false, error: `script ran longer than ${limit} ms and was stopped` });
    return done({ ok: false, error: `script failed: ${err instanceof Error ? err.message : String(err)}` });
  } finally {
    // After a failure the module is not trusted again (and its grown memory is given back).
    if (!release(ctx, runtime) || failed) if (scripts === loading) scripts = null;
  }
}

function installConsole(ctx: QuickJSContext, logs: string[]) {
  const console = ctx.newObject();
  const log = ctx.newFunction('log', (...parts: QuickJSHandle[]) => {
    if (logs.length >= MAX_LOG_LINES) return;
    const line = parts
      .map((p) => {
        const v: unknown = ctx.dump(p);
        return typeof v === 'string' ? v : JSON.stringify(v);
      })
      .join(' ');
    logs.push(line.length > MAX_LOG_LINE ? `${line.slice(0, MAX_LOG_LINE)}…` : line);
  });
  for (const name of ['log', 'info', 'warn', 'error', 'debug']) ctx.setProp(console, name, log);
  ctx.setProp(ctx.global, 'console', console);
  log.dispose();
  console.dispose();
}

/** "TypeError: x is not a function (at line 3)" from a QuickJS error value. */
function errorText(ctx: QuickJSContext, handle: QuickJSHandle): string {
  const e = ctx.dump(handle) as { name?: string; message?: string; stack?: string } | string | null;
  if (!e || typeof e !== 'object') return String(e);
  const name = e.name ?? 'Error';
  const message = e.message ?? '';
  const line = /script\.js:(\d+)/.exec(e.stack ?? '')?.[1];
  // The wrapper adds one line before the body: line numbers are the body's own.
  return `${name}: ${message}${line ? ` (line ${Math.max(1, Number(line) - 1)})` : ''}`;
}

// ---------- script threads ----------

const MAX_THREADS = 2;
/** How long past its own deadline a script's thread may take before it is terminated. */
const GRACE_MS = 1000;

interface ScriptThread {
  worker: Worker;
  ready: Promise<void>;
}
interface Job {
  kind: ScriptKind;
  body: string;
  args: ScriptArgs;
  timeoutMs: number;
  resolve(outcome: ScriptOutcome): void;
}

const idle: ScriptThread[] = [];
const queue: Job[] = [];
let threads = 0;

function spawnThread(): ScriptThread {
  const { url, execArgv } = siblingThreadModule(import.meta.url, 'sandbox-thread');
  const worker = new Worker(url, execArgv ? { execArgv } : {});
  // Idle threads do not keep the process alive.
  worker.unref();
  const ready = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  threads++;
  return { worker, ready };
}

function pump() {
  while (queue.length) {
    const thread = idle.pop() ?? (threads < MAX_THREADS ? spawnThread() : null);
    if (!thread) return;
    void runOn(thread, queue.shift()!);
  }
}

async function runOn(thread: ScriptThread, job: Job) {
  const lost = (error: string) => {
    threads--;
    void thread.worker.terminate();
    job.resolve({ ok: false, error, logs: [], ms: 0 });
    pump();
  };
  try {
    await thread.ready;
  } catch (err) {
    return lost(`the script sandbox did not start: ${err instanceof Error ? err.message : String(err)}`);
  }
  const limit = Math.min(Math.max(1, job.timeoutMs), SCRIPT_MAX_TIMEOUT_MS);
  const onMessage = (outcome: ScriptOutcome) => {
    clearTimeout(timer);
    thread.worker.off('error', onError);
    idle.push(thread);
    job.resolve(outcome);
    pump();
  };
  const onError = (err: Error) => {
    clearTimeout(timer);
    thread.worker.off('message', onMessage);
    lost(`script failed: ${err.message}`);
  };
  const timer = setTimeout(() => {
    thread.worker.off('message', onMessage);
    thread.worker.off('error', onError);
    lost(`script ran longer than ${limit} ms and was stopped`);
  }, limit + GRACE_MS);
  thread.worker.once('message', onMessage);
  thread.worker.once('error', onError);
  thread.worker.postMessage({ kind: job.kind, body: job.body, args: job.args, timeoutMs: limit });
}

/** Runs one node's script in a script thread; never throws for what the script does. */
export function runSandboxed(
  kind: ScriptKind,
  body: string,
  args: ScriptArgs,
  timeoutMs = SCRIPT_TIMEOUT_MS,
): Promise<ScriptOutcome> {
  return new Promise((resolve) => {
    queue.push({ kind, body, args, timeoutMs, resolve });
    pump();
  });
}
