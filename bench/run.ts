// `npm run bench`: timings of the real stack (embedded PostgreSQL, Temporal dev server, worker,
// server) on this machine. Prints a table; nothing here is asserted.
import { startStack } from '../scripts/stack.js';

const N = Number(process.env.BENCH_INSTANCES ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);

function stats(ms: number[]) {
  const s = [...ms].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, p50: q(0.5), p95: q(0.95), p99: q(0.99), max: s[s.length - 1] };
}

async function call(base: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as any;
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function timed<T>(into: number[], fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  into.push(performance.now() - t0);
  return out;
}

const t0 = performance.now();
const stack = await startStack({ name: 'bench', logLevel: 'error' });
const startupMs = performance.now() - t0;
try {
  const base = stack.baseUrl;
  const login = async (u: string) => (await call(base, '/api/v1/auth/login', undefined, { username: u, password: u === 'admin' ? 'admin' : 'demo', tenantId: 'demo' })).accessToken as string;
  const [admin, alice, bob, erin] = await Promise.all(['admin', 'alice', 'bob', 'erin'].map(login));
  const { readFileSync } = await import('node:fs');
  const dsl = JSON.parse(readFileSync(new URL('../examples/leave-request.json', import.meta.url), 'utf8'));
  await call(base, '/api/v1/workflow/process-definitions/deploy', admin, { dsl });

  const startMs: number[] = [];
  const approveMs: number[] = [];
  const listMs: number[] = [];
  const wall0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        const i = next++;
        const started = await timed(startMs, () => call(base, '/api/v1/workflow/process-instances/start', alice, { processKey: 'leave_request', businessKey: `bench-${i}`, variables: { days: 5 } }));
        const todo = await timed(listMs, () => call(base, '/api/v1/workflow/process-instances/todo?pageSize=200', bob));
        const bobTask = todo.items.find((t: any) => t.instanceId === started.instanceId);
        await timed(approveMs, () => call(base, `/api/v1/workflow/tasks/${bobTask.id}/approve`, bob, {}));
        const erinTodo = await call(base, '/api/v1/workflow/process-instances/todo?pageSize=200', erin);
        const erinTask = erinTodo.items.find((t: any) => t.instanceId === started.instanceId);
        await timed(approveMs, () => call(base, `/api/v1/workflow/tasks/${erinTask.id}/approve`, erin, {}));
      }
    }),
  );
  const wallS = (performance.now() - wall0) / 1000;

  // Instance views of the largest definition allowed (docs/definitions.md: 500 nodes): a chain of
  // 498 userTasks between start and end, one instance waiting at the first task.
  const CHAIN = 498;
  const DETAIL_CALLS = Number(process.env.BENCH_DETAIL_CALLS ?? 50);
  const chainNodes: unknown[] = [{ id: 'start', type: 'startTask', name: 'Start' }];
  const chainConnections: unknown[] = [];
  for (let i = 0; i < CHAIN; i++) {
    chainNodes.push({ id: `t${i}`, type: 'userTask', name: `Step ${i}`, configuration: { approver: { type: 'user', userIds: ['bob'] } } });
    chainConnections.push({ fromId: i === 0 ? 'start' : `t${i - 1}`, toId: `t${i}`, type: 'Success' });
  }
  chainNodes.push({ id: 'end', type: 'end', name: 'End' });
  chainConnections.push({ fromId: `t${CHAIN - 1}`, toId: 'end', type: 'Success' });
  await call(base, '/api/v1/workflow/process-definitions/deploy', admin, {
    dsl: { ruleChain: { id: 'bench_largest', name: 'Largest allowed chain' }, metadata: { firstNodeIndex: 0, nodes: chainNodes, connections: chainConnections } },
  });
  const largest = await call(base, '/api/v1/workflow/process-instances/start', alice, { processKey: 'bench_largest', businessKey: 'bench-largest' });
  const instanceMs: number[] = [];
  const detailMs: number[] = [];
  for (let i = 0; i < DETAIL_CALLS; i++) {
    await timed(instanceMs, () => call(base, `/api/v1/workflow/process-instances/${largest.instanceId}`, alice));
    await timed(detailMs, () => call(base, `/api/v1/workflow/process-instances/${largest.instanceId}/detail`, alice));
  }
  const rows = {
    'stack start-up (ms)': { n: 1, p50: Math.round(startupMs), p95: '', p99: '', max: '' },
    'start instance → first tasks visible (ms)': stats(startMs),
    'approve → next state visible (ms)': stats(approveMs),
    'to-do list (ms)': stats(listMs),
    [`instance GET /{id}, ${CHAIN + 2}-node definition (ms)`]: stats(instanceMs),
    [`instance GET /{id}/detail, ${CHAIN + 2}-node definition (ms)`]: stats(detailMs),
  };
  console.table(Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, Object.fromEntries(Object.entries(v).map(([a, b]) => [a, typeof b === 'number' ? Math.round(b) : b]))])));
  console.log(`${N} leave requests (countersign, two approvals each) at concurrency ${CONCURRENCY}: ${wallS.toFixed(1)} s, ${(N / wallS).toFixed(2)} instances/s`);
} finally {
  await stack.stop();
}
