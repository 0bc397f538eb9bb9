// A start that does not wait (issue 48, docs/engine.md "A start that does not wait"): the server
// predicts the first state with the workflow's own engine code and writes it; the workflow runs
// the same steps, confirms the prediction without any activity, or corrects it.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { findTemporalCli } from '../../src/runtime/temporal-cli.js';
import { createLogger } from '../../src/observability/logger.js';
import { m, useHarness } from './support/harness.js';
import { example, linear, steps, users } from './support/dsl.js';
import { processDoc, testChain, node, edges } from '../helpers/dsl.js';
import { readModelState } from '../../workflows/read-model.js';
import { stateDigest } from '../../workflows/engine/first-state.js';

const h = useHarness('first-state');

/** Writes a history for the replay test (test/histories/<name>.json); only with RECORD_HISTORIES=1. */
async function record(name: string, instanceId: string) {
  if (process.env.RECORD_HISTORIES !== '1') return;
  const cli = await findTemporalCli(createLogger('warn'));
  const { stdout } = await promisify(execFile)(
    cli,
    [
      'workflow',
      'show',
      '--address',
      inject('temporalAddress'),
      '-w',
      h.handle(instanceId).workflowId,
      '--output',
      'json',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  await writeFile(path.resolve(import.meta.dirname, '../histories', `${name}.json`), stdout);
}

/** The corrections the workflow projected over the prediction. */
const corrections = (instanceId: string) => h.projection.of(instanceId).snapshots.filter((s) => s.replaces);

/** The workflow's whole state once its first workflow task ran (a query waits for it). */
async function workflowState(instanceId: string) {
  return h.handle(instanceId).query(readModelState);
}

/** A fork at the first node: two branches, a copy and an any-of-two vote, then a join and a switch. */
const forked = processDoc(
  testChain('first_fork'),
  [
    node('f', 'fork'),
    node('cc1', 'ccTask', { ccUserIds: ['dave'] }),
    node('a', 'userTask', users('bob')),
    node('b', 'userTask', { approver: { type: 'user', userIds: ['carol', 'erin'] }, approveMode: 'any' }),
    node('j', 'join'),
  ],
  edges('start>f f>cc1 cc1>a f>b a>j b>j j>end'),
);

const documents: Array<[string, unknown, Record<string, unknown>]> = [
  ['one approver', linear('first_one', steps(users('bob'), users('carol'))), {}],
  ['any of three', linear('first_any', steps({ ...users('bob', 'carol', 'erin'), approveMode: 'any' })), {}],
  ['all of two, in turn', linear('first_seq', steps({ ...users('bob', 'carol'), approveMode: 'sequential' })), {}],
  ['a fork, a copy and a vote', forked, {}],
  ['leave request (a switch first, a pool of managers)', example('leave-request.json'), { days: 12 }],
  ['expense claim', example('expense-claim.json'), { amount: 5000 }],
  ['purchase (legacy keys, a switch as the first node)', example('purchase-legacy-keys.json'), { amount: 50 }],
];

describe.sequential('the first state predicted by the server', () => {
  for (const [name, dsl, variables] of documents)
    it(`${name}: confirmed by the workflow with no projection activity; the same tasks, ids and times`, async () => {
      const { instanceId, first } = await h.start(dsl, { predicted: true, variables });
      expect(first).toBeTruthy();
      const written = h.projection.of(instanceId);
      expect(written.snapshots).toHaveLength(1);
      const state = await workflowState(instanceId);
      const pick = (t: any) => [t.id, t.activityId, t.assignee, t.status, t.createTime, t.dueDate];
      expect(state.tasks.map(pick)).toEqual(first!.snapshot.tasks.map(pick));
      expect(state.seq).toBe(first!.snapshot.seq);
      expect(state.instance.currentNodes).toEqual(first!.snapshot.instance.currentNodes);
      // Confirmed: nothing projected by the workflow.
      expect(corrections(instanceId)).toHaveLength(0);
      expect(h.projection.of(instanceId).snapshots).toHaveLength(1);
    });

  it('the first decision after a confirmed start goes on from the predicted tasks to the end', async () => {
    const { instanceId } = await h.start(linear('first_on', steps(users('bob'), users('carol'))), { predicted: true });
    await h.decide(instanceId, 'bob');
    expect(await h.decide(instanceId, 'carol')).toMatchObject({ instanceStatus: 'completed' });
    expect(h.projection.trailTypes(instanceId)[0]).toBe('start');
    expect(h.projection.of(instanceId).archived).toBe(true);
  });

  it('a prediction that differs is corrected: the workflow writes its own state over it and the wrong task goes', async () => {
    const { instanceId, first } = await h.start(linear('first_fix', steps(users('bob'))), {
      predicted: {
        // As if the server had seen another directory: the task went to erin, plus a task that never was.
        tamper: (f) => {
          const [task] = f.snapshot.tasks;
          task.assignee = 'erin';
          f.snapshot.tasks.push({ ...task, id: f.input.firstIds[0], assignee: 'mallory' });
          f.input.predicted.digest = stateDigest(f.snapshot);
        },
      },
    });
    expect(h.projection.activeAssignees(instanceId).sort()).toEqual(['erin', 'mallory']);
    await expect.poll(() => corrections(instanceId).length, { timeout: 10_000 }).toBe(1);
    const correction = corrections(instanceId)[0];
    expect(correction.replaces!.belowSeq).toBeGreaterThan(first!.snapshot.seq);
    expect(correction.replaces!.dropTasks).toContain(first!.input.firstIds[0]);
    expect(h.projection.activeAssignees(instanceId)).toEqual(['bob']);
    expect(h.projection.trailTypes(instanceId).slice(0, 2)).toEqual(['start', 'assign']);
    expect(await h.decide(instanceId, 'bob')).toMatchObject({ instanceStatus: 'completed' });
    // The correction is recorded (a marker), so a replay corrects whatever its code would compare.
    const events = (await h.handle(instanceId).fetchHistory()).events ?? [];
    expect(events.filter((e) => e.markerRecordedEventAttributes)).toHaveLength(1);
    await record('predicted-start-corrected', instanceId);
  });

  it('a document with a node the server cannot run (a service task) starts the way that waits for the workflow', async () => {
    const dsl = processDoc(
      testChain('first_service'),
      [node('svc', 'serviceTask', { function: 'noop' }), { ...node('a', 'userTask', users('bob')) }],
      edges('start>svc svc>a a>end'),
    );
    const { first } = await h.start(dsl, { predicted: true }).catch(() => ({ first: undefined }));
    expect(first ?? null).toBeNull();
  });
});

describe('Updates that reach a predicted start early', () => {
  it('decisions sent at once after the start (with its first workflow task) find the predicted tasks', async () => {
    for (let round = 0; round < 5; round++) {
      const { instanceId, first } = await h.start(linear('first_race', steps(users('bob'), users('carol'))), {
        predicted: true,
      });
      const task = first!.snapshot.tasks.find((t) => t.assignee === 'bob')!;
      const answers = await Promise.allSettled(
        Array.from({ length: 5 }, () => h.act(instanceId, m.approve, { actor: h.actor('bob'), taskId: task.id })),
      );
      const refused = answers
        .filter((a) => a.status === 'rejected')
        .map((a) => String((a as PromiseRejectedResult).reason?.cause?.message ?? (a as PromiseRejectedResult).reason));
      expect(refused.filter((r) => /No registered handler/.test(r))).toEqual([]);
      expect(answers.filter((a) => a.status === 'fulfilled').length).toBeGreaterThan(0);
    }
  });
});
