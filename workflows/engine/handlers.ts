// Update handlers that remember their answers: Temporal de-duplicates Update ids within one
// run; across continue-as-new the carried ids make a retried request answer like the first.
import { currentUpdateInfo, setHandler } from '@temporalio/workflow';
import type { UpdateDefinition } from '@temporalio/common';
import type { Engine } from './engine.js';
import { callerWrites } from './update-ids.js';
import type { ActionResult } from './types.js';
import type { ApproversAhead } from './approvers-ahead.js';
import type { AttachmentRef } from '../messages.js';

type ArgOf<D> = D extends UpdateDefinition<ActionResult, [infer A]> ? A : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Update's argument; ArgOf<D> types the handler
export function onUpdate<D extends UpdateDefinition<ActionResult, [any]>>(
  engine: Engine,
  def: D,
  handler: (input: ArgOf<D>) => Promise<ActionResult>,
  options: { validator?: (input: ArgOf<D>) => void } = {},
) {
  type A = ArgOf<D>;
  const seen = () => {
    const id = currentUpdateInfo()?.id;
    return id ? engine.updates.answerOf(id) : undefined;
  };
  setHandler(
    def as UpdateDefinition<ActionResult, [A]>,
    async (input: A) => {
      const prior = seen();
      if (prior) return prior.result as ActionResult;
      adoptAhead(engine, input);
      engine.actionFiles = filesOf(input);
      let result: ActionResult;
      try {
        result = await counted(engine, () => handler(input));
      } finally {
        engine.actionFiles = null;
      }
      const id = currentUpdateInfo()?.id;
      // Remembered without its state: the projection has it long before a retry after continue-as-new.
      const { state: _state, ...kept } = result;
      if (id) engine.updates.remember(id, kept);
      return result;
    },
    {
      validator: (input: A) => {
        if (seen()) return;
        options.validator?.(input);
      },
    },
  );
}

/**
 * Approvers the server looked up with this Update (TaskRef.approversAhead) replace the engine's
 * look-ups ahead: they are the freshest, and a node still uses an entry only for exactly its own
 * input (approvers-ahead.ts). Anything not of the expected shape is ignored.
 */
function adoptAhead(engine: Engine, input: unknown) {
  const ahead = (input as { approversAhead?: unknown } | null)?.approversAhead as ApproversAhead | undefined;
  if (!ahead || typeof ahead.at !== 'number' || !Array.isArray(ahead.entries)) return;
  if (!ahead.entries.every((e) => typeof e?.key === 'string' && typeof e.resolved === 'object')) return;
  engine.approversAhead = ahead;
}

/** The files the server attached with this Update (TaskRef.attachments), when of the expected shape. */
function filesOf(input: unknown): Engine['actionFiles'] {
  const i = input as { attachments?: unknown; actor?: { userId?: unknown } } | null;
  if (!Array.isArray(i?.attachments) || !i.attachments.length || typeof i.actor?.userId !== 'string') return null;
  const files = i.attachments.filter(
    (f): f is AttachmentRef => typeof f === 'object' && f !== null && typeof (f as AttachmentRef).id === 'string',
  );
  return files.length ? { userId: i.actor.userId, files } : null;
}

/** The running Update, when its caller writes the state it is answered (engine version 4); else undefined. */
export function callerWritingUpdate(engine: Engine) {
  const update = currentUpdateInfo();
  return engine.features.callerWrites && update !== undefined && callerWrites(update) ? update : undefined;
}

/** Engine version 4: while an Update whose caller writes its state runs, the projection waits (approval.workflow.ts). */
export async function counted<T>(engine: Engine, run: () => Promise<T>): Promise<T> {
  const callerWriting = callerWritingUpdate(engine) !== undefined;
  if (callerWriting) engine.outbox.callerUpdates++;
  try {
    return await run();
  } finally {
    if (callerWriting) engine.outbox.callerUpdates--;
  }
}
