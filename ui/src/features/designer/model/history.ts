// Undo/redo as the command stack: each executed command keeps the document before and after it.
// Documents share what a command did not touch, so an entry costs only the changed objects.
import type { Doc } from './doc.js';

export interface Command {
  /** What the command does, as a code the console turns into words (`insert`, `delete`, `field`, …). */
  name: string;
  run: (doc: Doc) => Doc;
}

export interface Entry {
  name: string;
  before: Doc;
  after: Doc;
}

export interface History {
  doc: Doc;
  past: Entry[];
  future: Entry[];
}

const LIMIT = 500;

export const historyOf = (doc: Doc): History => ({ doc, past: [], future: [] });

/** Runs `command`; an edit that changes nothing leaves no entry. */
export function execute(h: History, command: Command): History {
  const after = command.run(h.doc);
  if (after === h.doc) return h;
  const past = [...h.past, { name: command.name, before: h.doc, after }];
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
