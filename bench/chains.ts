// The chain phase of `npm run bench` (docs/performance.md, "Rule chains"): a 5-node rule chain —
// filter, transform, switch, restApiCall to a receiver in this process, log — executed
// synchronously over HTTP (POST /rulego/api/v1/rules/{id}/execute/{msgType}, real auth, the run
// log written) at the bench's concurrency, against a bare Temporal workflow running the same five
// steps as activities (bench/baseline/workflows.ts `bareChain`, its own worker process), started
// with client.workflow.execute. Figures: p50/p95 per run, runs/s, and the ratio of the p50s.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import type { Client } from '@temporalio/client';

type Stats = { n: number; mean: number; p50: number; p95: number; p99: number; max: number };

export interface ChainPhaseOptions {
  base: string;
  adminToken: string;
  client: Client;
  /** Starts the bare worker on this task queue (bench/run.ts's startBaselineWorker). */
  startBareWorker(taskQueue: string): Promise<ChildProcess>;
  stopBareWorker(child: ChildProcess): Promise<void>;
  stats(ms: number[]): Stats;
  runs: number;
  concurrency: number;
  warmup: number;
  /** The chain's script nodes: `js` (jsFilter/jsTransform, QuickJS activities) or `expr` (evaluated in the workflow). */
  flavour: 'js' | 'expr';
}

/** The bench chain: the same five steps as bareChain, in RuleGo's DSL. */
export function benchChain(id: string, receiver: string, flavour: 'js' | 'expr') {
  const filter =
    flavour === 'js'
      ? { id: 'filter', type: 'jsFilter', name: 'amount > 0', configuration: { jsScript: 'return msg.amount > 0;' } }
      : { id: 'filter', type: 'exprFilter', name: 'amount > 0', configuration: { expr: 'msg.amount > 0' } };
  const transform =
    flavour === 'js'
      ? {
          id: 'transform',
          type: 'jsTransform',
          name: 'total',
          configuration: {
            jsScript:
              "msg.total = msg.amount * 1.2; msg.tag = 'bench'; return {'msg': msg, 'metadata': metadata, 'msgType': msgType};",
          },
        }
      : {
          id: 'transform',
          type: 'exprTransform',
          name: 'total',
          configuration: { mapping: { amount: 'msg.amount', total: 'msg.amount * 1.2', tag: '"bench"' } },
        };
  return {
    ruleChain: { id, name: `Bench chain (${flavour})`, root: true },
    metadata: {
      firstNodeIndex: 0,
      nodes: [
        filter,
        transform,
        {
          id: 'switch',
          type: 'switch',
          name: 'size',
          configuration: { cases: [{ case: 'msg.total > 1000', then: 'large' }] },
        },
        {
          id: 'post',
          type: 'restApiCall',
          name: 'receiver',
          configuration: {
            restEndpointUrlPattern: `${receiver}/orders`,
            requestMethod: 'POST',
            headers: { 'Content-Type': 'application/json' },
            readTimeoutMs: 10_000,
          },
        },
        {
          id: 'log',
          type: 'log',
          name: 'log',
          configuration: { jsScript: "return 'out: ' + JSON.stringify(msg);" },
        },
      ],
      connections: [
        { fromId: 'filter', toId: 'transform', type: 'True' },
        { fromId: 'transform', toId: 'switch', type: 'Success' },
        { fromId: 'switch', toId: 'post', type: 'large' },
        { fromId: 'switch', toId: 'post', type: 'Default' },
        { fromId: 'post', toId: 'log', type: 'Success' },
      ],
    },
  };
}

async function receiver() {
  let calls = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, path: req.url, size: body.length }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    // `localhost`: the bench's stack lets the service reach it (HTTP_CALL_ALLOW_PRIVATE_HOSTS).
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function closedLoop(count: number, concurrency: number, one: (i: number) => Promise<void>) {
  const wall0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await one(next++);
    }),
  );
  return (performance.now() - wall0) / 1000;
}

export async function chainPhase(o: ChainPhaseOptions) {
  const sink = await receiver();
  const chainId = `bench_chain_${o.flavour}_${Date.now().toString(36)}`;
  const prefix = `${o.base}/rulego/api/v1`;
  const auth = { Authorization: `Bearer ${o.adminToken}` };
  const saved = await fetch(`${prefix}/rules/${chainId}`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(benchChain(chainId, sink.url, o.flavour)),
  });
  if (saved.status !== 200) throw new Error(`saving the bench chain: ${saved.status} ${await saved.text()}`);
  const data = (i: number) => ({ amount: 500 + (i % 2) * 1000, who: `bench-${i}` });

  const service = async (i: number, into: number[] | null) => {
    const t0 = performance.now();
    const res = await fetch(`${prefix}/rules/${chainId}/execute/ORDER`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify(data(i)),
    });
    const out = await res.text();
    if (res.status !== 200) throw new Error(`execute: ${res.status} ${out}`);
    into?.push(performance.now() - t0);
  };
  const bareQueue = `bench-bare-chain-${process.pid}`;
  const worker = await o.startBareWorker(bareQueue);
  const bare = async (i: number, into: number[] | null) => {
    const t0 = performance.now();
    await o.client.workflow.execute('bareChain', {
      taskQueue: bareQueue,
      workflowId: `bare-chain-${Date.now().toString(36)}-${i}-${Math.random().toString(36).slice(2)}`,
      args: [{ url: sink.url.replace('localhost', '127.0.0.1'), data: data(i) }],
    });
    into?.push(performance.now() - t0);
  };
  try {
    const rounds: Array<{
      service: Stats;
      bare: Stats;
      serviceRunsPerS: number;
      bareRunsPerS: number;
      p50Ratio: number;
    }> = [];
    for (let r = 0; r < 3; r++) {
      await closedLoop(o.warmup, o.concurrency, (i) => service(i, null));
      const serviceMs: number[] = [];
      const serviceWall = await closedLoop(o.runs, o.concurrency, (i) => service(i, serviceMs));
      await closedLoop(o.warmup, o.concurrency, (i) => bare(i, null));
      const bareMs: number[] = [];
      const bareWall = await closedLoop(o.runs, o.concurrency, (i) => bare(i, bareMs));
      const s = o.stats(serviceMs);
      const b = o.stats(bareMs);
      rounds.push({
        service: s,
        bare: b,
        serviceRunsPerS: Math.round((o.runs / serviceWall) * 10) / 10,
        bareRunsPerS: Math.round((o.runs / bareWall) * 10) / 10,
        p50Ratio: Math.round((s.p50 / b.p50) * 100) / 100,
      });
    }
    const ratios = rounds.map((x) => x.p50Ratio).sort((a, b) => a - b);
    return { flavour: o.flavour, chainId, receiverCalls: sink.calls(), rounds, p50RatioMedian: ratios[1] };
  } finally {
    await o.stopBareWorker(worker);
    await sink.close();
  }
}
