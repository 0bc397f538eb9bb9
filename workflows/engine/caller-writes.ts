// Which Updates' states their caller writes (engine version 4, docs/engine.md "Read model").

/**
 * Whether an Update comes from the service's server, which writes the state it is answered
 * (src/services/engine-client.ts names them `<update>:<key>`, `<update>-…`, and `start-<instance>`
 * for the start's `sync`). An Update with any other id — sent from the Temporal Web UI or CLI —
 * has nobody to write its state, so the projection activity does.
 */
export function callerWrites(update: { id: string; name: string }): boolean {
  return (
    update.id.startsWith(`${update.name}:`) ||
    update.id.startsWith(`${update.name}-`) ||
    (update.name === 'sync' && update.id.startsWith('start-'))
  );
}
