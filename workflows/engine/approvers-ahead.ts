// Approvers of the userTasks that may start next, looked up by the projection activity that
// records the current state, so the next decision can create the next tasks in its own workflow
// task instead of a local activity (one activation, one marker and one directory round trip less
// per step; docs/performance.md).
//
// The rule: a look-up is reused only for the same input (node rule, initiator, and the users an
// initiatorSelect expression gives with the variables of that moment) and only while it is at
// most APPROVERS_AHEAD_TTL_MS old in workflow time; a repair (re-drive, force-resume) drops it.
// Otherwise the node looks its approvers up itself, as before. A directory change therefore
// reaches a node at most that much later than a look-up at the node's own start would.
// Deterministic: the results are the recorded output of the projection activity (or the start
// input), the age is workflow time.
import type { ApproverInput } from './types.js';
import type { Engine } from './engine.js';
import type { AheadInFlight, AheadInput, ApproversAhead, ResolvedApprovers } from './types.js';

export const APPROVERS_AHEAD_TTL_MS = 10_000;

export type { AheadInFlight, AheadInput, ApproversAhead };

/** Look-ups are reused for exactly the same input. */
export const aheadKey = (input: ApproverInput) => JSON.stringify(input);

/** The look-ups of `inputs` made at `at` (answers in the same order; a missing one counts as failed). */
export const aheadOf = (
  at: number,
  inputs: ApproverInput[],
  resolved: Array<ResolvedApprovers | null> = [],
): ApproversAhead => ({
  at,
  entries: inputs.map((input, i) => ({ key: aheadKey(input), resolved: resolved[i] ?? null })),
});

/** Keeps what the projection answered for `inputs` (replacing older look-ups). */
export function keepAhead(engine: Engine, inputs: ApproverInput[], resolved?: Array<ResolvedApprovers | null>) {
  if (inputs.length) engine.approversAhead = aheadOf(Date.now(), inputs, resolved);
}

/** A look-up for exactly this input at most `maxAgeMs` old, or null. */
export function approversAhead(
  engine: Engine,
  input: ApproverInput,
  maxAgeMs = APPROVERS_AHEAD_TTL_MS,
): ResolvedApprovers | null {
  const ahead = engine.approversAhead;
  // A predicted start's first steps run on the prediction's clock (engine.fixedNow): the look-up its
  // server made is as fresh for the workflow as it was for the prediction, however late the
  // workflow's first task runs — the first tasks are the ones the start answered with.
  const now = engine.fixedNow ? Date.parse(engine.fixedNow) : Date.now();
  if (!ahead || now - ahead.at > maxAgeMs) return null;
  const key = aheadKey(input);
  return ahead.entries.find((e) => e.key === key)?.resolved ?? null;
}

/**
 * A fresh look-up for this input, or the one the projection in flight is making (waited for:
 * a decision that arrives before the previous state's projection has answered), or null.
 */
export async function approversAheadOrInFlight(
  engine: Engine,
  input: ApproverInput,
): Promise<ResolvedApprovers | null> {
  const fresh = approversAhead(engine, input);
  if (fresh) return fresh;
  const flight = engine.aheadInFlight;
  if (!flight?.keys.has(aheadKey(input))) return null;
  await flight.done;
  return approversAhead(engine, input);
}
