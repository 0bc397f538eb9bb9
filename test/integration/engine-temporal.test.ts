// What operators see in Temporal: workflow ids, search attributes, memo; continue-as-new;
// and the histories the replay test keeps (RECORD_HISTORIES=1 rewrites test/histories/).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, Connection } from '@temporalio/client';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findTemporalCli } from '../../src/runtime/temporal-cli.js';
import { createLogger } from '../../src/logger.js';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { act, actOk, deploy, example, instance, myTask, oneStep, start } from '../helpers/flow.js';

let t: Record<string, string>;
let tenantId: string;
let client: Client;
let connection: Connection;

beforeAll(async () => {
  ({ tokens: t, tenantId } = await createDemoLikeTenant('tp'));
  connection = await Connection.connect({ address: inject('temporalAddress') });
  client = new Client({ connection, namespace: 'default' });
  await deploy(t.admin, example('leave-request.json'));
});
afterAll(() => connection?.close());

const wfId = (id: string) => `approval-${tenantId}-${id}`;

describe('Temporal view of an instance', () => {
  it('uses approval-<tenant>-<instanceId>, keeps search attributes current and names the process in the memo', async () => {
    const id = await start(t.alice, 'leave_request', { days: 2 }, `SA-${Date.now()}`);
    const d = await client.workflow.getHandle(wfId(id)).describe();
    expect(d.type).toBe('approvalProcess');
    expect(await d.memo).toMatchObject({ processName: 'Leave request', processVersion: 1 });
    const sa = d.searchAttributes as Record<string, unknown[]>;
    expect(sa.ProcessKey).toEqual(['leave_request']);
    expect(sa.Initiator).toEqual(['alice']);
    expect(sa.TenantId).toEqual([tenantId]);
    expect(sa.InstanceStatus).toEqual(['active']);
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'reject');
    const after = await client.workflow.getHandle(wfId(id)).describe();
    expect((after.searchAttributes as Record<string, unknown[]>).InstanceStatus).toEqual(['rejected']);
    expect(after.status.name).toBe('COMPLETED');
  });

  it('continues as new when the history grows, carrying tasks, trail order and Update answers', async () => {
    const key = `can-${Date.now()}`;
    await deploy(t.admin, oneStep(key, { approver: { type: 'user', userIds: ['bob', 'carol', 'dave', 'erin', 'frank', 'grace'] }, approveMode: 'sequential' }));
    const id = await start(t.alice, key, {});
    const order = ['bob', 'carol', 'dave', 'erin', 'frank'];
    for (const who of order) {
      const task = await myTask(t[who], id);
      const key2 = `idem-${who}-${id}`;
      await actOk(t[who], task.id, 'approve', { comment: who });
      // The same request again (same Idempotency-Key) answers like the first, even after a new run began.
      const again = await act(t[who], task.id, 'approve', { comment: who }, { 'Idempotency-Key': key2 });
      expect([200, 409]).toContain(again.status);
      const repeat = await act(t[who], task.id, 'approve', { comment: who }, { 'Idempotency-Key': key2 });
      expect(repeat.status).toBe(again.status);
      // Variable writes grow the history too (each is an Update and a projection).
      for (let i = 0; i < 3; i++) {
        const res = await api(`/api/v1/workflow/process-instances/${id}/variables`, { token: t.alice, body: { variables: { [`${who}${i}`]: i } } });
        expect(res.status).toBe(200);
      }
    }
    const runs = [];
    for await (const w of client.workflow.list({ query: `WorkflowId = '${wfId(id)}'` })) runs.push(w.status.name);
    expect(runs.filter((s) => s === 'CONTINUED_AS_NEW').length).toBeGreaterThan(0);
    const done = await actOk(t.grace, (await myTask(t.grace, id)).id, 'approve');
    expect(done.instance.status).toBe('completed');
    const final = await instance(t.alice, id);
    expect(final.variables).toMatchObject({ bob0: 0, frank2: 2 });
    const trail = final.trail;
    expect(trail.filter((e: any) => e.type === 'approve').map((e: any) => e.userId)).toEqual([...order, 'grace']);
    expect(new Set(trail.map((e: any) => e.id)).size).toBe(trail.length);
  });

  it('records histories for the replay test', async () => {
    const id = await start(t.alice, 'leave_request', { days: 5 });
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    await actOk(t.erin, (await myTask(t.erin, id)).id, 'approve');
    const id2 = await start(t.alice, 'leave_request', { days: 9 });
    await actOk(t.bob, (await myTask(t.bob, id2)).id, 'approve');
    const carol = await myTask(t.carol, id2);
    await api(`/api/v1/workflow/process-instances/${id2}/withdraw`, { token: t.alice, body: {} });
    expect((await instance(t.alice, id2)).status).toBe('terminated');
    void carol;
    if (process.env.RECORD_HISTORIES !== '1') return;
    const dir = path.resolve(import.meta.dirname, '../histories');
    for (const [name, wid] of [['leave-countersign', id], ['leave-withdrawn', id2]] as const) {
      // The CLI writes the proto3 JSON the replayer reads.
      const cli = await findTemporalCli(createLogger('warn'));
      const { stdout } = await promisify(execFile)(cli, ['workflow', 'show', '--address', inject('temporalAddress'), '-w', wfId(wid), '--output', 'json'], { maxBuffer: 64 * 1024 * 1024 });
      await writeFile(path.join(dir, `${name}.json`), stdout);
    }
  });
});
