// One process instance: interprets the deployed DSL snapshot until the instance ends.
import { allHandlersFinished, condition, continueAsNew, setHandler } from '@temporalio/workflow';
import { Engine } from './engine/engine.js';
import { legacyProjection, projection } from './engine/activities.js';
import { durableProjection, engineFeatures, firstStateCorrected, pathsBeforeUpdates } from './engine/features.js';
import { canCarry, resumeAll, spawn } from './engine/interpreter.js';
import { registerActions } from './engine/actions/index.js';
import { registerMigration } from './engine/migration.js';
import * as m from './messages.js';
import { registerReadModelQuery } from './read-model.js';
import { refreshDetails, showState } from './engine/details.js';
import { inputsAhead, inputsAheadOfOpen } from './engine/user-task/assignment.js';
import { APPROVERS_AHEAD_TTL_MS, aheadKey, approversAhead, keepAhead } from './engine/approvers-ahead.js';
import type { ProjectionSnapshot, StartInput } from './engine/types.js';
import { stateDigest, type Predicted } from './engine/first-state.js';
import { startUpdateIdOf } from './engine/update-ids.js';

export interface ApprovalOutcome {
  status: string;
  variables: Record<string, unknown>;
}

export async function approvalProcess(input: StartInput): Promise<ApprovalOutcome> {
  const engine = input.carried
    ? Engine.restore(input.instance, input.doc, input.variables, input.carried)
    : new Engine(input.instance, input.doc, input.variables);
  if (!input.carried && input.approversAhead) engine.approversAhead = input.approversAhead;
  // The server wrote the first state (engine/first-state.ts): the same ids and clock, to confirm it.
  const predicted = input.carried ? undefined : input.predicted;
  if (predicted) {
    engine.fixedNow = predicted.at;
    engine.presetIds = [...(input.firstIds ?? [])];
  }
  const features = engineFeatures(input.engineVersion);
  engine.features = features;
  // Runs started with an engine version take its paths without patch markers. Older runs replay as
  // recorded: before DURABLE_PROJECTION, a local-activity projection and no start hold (their
  // start's `sync` answered before the first projection); before PATHS_BEFORE_UPDATES, the Update
  // handlers registered before the paths launched (see below).
  const durable = durableProjection(features);
  if (!durable) engine.paths.releaseStart();
  const pathsFirst = pathsBeforeUpdates(features);

  // Message handling. An Update that reached the run before its first workflow task (typically the
  // next decision, right after continue-as-new) is buffered and dispatched the moment its handler
  // is registered. So the handlers are registered once every path is launched and, in a continued
  // run, parked on what it waits for: the action then wakes the path that waits for it, and its
  // answer comes after that path ran on. (Registered first, a decision decided a run no path
  // awaited yet; the resumed path, finding no undecided run, ran its userTask again and the final
  // decision answered `active` with fresh ballots.)
  const registerHandlers = () => {
    registerActions(engine);
    registerMigration(engine);
    setHandler(m.status, () => ({ status: engine.status, currentNodes: engine.currentNodes(), seq: engine.seq }));
    registerReadModelQuery(engine);
  };
  if (!pathsFirst) registerHandlers();

  // Main logic
  // The start already set InstanceStatus=active; a continued run re-asserts its carried status.
  engine.outbox.shownStatus = features.versioned && !input.carried ? 'active' : '';
  const projector = project(engine, durable, predicted && { ...predicted, ids: input.firstIds ?? [] });
  if (!durable) engine.paths.hold();
  if (input.carried) resumeAll(engine);
  else {
    engine.trail('start', {
      userId: input.instance.initiatorId,
      detail: { processKey: input.instance.processKey, version: input.instance.processVersion },
    });
    const first = input.doc.metadata.nodes[input.doc.metadata.firstNodeIndex ?? 0];
    spawn(engine, first.id, null);
  }
  if (predicted) {
    // A predicted start answered before this task ran: an Update may arrive with it, for a task
    // the first steps create. Its handler (and validator) comes once those steps have run.
    engine.paths.releaseStart();
    await condition(() => engine.paths.quiet());
    registerHandlers();
  } else {
    if (pathsFirst) registerHandlers();
    engine.paths.releaseStart();
  }
  if (input.carried) refreshDetails(engine); // a continued run shows its carried waits at once

  // Long-lived instances hand their state to a fresh run before the history grows large.
  if (input.historyLimit) engine.historyLimit = input.historyLimit;
  for (;;) {
    await condition(
      () => engine.ended || (engine.rollDue() && engine.settled() && canCarry(engine) && allHandlersFinished()),
    );
    if (engine.ended) break;
    await condition(allHandlersFinished);
    if (engine.settled() && canCarry(engine)) {
      // A migrated instance carries its new definition snapshot and version.
      await continueAsNew<typeof approvalProcess>({
        ...input,
        instance: engine.info,
        doc: engine.doc,
        variables: engine.variables,
        carried: engine.carry(),
      });
    }
  }
  await projector;
  await condition(allHandlersFinished);
  return { status: engine.status, variables: engine.variables };
}

/**
 * Mirrors every settled state into PostgreSQL, in order, until the final (archiving) write.
 * Engine version 4: a state an Update hands to its caller (Engine.handOver) is not projected
 * here; this waits while an Update whose caller writes runs, so the changes it is about to answer
 * with are not written twice, and then takes whatever no answer carried (timers, service
 * functions, http calls, Updates from the Web UI, which may wait for this projection).
 */
async function project(engine: Engine, durable: boolean, predicted?: Predicted & { ids: string[] }): Promise<void> {
  const due = () =>
    engine.seq > engine.outbox.projectedSeq && engine.paths.quiet() && engine.outbox.callerUpdates === 0;
  let first = predicted;
  for (;;) {
    await condition(() => due() || (engine.ended && engine.outbox.projectedSeq >= engine.seq));
    if (!due()) return; // ended, and the Update that ended it handed the final state to its caller
    let snapshot: ProjectionSnapshot = { ...engine.snapshot(), ahead: inputsAheadOfOpen(engine) };
    if (first) {
      const confirmed = confirmFirst(engine, snapshot, first);
      first = undefined;
      if (confirmed) continue;
      snapshot = {
        ...engine.snapshot(),
        ahead: inputsAheadOfOpen(engine),
        replaces: { belowSeq: engine.seq, dropTasks: predicted!.ids.filter((id) => !engine.tasks[id]) },
      };
    }
    // Engine version 2 answers Updates before their projection: the status search attribute goes
    // with the answer's workflow task, not after the projection (older runs replay as recorded).
    if (engine.features.answersWithState) showState(engine);
    if (durable) await projectWithLookUps(engine, snapshot);
    else await legacyProjection.project({ tenantId: engine.info.tenantId, snapshot });
    engine.outbox.markProjected(snapshot);
    if (!engine.features.answersWithState) showState(engine);
    if (snapshot.ended && engine.outbox.projectedSeq >= engine.seq) return;
  }
}

/**
 * The first settled state of a run whose server wrote a prediction of it: equal (same sequence
 * number and digest), it is recorded as written — handed over to the start, whose intent the
 * sweeper settles from it — and no activity runs. Different, the sequence number moves past the
 * prediction's so the correction the projection writes replaces it (ProjectionSnapshot.replaces).
 */
function confirmFirst(engine: Engine, snapshot: ProjectionSnapshot, predicted: Predicted): boolean {
  engine.fixedNow = null;
  // Ids the first steps did not take are never taken later: a correction drops their rows.
  engine.presetIds = [];
  const startId = startUpdateIdOf(engine.info.id);
  if (!firstStateCorrected(snapshot.seq !== predicted.seq || stateDigest(snapshot) !== predicted.digest)) {
    if (engine.features.answersWithState) showState(engine);
    engine.outbox.handOver(startId, engine);
    engine.updates.remember(startId, { taskId: null, instanceStatus: engine.status });
    return true;
  }
  while (engine.seq <= predicted.seq) engine.touch();
  engine.updates.remember(startId, { taskId: null, instanceStatus: engine.status });
  return false;
}

/** The projection activity, which also looks up the approvers of the userTasks that may come next. */
async function projectWithLookUps(engine: Engine, snapshot: ProjectionSnapshot) {
  const ahead = aheadToLookUp(engine, snapshot);
  let release = () => {};
  if (ahead.length)
    engine.aheadInFlight = { keys: new Set(ahead.map(aheadKey)), done: new Promise<void>((r) => (release = r)) };
  try {
    const answer = await projection.project.executeWithOptions({ summary: projectionSummary(snapshot) }, [
      { tenantId: engine.info.tenantId, snapshot, ...(ahead.length ? { approversAhead: ahead } : {}) },
    ]);
    keepAhead(engine, ahead, answer?.approversAhead);
  } finally {
    if (ahead.length) engine.aheadInFlight = null;
    release();
  }
}

/** Inputs for the userTasks after the nodes this snapshot has open tasks at, unless the last look-up already holds them fresh. */
function aheadToLookUp(engine: Engine, snapshot: ProjectionSnapshot) {
  const opened = [...new Set(snapshot.tasks.filter((t) => engine.isOpen(t)).map((t) => t.activityId))];
  const inputs = inputsAhead(engine, opened);
  return inputs.every((input) => approversAhead(engine, input, APPROVERS_AHEAD_TTL_MS / 2)) ? [] : inputs;
}

/** "read model #14: active, 2 tasks, 3 trail entries" — the projection activity's UI summary. */
function projectionSummary(s: ProjectionSnapshot): string {
  const parts: string[] = [s.instance.status];
  if (s.tasks.length) parts.push(`${s.tasks.length} task${s.tasks.length === 1 ? '' : 's'}`);
  if (s.trail.length) parts.push(`${s.trail.length} trail entr${s.trail.length === 1 ? 'y' : 'ies'}`);
  return `read model #${s.seq}: ${parts.join(', ')}${s.ended ? ' (final)' : ''}`;
}
