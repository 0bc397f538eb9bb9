// The two ways the service runs: `npm start` (embedded runtime, Ctrl-C, restart keeps data)
// and production (`npm run build`, then dist/server.js and dist/worker.js on given DATABASE_URL
// and TEMPORAL_ADDRESS).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { oneStep } from '../helpers/flow.js';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcess[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

async function call(base: string, p: string, init: { token?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}${p}`, {
    method: init.body ? 'POST' : 'GET',
    headers: {
      ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}
const login = async (base: string, username: string, password: string, tenantId: string) =>
  (await call(base, '/api/v1/auth/login', { body: { username, password, tenantId } })).body.data.accessToken as string;

function run(
  args: string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  // An empty value removes the variable (the test stack's own settings must not leak in).
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const [k, v] of Object.entries(env)) if (v === '') delete merged[k];
  const child = spawn(process.execPath, args, { cwd: root, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, output: () => out, exited };
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('npm start (embedded runtime)', () => {
  it('starts everything, stops cleanly on Ctrl-C, and a second start finds the data', async () => {
    const dataDir = path.join('.data', `start-test-${process.pid}`);
    const [port, pgPort, temporalPort, uiPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      JWT_SECRET: '',
    };
    const base = `http://127.0.0.1:${port}`;
    try {
      const started = Date.now();
      const first = run(['--import', 'tsx', 'scripts/start.ts'], env);
      await waitFor(
        () => {
          if (first.child.exitCode !== null) throw new Error(`npm start exited:\n${first.output()}`);
          return first.output().includes('Approval service is running');
        },
        120_000,
        'npm start',
      );
      const startupMs = Date.now() - started;
      expect(first.output()).toContain(`${base}/docs`);
      expect(first.output()).toContain(`http://127.0.0.1:${uiPort}`);
      expect((await call(base, '/readyz')).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${uiPort}/`)).status).toBe(200);
      const admin = await login(base, 'admin', 'admin', 'demo');
      expect(await login(base, 'alice', 'demo', 'demo')).toBeTruthy();
      // The demo tenant comes with the example processes deployed.
      const defs = await call(base, '/api/v1/workflow/process-definitions?status=active', { token: admin });
      expect(defs.body.data.items.map((d: any) => d.key).sort()).toEqual([
        'expense_claim',
        'leave_request',
        'leave_request_zh',
        'purchase_request',
      ]);
      const alice = await login(base, 'alice', 'demo', 'demo');
      const started1 = await call(base, '/api/v1/workflow/process-instances/start', {
        token: alice,
        body: { processKey: 'leave_request', variables: { days: 1 } },
      });
      expect(started1.status).toBe(201);
      const instanceId = started1.body.data.instanceId;

      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);
      expect(first.output()).toContain('Stopped.');
      for (const p of [port, pgPort, temporalPort, uiPort]) expect(await listening(p), `port ${p} closed`).toBe(false);

      const second = run(['--import', 'tsx', 'scripts/start.ts'], env);
      await waitFor(() => second.output().includes('Approval service is running'), 120_000, 'second npm start');
      const bob = await login(base, 'bob', 'demo', 'demo');
      const todo = await call(base, '/api/v1/workflow/process-instances/todo', { token: bob });
      const task = todo.body.data.items.find((x: any) => x.instanceId === instanceId);
      expect(task).toBeTruthy();
      // The workflow kept running across the restart: the approval completes it.
      const approved = await call(base, `/api/v1/workflow/tasks/${task.id}/approve`, {
        token: bob,
        body: { comment: 'after restart' },
      });
      expect(approved.body.data.instance.status).toBe('completed');
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
      console.log(`npm start: ready in ${(startupMs / 1000).toFixed(1)} s`);
    } finally {
      await rm(path.join(root, dataDir), { recursive: true, force: true });
    }
  }, 300_000);

  it('names what is missing when the Temporal CLI cannot be found', async () => {
    const port = await freePort();
    const dataDir = path.join('.data', `cli-test-${process.pid}`);
    const r = run(['--import', 'tsx', 'scripts/start.ts'], {
      TEMPORAL_CLI: '/nonexistent/temporal',
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: '',
      PORT: String(port),
      DATA_DIR: dataDir,
    });
    expect(await r.exited).toBe(1);
    expect(r.output()).toContain('TEMPORAL_CLI points to /nonexistent/temporal');
    await rm(path.join(root, dataDir), { recursive: true, force: true });
  }, 60_000);
});

describe('production mode', () => {
  it('builds, then runs dist/server.js and dist/worker.js with the prebuilt workflow bundle', async () => {
    await promisify(execFile)('npm', ['run', 'build'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    const port = await freePort();
    const taskQueue = `prod-${process.pid}`;
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL: inject('databaseUrl'),
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      TEMPORAL_TASK_QUEUE: taskQueue,
      JWT_SECRET: 'p'.repeat(40),
      ADMIN_PASSWORD: 'prod-admin-pass',
      SEED_DEMO: 'false',
      PORT: String(port),
      // info, so the worker's start-up shows whether it bundled the workflows or loaded the prebuilt bundle
      LOG_LEVEL: 'info',
    };
    const server = run(['dist/server.js'], env);
    const worker = run(['dist/worker.js'], env);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => (await call(base, '/readyz').catch(() => ({ status: 0 }))).status === 200,
      60_000,
      'dist server',
    );
    await waitFor(() => worker.output().includes('worker started'), 60_000, 'dist worker');
    expect(worker.output()).toContain('using the prebuilt workflow bundle');
    expect(worker.output()).not.toContain('Workflow bundle created');
    const sys = await login(base, 'admin', 'admin', 'system').catch(() => null);
    // The system admin keeps the password it was seeded with; the production value applies to new seeds only.
    const token = sys ?? (await login(base, 'admin', 'prod-admin-pass', 'system'));
    const tenant = `prod-${Date.now()}`;
    expect(
      (
        await call(base, '/api/v1/tenants', {
          token,
          body: { id: tenant, name: 'Prod', admin: { username: 'boss', password: 'boss-pass' } },
        })
      ).status,
    ).toBe(201);
    const boss = await login(base, 'boss', 'boss-pass', tenant);
    expect(
      (
        await call(base, '/api/v1/workflow/process-definitions/deploy', {
          token: boss,
          body: { dsl: oneStep('prod', { approver: { type: 'initiatorSelf' } }) },
        })
      ).status,
    ).toBe(201);
    const started = await call(base, '/api/v1/workflow/process-instances/start', {
      token: boss,
      body: { processKey: 'prod', variables: {} },
    });
    expect(started.status).toBe(201);
    const todo = await call(base, '/api/v1/workflow/process-instances/todo', { token: boss });
    expect(todo.body.data.items.map((x: any) => x.instanceId)).toContain(started.body.data.instanceId);
    server.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(await worker.exited).toBe(0);
  }, 300_000);
});
