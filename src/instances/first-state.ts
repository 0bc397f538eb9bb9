// The server's prediction of a new instance's first state (docs/engine.md "A start that does not
// wait"): the workflow's own engine code, run here to its first wait with the ids this side
// chooses and the prediction's time, so the start can write the first tasks and answer without waiting
// for a worker. The workflow runs the same steps from the same input and confirms or corrects it
// (workflows/engine/first-state.ts).
import { randomUUID } from 'node:crypto';
import { Engine } from '../../workflows/engine/engine.js';
import { engineFeatures } from '../../workflows/engine/features.js';
import { spawn } from '../../workflows/engine/interpreter.js';
import { inputsAheadOfOpen } from '../../workflows/engine/user-task/assignment.js';
import { predictable, stateDigest, type OfflineRuntime, type Predicted } from '../../workflows/engine/first-state.js';
import { workflowIdOf } from '../../workflows/search-attributes.js';
import type { ProjectionSnapshot, StartInput } from '../../workflows/engine/types.js';

export interface FirstState {
  /** The start input as the worker will see it, with the ids and prediction it confirms. */
  input: StartInput & { firstIds: string[]; predicted: Predicted };
  snapshot: ProjectionSnapshot;
}

/** Rounds of waking waits before giving up (a document that loops without waiting; deploy refuses those). */
const MAX_ROUNDS = 200;

/**
 * The first state of `start`, or null when it cannot be known here: a node that needs an activity,
 * a child or a timer first (the start then waits for the worker as before), approvers the start's
 * look-up did not answer, or a step that failed.
 */
export async function predictFirstState(start: StartInput): Promise<FirstState | null> {
  if (start.carried || !predictable(start.doc)) return null;
  // Exactly what the worker will be given: the payload converter's JSON (key order, no undefined).
  const input = JSON.parse(JSON.stringify(start)) as StartInput;
  // Now, not the row's start time: a re-driven stuck start's tasks are due from when they open.
  const at = new Date().toISOString();
  const blocked: Array<{ fn: () => boolean; resolve: (v: boolean) => void }> = [];
  const ids: string[] = [];
  let stopped = false;
  const runtime: OfflineRuntime = {
    workflowId: workflowIdOf(input.instance.tenantId, input.instance.id),
    newId: () => {
      const id = randomUUID();
      ids.push(id);
      return id;
    },
    condition: (fn) => new Promise<boolean>((resolve) => blocked.push({ fn, resolve })),
    stop: () => {
      stopped = true;
      return new Promise<never>(() => {});
    },
    failed: () => {
      stopped = true;
    },
  };

  // The workflow's start (workflows/approval.workflow.ts), in the same order.
  const engine = new Engine(input.instance, input.doc, input.variables);
  if (input.approversAhead) engine.approversAhead = input.approversAhead;
  engine.features = engineFeatures(input.engineVersion);
  engine.runOffline(runtime);
  engine.fixedNow = at;
  engine.trail('start', {
    userId: input.instance.initiatorId,
    detail: { processKey: input.instance.processKey, version: input.instance.processVersion },
  });
  const first = input.doc.metadata.nodes[input.doc.metadata.firstNodeIndex ?? 0];
  spawn(engine, first.id, null);
  engine.paths.releaseStart();

  // As Temporal does within an activation: run every pending step, then wake the waits whose
  // condition holds, in the order they began, until none does.
  for (let round = 0; ; round++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (stopped || round > MAX_ROUNDS) return null;
    const ready = blocked.filter((b) => b.fn());
    if (!ready.length) break;
    for (const b of ready) {
      blocked.splice(blocked.indexOf(b), 1);
      b.resolve(true);
    }
  }
  if (!engine.paths.quiet()) return null;
  const snapshot: ProjectionSnapshot = { ...engine.snapshot(), ahead: inputsAheadOfOpen(engine) };
  return {
    input: { ...input, firstIds: ids, predicted: { at, seq: snapshot.seq, digest: stateDigest(snapshot) } },
    snapshot,
  };
}
