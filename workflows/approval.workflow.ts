// One process instance: interprets the deployed DSL snapshot until the instance ends.
import { allHandlersFinished, condition, continueAsNew, patched, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { Engine } from './engine/engine.js';
import { DURABLE_PROJECTION, legacyProjection, projection } from './engine/activities.js';
import { canCarry, resumeAll, spawn } from './engine/interpreter.js';
import { registerCoreActions } from './engine/actions.js';
import { registerTaskActions } from './engine/task-actions.js';
import { registerAdminActions } from './engine/admin-actions.js';
import * as m from './messages.js';
import { InstanceStatus } from './search-attributes.js';
import type { StartInput } from './engine/types.js';

export interface ApprovalOutcome {
  status: string;
  variables: Record<string, unknown>;
}

const DEFAULT_HISTORY_LIMIT = 2000;

export async function approvalProcess(input: StartInput): Promise<ApprovalOutcome> {
  const engine = input.carried
    ? Engine.restore(input.instance, input.doc, input.variables, input.carried)
    : new Engine(input.instance, input.doc, input.variables);
  // Runs recorded before DURABLE_PROJECTION replay as they ran: local-activity projection, and no
  // start hold (their start's `sync` answered before the first projection).
  const durable = patched(DURABLE_PROJECTION);
  if (!durable) engine.releaseStart();

  // Message handling
  registerCoreActions(engine);
  registerTaskActions(engine);
  registerAdminActions(engine);
  setHandler(m.status, () => ({ status: engine.status, currentNodes: engine.currentNodes(), seq: engine.seq }));

  // Main logic
  const projector = project(engine, durable);
  if (!durable) engine.hold();
  if (input.carried) resumeAll(engine);
  else {
    engine.trail('start', { userId: input.instance.initiatorId, detail: { processKey: input.instance.processKey, version: input.instance.processVersion } });
    const first = input.doc.metadata.nodes[input.doc.metadata.firstNodeIndex ?? 0];
    spawn(engine, first.id, null);
  }
  engine.releaseStart();

  // Long-lived instances hand their state to a fresh run before the history grows large.
  const limit = input.historyLimit ?? DEFAULT_HISTORY_LIMIT;
  const shouldRoll = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > limit;
  for (;;) {
    await condition(() => engine.ended || (shouldRoll() && engine.settled() && canCarry(engine) && allHandlersFinished()));
    if (engine.ended) break;
    await condition(allHandlersFinished);
    if (engine.settled() && canCarry(engine)) {
      await continueAsNew<typeof approvalProcess>({ ...input, variables: engine.variables, carried: engine.carry() });
    }
  }
  await projector;
  await condition(allHandlersFinished);
  return { status: engine.status, variables: engine.variables };
}

/** Mirrors every settled state into PostgreSQL, in order, until the final (archiving) write. */
async function project(engine: Engine, durable: boolean): Promise<void> {
  let status = '';
  for (;;) {
    await condition(() => engine.seq > engine.projectedSeq && engine.quiet());
    const snapshot = engine.snapshot();
    const writer = durable ? projection : legacyProjection;
    await writer.project({ tenantId: engine.info.tenantId, snapshot });
    engine.markProjected(snapshot);
    if (engine.status !== status) {
      status = engine.status;
      upsertSearchAttributes([{ key: InstanceStatus, value: status }]);
    }
    if (snapshot.ended && engine.projectedSeq >= engine.seq) return;
  }
}
