// The engine's behaviour switches, in one table (docs/engine.md "Engine versions"). A run's path
// choices are fixed by StartInput.engineVersion, set by whoever starts it, so they cost no history
// events; changes made before versions existed are `patched()` markers. Nothing else in the engine
// compares a version or asks patched(): it reads engineFeatures() or one of the checks below.
import { patched, workflowInfo } from '@temporalio/workflow';

/**
 * The version new runs start with. Raise it (and add a row below) to change behaviour. A new node
 * type needs no version or patch: no recorded history holds it, so its commands never meet an older
 * run (the `automation` node, issue 45, changed no existing path).
 */
export const ENGINE_VERSION = 4;

/**
 * What each version turns on, and the recorded history (test/histories) that replays a run started
 * with it. test/unit/engine/features.test.ts checks that every row's history exists and was started
 * with that version.
 */
export const ENGINE_VERSIONS = [
  {
    version: 1,
    adds: 'durable projection, paths launched before the Update handlers, no redundant first status upsert',
    history: 'engine-v1-approvers-ahead.json',
  },
  {
    version: 2,
    adds: 'an Update answers once the instance is quiet, with the state it produced; the caller writes it first',
    history: 'engine-v2-answers-with-state.json',
  },
  {
    version: 3,
    adds: 'httpCall keeps the answer object under its reservedKey like GFlow, the status beside it; aiAgent nodes',
    history: 'engine-v3-gflow-http-output.json',
  },
  {
    version: 4,
    adds: 'the server that sent an Update writes its state alone: no projection activity follows it',
    history: 'engine-v4-caller-writes.json',
  },
] as const;

export interface EngineFeatures {
  /** StartInput.engineVersion; 0 for runs started before versions existed. */
  version: number;
  /** 1: the paths of version 1 without their patch markers. */
  versioned: boolean;
  /** 2: Updates answer with their state once quiet, not after the projection. */
  answersWithState: boolean;
  /** 3: httpCall stores its answer like GFlow (system-nodes.ts). */
  gflowHttpOutput: boolean;
  /** 4: the caller of an Update writes its state alone (handlers.ts, callerWrites). */
  callerWrites: boolean;
}

export function engineFeatures(version = 0): EngineFeatures {
  return {
    version,
    versioned: version >= 1,
    answersWithState: version >= 2,
    gflowHttpOutput: version >= 3,
    callerWrites: version >= 4,
  };
}

/** The patch ids, each asked in exactly one place below. */
export const PATCHES = {
  /**
   * The durable projection (an activity, not a local one) and the start hold that makes a start's
   * answer wait for its first projection (Engine.releaseStart).
   */
  durableProjection: 'durable-projection',
  /** Paths launched (or resumed and parked) before the Update handlers are registered. */
  pathsBeforeUpdates: 'paths-before-updates',
  /** A serviceTask whose function the definition pinned runs the catalogue entry (docs/service-functions.md). */
  serviceFunctionCatalogue: 'service-function-catalogue',
  /** A repeated approver's task approved automatically (userTask `repeat`). */
  autoApproveRepeated: 'auto-approve-repeated',
  /** A predicted start whose first state the workflow corrected (docs/engine.md "A start that does not wait"). */
  firstStateCorrected: 'first-state-corrected',
} as const;

/** Versioned runs take the durable projection without a marker; older ones as they were recorded. */
export const durableProjection = (f: EngineFeatures) => f.versioned || patched(PATCHES.durableProjection);

/** Versioned runs launch their paths first without a marker; older ones as they were recorded. */
export const pathsBeforeUpdates = (f: EngineFeatures) => f.versioned || patched(PATCHES.pathsBeforeUpdates);

// The two below came after engine versions existed but were added as bare patches: every run asks
// them and new runs record their markers. Guarding them by a version now would drop those markers
// from new runs' command sequences; the next change of either raises ENGINE_VERSION instead.

export const serviceFunctionCatalogue = () => patched(PATCHES.serviceFunctionCatalogue);

export const autoApproveRepeated = () => patched(PATCHES.autoApproveRepeated);

/**
 * Whether a predicted start's first state is corrected (approval.workflow.ts confirmFirst). The
 * comparison with the prediction runs this run's code, which may differ from the code that ran it
 * first (an upgrade; a replay tool with another workflow id): so the outcome is recorded — a marker
 * only when it corrected — and a replay reads the marker instead of comparing again.
 */
export const firstStateCorrected = (differs: boolean) =>
  differs || workflowInfo().unsafe.isReplaying ? patched(PATCHES.firstStateCorrected) : false;
