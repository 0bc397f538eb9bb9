// What operators see in Temporal: workflow ids, search attributes, memo; continue-as-new;
// and the histories the replay test keeps (RECORD_HISTORIES=1 rewrites test/histories/).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { findTemporalCli } from '../../src/runtime/temporal-cli.js';
import { createLogger } from '../../src/observability/logger.js';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { temporalClient } from '../helpers/temporal.js';
import { act, actOk, deploy, eventually, example, instance, myTask, oneStep, start } from '../helpers/flow.js';
import { linear, steps, users } from '../helpers/dsl.js';

let t: Record<string, string>;
let tenantId: string;
const client = temporalClient();

beforeAll(async () => {
  ({ tokens: t, tenantId } = await createDemoLikeTenant('tp'));
  await deploy(t.admin, example('leave-request.json'));
});

const wfId = (id: string) => `approval-${tenantId}-${id}`;

/** Writes a history for the replay test (test/histories/<name>.json); only with RECORD_HISTORIES=1. */
async function record(name: string, workflowId: string, runId?: string) {
  if (process.env.RECORD_HISTORIES !== '1') return;
  // The CLI writes the proto3 JSON the replayer reads.
  const cli = await findTemporalCli(createLogger('warn'));
  const args = ['workflow', 'show', '--address', inject('temporalAddress'), '-w', workflowId];
  const { stdout } = await promisify(execFile)(cli, [...args, ...(runId ? ['-r', runId] : []), '--output', 'json'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  await writeFile(path.resolve(import.meta.dirname, '../histories', `${name}.json`), stdout);
}
let canRun: { workflowId: string; runId: string } | undefined;

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
    // The run itself completes once its last projection is in, just after the answer.
    await eventually(
      () => client.workflow.getHandle(wfId(id)).describe(),
      (d) => d.status.name === 'COMPLETED',
    );
  });

  it('a new run (engine version 4) records no patch markers and no projection activity: one workflow task per action', async () => {
    // docs/engine.md: the engine version replaces patched() in new runs; since version 4 the server
    // that sent an Update writes its state, so no activity follows; the server looks up the first
    // node's approvers at the start and the next node's with each decision ("Approvers ahead of a decision").
    const key = `ev-${Date.now()}`;
    await deploy(t.admin, linear(key, steps(users('bob'), users('carol'))));
    const id = await start(t.alice, key, {});
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    const events = (await client.workflow.getHandle(wfId(id)).fetchHistory()).events ?? [];
    const markers = events.flatMap((e) =>
      e.markerRecordedEventAttributes ? [e.markerRecordedEventAttributes.markerName] : [],
    );
    const upserts = events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes);
    // carol's approvers came with bob's decision: no local activity, and no patch marker.
    expect(markers).toEqual([]);
    expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toEqual([]);
    // Two decisions: an Update each. The start sends none: the server predicted its first state and
    // the workflow confirmed it (docs/engine.md "A start that does not wait"). One workflow task
    // each (a task may time out and be retried under load).
    expect(events.filter((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(2);
    expect(events.filter((e) => e.workflowTaskCompletedEventAttributes).length).toBeLessThanOrEqual(4);
    expect(
      upserts.map((e) =>
        Object.keys(e.upsertWorkflowSearchAttributesEventAttributes!.searchAttributes!.indexedFields!),
      ),
    ).toEqual([['InstanceStatus']]);
    expect((await instance(t.alice, id)).status).toBe('completed');
    await record('predicted-start-v4', wfId(id));
  });

  it('continues as new when the history grows, carrying tasks, trail order and Update answers', async () => {
    const key = `can-${Date.now()}`;
    await deploy(
      t.admin,
      oneStep(key, {
        approver: { type: 'user', userIds: ['bob', 'carol', 'dave', 'erin', 'frank', 'grace'] },
        approveMode: 'sequential',
      }),
    );
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
        const res = await api(`/api/v1/workflow/process-instances/${id}/variables`, {
          token: t.alice,
          body: { variables: { [`${who}${i}`]: i } },
        });
        expect(res.status).toBe(200);
      }
    }
    const runs: Array<{ status: string; runId: string }> = [];
    for await (const w of client.workflow.list({ query: `WorkflowId = '${wfId(id)}'` }))
      runs.push({ status: w.status.name, runId: w.runId });
    const continued = runs.filter((r) => r.status === 'CONTINUED_AS_NEW');
    expect(continued.length).toBeGreaterThan(0);
    canRun = { workflowId: wfId(id), runId: continued[0].runId };
    const done = await actOk(t.grace, (await myTask(t.grace, id)).id, 'approve');
    expect(done.instance.status).toBe('completed');
    const final = await instance(t.alice, id);
    expect(final.variables).toMatchObject({ bob0: 0, frank2: 2 });
    const trail = final.trail;
    expect(trail.filter((e: any) => e.type === 'approve').map((e: any) => e.userId)).toEqual([...order, 'grace']);
    expect(new Set(trail.map((e: any) => e.id)).size).toBe(trail.length);
  });

  it('records histories for the replay test', async () => {
    // A fork/join with claims from pools, and a delegation, for a wider replay.
    await deploy(t.admin, example('expense-claim.json'));
    const id3 = await start(t.alice, 'expense_claim', { amount: 20000 });
    const bobTask = await myTask(t.bob, id3);
    await actOk(t.bob, bobTask.id, 'delegate', { assigneeUserId: 'carol', reason: 'holiday' });
    await actOk(t.carol, bobTask.id, 'approve', { comment: 'fine by me' });
    await actOk(t.bob, bobTask.id, 'approve');
    const pool = (await api(`/api/v1/workflow/tasks?instanceId=${id3}&status=pending`, { token: t.admin })).body.data
      .items;
    for (const [who, node] of [
      ['grace', 'finance_check'],
      ['frank', 'budget_owner'],
    ] as const) {
      const task = pool.find((x: any) => x.activityId === node);
      await actOk(t[who], task.id, 'claim');
      await actOk(t[who], task.id, 'approve');
    }
    const votes = (await api(`/api/v1/workflow/tasks?instanceId=${id3}&status=active`, { token: t.admin })).body.data
      .items;
    for (const who of ['carol', 'dave']) await actOk(t[who], votes.find((x: any) => x.assignee === who).id, 'approve');
    expect((await instance(t.alice, id3)).status).toBe('completed');
    const id = await start(t.alice, 'leave_request', { days: 5 });
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve');
    await actOk(t.erin, (await myTask(t.erin, id)).id, 'approve');
    const id2 = await start(t.alice, 'leave_request', { days: 9 });
    await actOk(t.bob, (await myTask(t.bob, id2)).id, 'approve');
    const carol = await myTask(t.carol, id2);
    await api(`/api/v1/workflow/process-instances/${id2}/withdraw`, { token: t.alice, body: {} });
    expect((await instance(t.alice, id2)).status).toBe('terminated');
    void carol;
    await record('leave-countersign-v4', wfId(id));
    await record('leave-withdrawn-v4', wfId(id2));
    await record('expense-fork-join-delegate-v4', wfId(id3));
    if (canRun) await record('sequential-continued-as-new-v4', canRun.workflowId, canRun.runId);
  });
});
