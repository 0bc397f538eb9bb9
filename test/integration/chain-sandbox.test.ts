// The JavaScript sandbox on the service's own worker: a script that loops forever, allocates without
// end, recurses without end or reaches for Node's globals fails its node with a clear error, and
// the worker goes on running chains (and approvals) as before.
import { randomUUID } from 'node:crypto';
// @ts-expect-error -- pg ships no types here
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createTenant } from '../helpers/api.js';
import { temporalClient } from '../helpers/temporal.js';
import { executeChainRun } from '../../src/rule-chains/runner.js';
import type { ChainRunInput, RuleChainDsl } from '../../chains/types.js';

const temporal = temporalClient();
let db: any;
let tenantId: string;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  ({ tenantId } = await createTenant('sandbox'));
});

afterAll(() => db?.end());

/** One jsFilter (or jsTransform) node with `script`; no Failure connection, so a failing script fails the run. */
const scriptChain = (
  id: string,
  jsScript: string,
  type = 'jsFilter',
  extra: Record<string, unknown> = {},
): RuleChainDsl => ({
  ruleChain: { id, name: id },
  metadata: { firstNodeIndex: 0, nodes: [{ id: 'js', type, configuration: { jsScript, ...extra } }], connections: [] },
});

async function run(chain: RuleChainDsl, data: unknown = { n: 1 }) {
  const input: ChainRunInput = {
    runId: randomUUID(),
    tenantId,
    chainId: chain.ruleChain.id,
    chainVersion: 1,
    chain,
    msg: { id: randomUUID(), ts: Date.now(), type: 'T', dataType: 'JSON', data: JSON.stringify(data), metadata: {} },
    trigger: { kind: 'console', userId: 'admin' },
  };
  const started = Date.now();
  const result = await executeChainRun({ temporal, taskQueue: inject('taskQueue') }, input);
  return { input, result, ms: Date.now() - started };
}

describe('the script sandbox', () => {
  it('stops a script that loops forever at its time limit', async () => {
    const { input, result, ms } = await run(scriptChain('loop', 'while (true) {}', 'jsFilter', { timeoutMs: 500 }));
    expect(result.success).toBe(false);
    expect(result.error).toEqual({ nodeId: 'js', message: 'script ran longer than 500 ms and was stopped' });
    // Not retried: a script's failure is final (one attempt in the log).
    expect(result.logs[0].attempts).toBe(1);
    expect(ms).toBeLessThan(10_000);
    const row = await db.query('select status, error_node, error_msg from rule_chain_runs where id = $1', [
      input.runId,
    ]);
    expect(row.rows[0]).toEqual({
      status: 'failed',
      error_node: 'js',
      error_msg: 'script ran longer than 500 ms and was stopped',
    });
  });

  it('stops a script that allocates without end at its memory limit', async () => {
    const { result, ms } = await run(
      scriptChain('bomb', 'const a = []; for (;;) a.push(new Array(100000).fill(a.length));'),
    );
    // QuickJS refuses the allocation past 32 MB, or (spending its time in the allocator and collector,
    // where the deadline cannot interrupt) the script's thread is terminated after its time limit.
    expect(result.error?.nodeId).toBe('js');
    expect(result.error?.message).toMatch(/^script (used more than 32 MB|ran longer than 1000 ms) and was stopped$/);
    expect(ms).toBeLessThan(10_000);
  });

  it('stops unbounded recursion at its stack limit', async () => {
    const { result } = await run(scriptChain('deep', 'function f(n) { return f(n + 1) + 1; } return f(0);'));
    expect(result.error?.message).toMatch(/^script overflowed its stack/);
  });

  it('has no process, require, fetch or host objects', async () => {
    for (const [id, script, missing] of [
      ['proc', 'return process.env.DATABASE_URL.length > 0;', 'process'],
      ['req', 'return require("child_process") !== null;', 'require'],
      ['fetch', 'fetch("http://localhost/"); return true;', 'fetch'],
    ]) {
      const { result } = await run(scriptChain(id, script));
      expect(result.error?.message, id).toBe(
        `ReferenceError: '${missing}' is not defined (line 1) (scripts run in a sandbox without Node's globals)`,
      );
    }
    const globals = await run(
      scriptChain(
        'globals',
        'return {msg: [typeof globalThis.process, typeof globalThis.require, typeof globalThis.fetch, typeof setTimeout], metadata, msgType};',
        'jsTransform',
      ),
    );
    expect(JSON.parse(globals.result.msg.data)).toEqual(['undefined', 'undefined', 'undefined', 'undefined']);
  });

  it('after all that the same worker runs scripts as before, several at once', async () => {
    const chain = scriptChain(
      'fine',
      'console.log("checking", msg.n); return {msg: {n: msg.n + 1}, metadata, msgType};',
      'jsTransform',
    );
    const runs = await Promise.all([1, 2, 3, 4].map((n) => run(chain, { n })));
    expect(runs.map((r) => r.result.msg.data)).toEqual(['{"n":2}', '{"n":3}', '{"n":4}', '{"n":5}']);
    for (const r of runs) expect(r.ms).toBeLessThan(10_000);
    // The service itself is unharmed too.
    expect((await api('/healthz')).status).toBe(200);
  });
});
