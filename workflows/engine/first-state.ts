// The first state of an instance, written by the server that starts it before any worker ran
// (docs/engine.md "A start that does not wait"). The server runs the same engine code offline
// (src/instances/first-state.ts) with the ids it chose and the prediction's time; the workflow runs it
// again with the same input and compares digests: equal, it only records the state as written;
// different (a directory change, servers and workers on different code), it writes its own state
// over the prediction (ProjectionSnapshot.replaces). Pure: no Node, no Temporal.
import type { ProcessDocument } from '../../dsl/index.js';
import type { ProjectionSnapshot } from './types.js';

/**
 * Node types whose steps need nothing outside the engine: no activity, child or timer before the
 * first wait. A document with any other node type anywhere starts the way that waits for the
 * worker (a first step through such a node could not be predicted, and a later one is rare enough
 * at start not to be worth telling apart).
 */
const OFFLINE_NODES = new Set(['startTask', 'end', 'userTask', 'ccTask', 'switch', 'inclusive', 'fork', 'join']);

export function predictable(doc: ProcessDocument): boolean {
  return doc.metadata.nodes.every((n) => OFFLINE_NODES.has(n.type));
}

/**
 * What the engine needs from its runtime when it runs outside a workflow. `stop` is called where
 * the engine would call an activity: the prediction is abandoned (the answered promise never
 * settles, so the path simply stays where it is).
 */
export interface OfflineRuntime {
  workflowId: string;
  newId(): string;
  condition(fn: () => boolean): Promise<boolean>;
  stop(): Promise<never>;
  /** A path threw (in a workflow, the workflow task would fail): the prediction is abandoned. */
  failed(err: unknown): void;
}

/** The starter's prediction, carried in StartInput: when it was made (the first steps' clock), its sequence number and digest. */
export interface Predicted {
  at: string;
  seq: number;
  digest: string;
}

/**
 * A digest of a snapshot: both sides serialise the same object built by the same code. Without the
 * workflow id, which only Temporal gives the workflow (a replay tool may run it under another).
 */
export function stateDigest(snapshot: ProjectionSnapshot): string {
  return cyrb53(JSON.stringify({ ...snapshot, instance: { ...snapshot.instance, workflowId: '' } }));
}

/** cyrb53 (public domain): a fast 53-bit string hash; not for adversaries, only to tell two computations apart. */
function cyrb53(text: string, seed = 0): string {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16);
}
