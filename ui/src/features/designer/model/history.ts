// Undo/redo as the command stack: each executed command keeps the document before and after it.
// Documents share what a command did not touch, so an entry costs only the changed objects.
import type { Doc } from './doc.js';

export interface Command {
  /** What the command does, as a code the console turns into words (`insert`, `delete`, `field`, …). */
  name: string;
  run: (doc: Doc) => Doc;
  /** Edits with the same key in quick succession (typing in one field) make one entry. */
  mergeKey?: string;
}

export interface Entry {
  name: string;
  before: Doc;
  after: Doc;
  mergeKey?: string;
  at?: number;
}

export interface History {
  doc: Doc;
  past: Entry[];
  future: Entry[];
}

const LIMIT = 500;
const MERGE_MS = 1000;

export const historyOf = (doc: Doc): History => ({ doc, past: [], future: [] });

/** Runs `command`; an edit that changes nothing leaves no entry. */
export function execute(h: History, command: Command, now = Date.now()): History {
  const after = command.run(h.doc);
  if (after === h.doc) return h;
  const last = h.past[h.past.length - 1];
  if (command.mergeKey && last?.mergeKey === command.mergeKey && now - (last.at ?? 0) < MERGE_MS)
    return { doc: after, past: [...h.past.slice(0, -1), { ...last, after, at: now }], future: [] };
  const entry: Entry = { name: command.name, before: h.doc, after, mergeKey: command.mergeKey, at: now };
  const past = [...h.past, entry];
  return { doc: after, past: past.length > LIMIT ? past.slice(-LIMIT) : past, future: [] };
}

export function undo(h: History): History {
  const last = h.past[h.past.length - 1];
  if (!last) return h;
  return { doc: last.before, past: h.past.slice(0, -1), future: [last, ...h.future] };
}

export function redo(h: History): History {
  const next = h.future[0];
  if (!next) return h;
  return { doc: next.after, past: [...h.past, next], future: h.future.slice(1) };
}
