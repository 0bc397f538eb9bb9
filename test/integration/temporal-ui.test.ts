// What the Temporal Web UI shows for an instance without opening payloads (docs/operations-ui.md):
// the static summary and details set at start, the current details the workflow keeps up to date,
// readable summaries on its activities and timers, readable Update ids, and the ProcessVersion
// search attribute the saved queries use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { api, createDemoLikeTenant } from '../helpers/api.js';
import { temporalClient } from '../helpers/temporal.js';
import { actOk, deploy, eventually, instance, myTask, start } from '../helpers/flow.js';
import { wire } from '../helpers/dsl.js';
import { startReceiver, type Receiver } from '../helpers/http-receiver.js';

let t: Record<string, string>;
let tenantId: string;
const client = temporalClient();
let server: Receiver;
let port = 0;

const node = (id: string, type: string, name: string, configuration?: Record<string, unknown>) => ({
  id,
  type,
  name,
  ...(configuration ? { configuration } : {}),
});
const doc = (id: string, name: string, nodes: unknown[], connections: unknown[]) => ({
  ruleChain: { id, name, root: true, additionalInfo: { category: 'Test' } },
  metadata: { firstNodeIndex: 0, nodes, connections },
});
/** Deploys process `key` called `name`: Start → `middle` → End, wired by `edges`. */
const deployNamed = (key: string, name: string, middle: unknown[], edges: string) =>
  deploy(
    t.admin,
    doc(key, name, [node('start', 'startTask', 'Start'), ...middle, node('end', 'end', 'End')], wire(edges)),
  );

beforeAll(async () => {
  ({ tokens: t, tenantId } = await createDemoLikeTenant('ui'));
  server = await startReceiver((_req, _body, res) => res.writeHead(502).end('bad gateway'));
  port = server.port;
});
afterAll(() => server.close());

const handleOf = (id: string) => client.workflow.getHandle(`approval-${tenantId}-${id}`);
const details = async (h: WorkflowHandle) =>
  (await h.query<{ currentDetails: string }>('__temporal_workflow_metadata')).currentDetails;
const text = (p?: temporal.api.common.v1.IPayload | null) =>
  p ? defaultPayloadConverter.fromPayload<string>(p as any) : undefined;

/** Every event of every run of the workflow (the instance may have continued as new). */
async function allEvents(workflowId: string) {
  const events: temporal.api.history.v1.IHistoryEvent[] = [];
  for await (const wf of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await client.workflow.getHandle(workflowId, wf.runId).fetchHistory();
    events.push(...(history.events ?? []));
  }
  return events;
}

describe('Temporal Web UI metadata', () => {
  it('static summary and details name the process, business key, initiator, tenant and version; current details follow the approvals', async () => {
    const key = `ui_${Date.now()}`;
    await deployNamed(
      key,
      'Laptop purchase',
      [
        node('mgr', 'userTask', 'Manager approval', {
          approver: { type: 'user', userIds: ['bob'] },
          timeout: { dueInMinutes: 60, action: 'remind' },
        }),
        node('fin', 'userTask', 'Finance approval', { approver: { type: 'user', userIds: ['carol'] } }),
      ],
      'start>mgr mgr>fin fin>end',
    );
    const businessKey = `PO-${Date.now()}`;
    const id = await start(t.alice, key, { amount: 1200 }, businessKey);
    const h = handleOf(id);

    const d = await h.describe();
    expect(await d.staticSummary()).toBe(`Laptop purchase v1 · ${businessKey} · by alice`);
    const staticDetails = await d.staticDetails();
    for (const part of [
      `\`${key}\` version 1`,
      `**Business key:** ${businessKey}`,
      '**Initiator:** alice',
      `**Tenant:** ${tenantId}`,
      `**Instance:** ${id}`,
    ]) {
      expect(staticDetails).toContain(part);
    }
    expect((d.searchAttributes as Record<string, unknown[]>).ProcessVersion).toEqual([1]);

    expect(await details(h)).toMatch(
      /^waiting for bob at Manager approval \(mgr\) since \d{4}-\d\d-\d\d \d\d:\d\d UTC, due /,
    );
    await actOk(t.bob, (await myTask(t.bob, id)).id, 'approve', { comment: 'ok' });
    expect(await details(h)).toMatch(
      /^waiting for carol at Finance approval \(fin\) since \d{4}-\d\d-\d\d \d\d:\d\d UTC( {2}\n|$)/,
    );
    await actOk(t.carol, (await myTask(t.carol, id)).id, 'approve');
    expect(await details(h)).toMatch(/^completed at \d{4}-\d\d-\d\d \d\d:\d\d UTC( {2}\n|$)/);

    // Summaries of activities and timers, and Update ids that say who did what.
    const events = await allEvents(h.workflowId);
    const summaries = events.map((e) => text(e.userMetadata?.summary)).filter(Boolean);
    expect(
      summaries.some((s) => /^remind bob at Manager approval \(due \d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/.test(s!)),
    ).toBe(true);
    // Engine version 4: every state here came with an Update's answer and its server wrote it, so
    // no read-model activity ran (a timer's or a service's state still gets one, summarised
    // "read model #<seq>: …": the next test's failed http call).
    expect(summaries.filter((s) => /^read model #/.test(s!))).toEqual([]);
    const updateIds = events
      .map((e) => e.workflowExecutionUpdateAcceptedEventAttributes?.acceptedRequest?.meta?.updateId)
      .filter(Boolean);
    // A predicted start sends no Update (docs/engine.md "A start that does not wait").
    expect(updateIds).not.toContain(`start-${id}`);
    expect(updateIds.some((u) => /^approve-by-bob-[0-9a-f-]{36}$/.test(u!))).toBe(true);
    expect(updateIds.some((u) => /^approve-by-carol-[0-9a-f-]{36}$/.test(u!))).toBe(true);
  });

  it('a failed instance says where and why; the http call and the delay carry summaries', async () => {
    const key = `uif_${Date.now()}`;
    await deployNamed(
      key,
      'Budget check',
      [
        node('wait', 'delay', 'Cooling-off', { delayMs: 300 }),
        node('http_check', 'httpCall', 'Check budget', { url: `http://localhost:${port}/budget?token=secret` }),
      ],
      'start>wait wait>http_check http_check>end',
    );
    const id = await start(t.alice, key, {});
    await eventually(
      () => instance(t.alice, id),
      (i) => i.status === 'failed',
    );
    const h = handleOf(id);
    const current = await eventually(
      () => details(h),
      (s) => s.startsWith('failed'),
    );
    expect(current).toMatch(
      new RegExp(
        `^failed at Check budget \\(http_check\\): HTTP call answered 502 from GET http://localhost:${port}/budget \\(since .* UTC; an admin may re-drive\\)$`,
      ),
    );
    expect(current).not.toContain('secret');

    const summaries = (await allEvents(h.workflowId)).map((e) => text(e.userMetadata?.summary)).filter(Boolean);
    expect(summaries).toContain(`GET http://localhost:${port}/budget at Check budget`);
    expect(summaries.some((s) => /^delay at Cooling-off until \d{4}-\d\d-\d\d \d\d:\d\d UTC$/.test(s!))).toBe(true);
    expect(summaries.some((s) => /^read model #\d+: failed/.test(s!))).toBe(true);
  });

  it('a run that continued as new shows its waits and, in its current details, the summary continue-as-new cannot carry', async () => {
    const key = `uican_${Date.now()}`;
    const people = ['bob', 'carol', 'dave', 'erin', 'frank', 'grace'];
    const chain = node('chain', 'userTask', 'Chain', {
      approver: { type: 'user', userIds: people },
      approveMode: 'sequential',
    });
    await deployNamed(key, 'Long chain', [chain], 'start>chain chain>end');
    const id = await start(t.alice, key, {}, 'CAN-1');
    const h = handleOf(id);
    const firstRun = (await h.describe()).runId;
    for (const who of people.slice(0, 5)) await actOk(t[who], (await myTask(t[who], id)).id, 'approve');
    // Variable writes grow the history until the run rolls over (how many events an approval costs
    // depends on how Updates and projections share workflow tasks).
    for (let i = 0; (await h.describe()).runId === firstRun; i++) {
      expect(i, 'the test stack continues as new after 60 events').toBeLessThan(20);
      const body = { variables: { [`round${i}`]: i } };
      expect((await api(`/api/v1/workflow/process-instances/${id}/variables`, { token: t.alice, body })).status).toBe(
        200,
      );
    }
    const d = await h.describe();
    // Temporal's continue-as-new command has no user metadata: the new run has no static summary.
    expect(await d.staticSummary()).toBeUndefined();
    const current = await details(h);
    expect(current).toMatch(/^waiting for grace at Chain \(chain\) since /);
    expect(current).toMatch(
      /\n\s*Long chain v1 · CAN-1 · by alice \(continued run; started \d{4}-\d\d-\d\d \d\d:\d\d UTC\)$/,
    );
  });

  it('the Stack Trace tab is off by default (WORKFLOW_STACK_TRACES); Current Details say where the instance waits', async () => {
    const key = `uist_${Date.now()}`;
    await deployNamed(
      key,
      'Stack trace',
      [node('mgr', 'userTask', 'Manager approval', { approver: { type: 'user', userIds: ['bob'] } })],
      'start>mgr mgr>end',
    );
    const id = await start(t.alice, key, {}, 'ST-1');
    // The stacks with the setting on: test/workflow/stack-traces.test.ts.
    await expect(handleOf(id).query('__stack_trace')).rejects.toThrow(/stack traces are not enabled/i);
    const current = await eventually(
      () => details(handleOf(id)),
      (d) => /^waiting for bob at Manager approval/.test(d ?? ''),
    );
    expect(current).toMatch(/^waiting for bob at Manager approval \(mgr\) since /);
  });
});
