// The answers of recent Updates by id. Temporal de-duplicates Update ids within one run; carried
// across continue-as-new, these make a retried request answer like the first (handlers.ts).

/** At most this many answers are kept; continue-as-new carries the last 100. */
const KEPT = 200;

export class UpdateMemory {
  constructor(public recent: Array<{ id: string; result: unknown }> = []) {}

  remember(id: string, result: unknown) {
    this.recent.push({ id, result });
    if (this.recent.length > KEPT) this.recent.splice(0, this.recent.length - 100);
  }

  answerOf(id: string) {
    return this.recent.find((u) => u.id === id);
  }
}
