// Renders a message from its template (a tenant's override over the kind's default) and checks a
// template before it is stored (the rules: ./message.ts). A tenant's template is parsed, checked and
// rendered only in a render thread (./pool.ts) under hard limits — one deadline for the whole
// message, a capped heap, output counted as it grows — so a hostile template costs that thread, never
// the thread serving requests. A message with no tenant part is the service's own default templates,
// rendered here: they loop only over the message's facts, summary and actions, whose sizes the
// service bounds, and they are what a tenant's template falls back to when its render is stopped.
import { defaultTemplate, TEMPLATE_FIELDS } from '../messages/index.js';
import type { Locale, Message, MessageContext, TemplateField, TemplateFields } from '../messages/index.js';
import { renderMessageSync, type TemplateProblem } from './message.js';
import { renderPool, RenderStopped, type RenderBudget } from './pool.js';

export { sampleContext, scopeOf, withBodies, type TemplateProblem } from './message.js';
export { RenderBudget, RenderStopped } from './pool.js';

/** The parts of a tenant's template that are set. */
const given = (parts: Partial<TemplateFields> | null | undefined): Partial<TemplateFields> =>
  Object.fromEntries(TEMPLATE_FIELDS.filter((f) => typeof parts?.[f] === 'string').map((f) => [f, parts![f]]));

export interface RenderOptions {
  /** The tenant's parts, over the kind's default. */
  override?: Partial<TemplateFields> | null;
  /**
   * A part of the override that failed to render: the default part is used instead. A render the
   * thread did not finish (deadline, memory) is tried once more without the part it stopped in;
   * should that one stop too, every part of the override falls back.
   */
  onFallback?: (field: TemplateField, err: unknown) => void;
  /** The message's deadline when it shares one with an earlier job (a preview: its check, then this). */
  budget?: RenderBudget;
}

/** The message of a notification: null for a kind without one. */
export async function renderMessage(ctx: MessageContext, opts: RenderOptions = {}): Promise<Message | null> {
  if (!defaultTemplate(ctx.kind, ctx.locale)) return null;
  let override = given(opts.override);
  if (!Object.keys(override).length) return renderMessageSync(ctx);
  const fellBack = new Set<TemplateField>();
  const fallBack = (field: TemplateField, err: unknown) => {
    if (fellBack.has(field)) return;
    fellBack.add(field);
    opts.onFallback?.(field, err);
  };
  for (let attempt = 1; ; attempt++) {
    try {
      const { message, fallbacks } = await renderPool().run({ op: 'render', ctx, override }, opts.budget);
      for (const f of fallbacks) fallBack(f.field, new Error(f.message));
      return message;
    } catch (err) {
      if (!(err instanceof RenderStopped)) throw err;
      const field = err.field;
      if (attempt === 1 && field && override[field] !== undefined && Object.keys(override).length > 1) {
        // The part the thread was in falls back; the others are tried once more.
        fallBack(field, err);
        override = given({ ...override, [field]: null });
        continue;
      }
      for (const f of Object.keys(given(opts.override)) as TemplateField[]) fallBack(f, err);
      return renderMessageSync(ctx);
    }
  }
}

/**
 * Everything wrong with a template's parts: nothing when it may be stored. Checked in a render
 * thread; a check the thread did not finish is one problem naming the part it was in.
 */
export async function checkTemplate(
  kind: MessageContext['kind'],
  locale: Locale,
  parts: Partial<TemplateFields>,
  opts: { budget?: RenderBudget } = {},
): Promise<TemplateProblem[]> {
  const own = given(parts);
  const fields = Object.keys(own) as TemplateField[];
  if (!fields.length) return [];
  try {
    return await renderPool().run({ op: 'check', kind, locale, parts: own }, opts.budget);
  } catch (err) {
    if (!(err instanceof RenderStopped)) throw err;
    const field = err.field ?? TEMPLATE_FIELDS.find((f) => own[f] !== undefined)!;
    return [{ field, line: null, column: null, message: err.message }];
  }
}
