// What a node answers the path that runs it, and the graph look-ups every node kind uses.
import type { Engine } from './engine.js';

export type Step = { follow: string } | { jump: string } | { stop: true };

export const edges = (engine: Engine, nodeId: string, relation: string) =>
  engine.doc.metadata.connections.filter((c) => c.fromId === nodeId && c.type === relation).map((c) => c.toId);

export const hasEdge = (engine: Engine, nodeId: string, relation: string) => edges(engine, nodeId, relation).length > 0;

/** A system step failed with nowhere to go; the path turns it into a `failed` instance. */
export class NodeFailure extends Error {}

/** The innermost message of an activity failure. */
export function causeMessage(err: unknown): string {
  let e = err as { cause?: unknown; message?: string } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  return e?.message ?? String(err);
}
