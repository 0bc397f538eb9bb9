// Flows that loop without waiting: deploy refuses them (422 naming the nodes), and a document
// that bypasses deploy makes its instance `failed` once the interpreter's step budget is spent,
// instead of spinning its workflow task at 100% CPU with no instance row.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { api, createTenant } from '../helpers/api.js';
import { temporalClient } from '../helpers/temporal.js';
import { deploy, eventually, oneStep } from '../helpers/flow.js';
import { processDoc, testChain } from '../helpers/dsl.js';
import { parseProcess } from '../../dsl/index.js';
import type { StartInput } from '../../workflows/engine/types.js';

/** start → a; switches a and b send each other their defaults; the case `msg.out` leaves. */
const pingPong = (key: string) =>
  processDoc(
    testChain(key),
    [
      { id: 'a', type: 'switch', name: 'A', configuration: { cases: [{ case: 'msg.out == true', then: 'out' }] } },
      { id: 'b', type: 'switch', name: 'B', configuration: { cases: [{ case: 'msg.out == true', then: 'out' }] } },
    ],
    [
      ['start', 'a'],
      ['a', 'b', 'Default'],
      ['b', 'a', 'Default'],
      ['a', 'end', 'out'],
      ['b', 'end', 'out'],
    ],
  );

describe('loops that never wait', () => {
  let admin: string;
  let tenantId: string;

  beforeAll(async () => {
    ({ adminToken: admin, tenantId } = await createTenant('loop'));
  });
  const client = temporalClient();

  it('deploy refuses a loop of switches with 422 DSL_INVALID naming its nodes; a loop through a userTask deploys', async () => {
    const res = await api('/api/v1/workflow/process-definitions/deploy', {
      token: admin,
      body: { dsl: pingPong('loop_refused') },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    const problems = (res.body.data?.problems ?? res.body.data) as Array<{ nodeId: string; message: string }>;
    const loop = problems.filter((p) => p.message.includes('loop that never waits'));
    expect(loop.map((p) => p.nodeId).sort()).toEqual(['a', 'b']);

    const viaTask = oneStep('loop_allowed', { approver: { type: 'user', userIds: ['admin'] } });
    viaTask.metadata.connections.push({ fromId: 'approve', toId: 'approve', type: 'Reject' } as any);
    await deploy(admin, viaTask);
  });

  it('an instance whose document bypassed deploy fails on the step budget, with its reason in /stuck and its detail', async () => {
    const def = await deploy(admin, oneStep('loop_host', { approver: { type: 'user', userIds: ['admin'] } }));
    const parsed = parseProcess(pingPong('loop_host'));
    expect(parsed.doc).toBeDefined();
    const id = randomUUID();
    const input: StartInput = {
      instance: {
        id,
        tenantId,
        definitionId: def.id,
        processKey: 'loop_host',
        processVersion: def.version ?? 1,
        processName: 'Process loop_host',
        businessKey: null,
        initiatorId: 'admin',
        startTime: new Date().toISOString(),
      },
      doc: parsed.doc!,
      variables: { out: false },
    };
    const started = Date.now();
    const handle = await client.workflow.start('approvalProcess', {
      workflowId: `approval-${tenantId}-${id}`,
      taskQueue: inject('taskQueue'),
      args: [input],
    });

    const stuck = await eventually(
      async () =>
        (
          (await api('/api/v1/workflow/process-instances/stuck?pageSize=200', { token: admin })).body.data
            .items as any[]
        ).find((i) => i.id === id),
      (i) => i !== undefined,
      30_000,
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(stuck).toMatchObject({ status: 'failed', detail: { nodeType: 'switch' } });
    expect(stuck.detail.reason).toContain('step budget exceeded');
    expect(stuck.detail.reason).toMatch(/through (a, b|b, a)/);

    const detail = await api(`/api/v1/workflow/process-instances/${id}`, { token: admin });
    expect(detail.status).toBe(200);
    expect(detail.body.data.status).toBe('failed');
    const failure = (detail.body.data.trail as any[]).find(
      (e) => e.type === 'system' && /step budget exceeded/.test(e.comment ?? ''),
    );
    expect(failure).toMatchObject({
      detail: {
        failedNode: expect.stringMatching(/^[ab]$/),
        reason: expect.stringContaining('without reaching a wait'),
      },
    });
    const history = await handle.fetchHistory();
    // The workflow task completed: no retries of a spinning task.
    expect(
      (history.events ?? []).filter(
        (e) => String(e.eventType).includes('TASK_FAILED') || String(e.eventType).includes('TIMED_OUT'),
      ),
    ).toEqual([]);
    await handle.terminate('test done');
  });
});
