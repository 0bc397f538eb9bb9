// The ids the service's server gives its Updates, defined once: the server sends them
// (src/temporal/engine-client.ts) and the workflow reads them to know who writes an Update's state
// (engine version 4, docs/engine.md "Read model"). Pure: no Node, so the workflow bundle takes it.

/** The id of the start's `sync` Update. */
export const startUpdateIdOf = (instanceId: string) => `start-${instanceId}`;

/**
 * An action's Update id: `<update>:<key>` with the caller's Idempotency-Key (a retry with the same
 * key is the same Update), else `<update>-by-<actor>-<unique>` so the Web UI's Update events read
 * as who did what, else `<update>-<unique>`.
 */
export function updateIdOf(name: string, opts: { scopedKey?: string; actorId?: unknown; unique: string }): string {
  if (opts.scopedKey) return `${name}:${opts.scopedKey}`;
  return typeof opts.actorId === 'string' ? `${name}-by-${opts.actorId}-${opts.unique}` : `${name}-${opts.unique}`;
}

/**
 * Whether an Update comes from the service's server, which writes the state it is answered: one of
 * the ids above. An Update with any other id — sent from the Temporal Web UI or CLI — has nobody
 * to write its state, so the projection activity does.
 */
export function callerWrites(update: { id: string; name: string }): boolean {
  return (
    update.id.startsWith(`${update.name}:`) ||
    update.id.startsWith(`${update.name}-`) ||
    (update.name === 'sync' && update.id.startsWith(startUpdateIdOf('')))
  );
}
