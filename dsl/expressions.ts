// Conditions on @marcbachmann/cel-js: GFlow expr syntax is translated to CEL, parsed with the
// library's structural limits, type-checked, held to the run-time bounds in expression-guards,
// and evaluated over msg/metadata only.
import type { ASTNode, TypeCheckResult } from '@marcbachmann/cel-js';
import { celTypeOf, runtimeEnvironment, typedEnvironment } from './cel-environment.js';
import { celContext } from './cel-values.js';
import { checkBounds, variableUse, type VariableUse } from './expression-guards.js';
import { translateExpression } from './translate.js';

export const MAX_EXPRESSION_LENGTH = 2000;

export class ExpressionError extends Error {
  override name = 'ExpressionError';
  constructor(
    message: string,
    readonly expression: string,
  ) {
    super(message);
  }
}

export interface ConditionContext {
  msg: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

export type CompileResult = { ok: true } | { ok: false; error: string };

type Program = ((context: Record<string, unknown>) => unknown) & { ast: ASTNode; check(): TypeCheckResult };

// ---- compile ----

interface Prepared {
  program: Program;
  use: VariableUse;
}

const prepared = new Map<string, Prepared>();

function prepare(src: string, varTypes?: Record<string, string>): Prepared {
  if (typeof src !== 'string' || src.trim() === '') throw new Error('expression is empty');
  if (src.length > MAX_EXPRESSION_LENGTH)
    throw new Error(`expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const cel = translateExpression(src, { forEngine: true });
  const program = runtimeEnvironment().parse(cel) as Program;
  const checked = program.check(); // also annotates the AST with types for checkBounds
  if (!checked.valid) throw checked.error ?? new Error('does not type-check');
  checkBounds(program.ast);
  const use = variableUse(program.ast);

  let type = checked.type;
  if (varTypes && Object.keys(varTypes).length > 0 && !use.wholeMsg) {
    // Declared form fields get their types; other fields stay dynamic. (msg used as a whole,
    // e.g. size(msg), stays a plain map.)
    const schema: Record<string, string> = Object.create(null); // a field may be named __proto__
    for (const field of use.fields) schema[field] = Object.hasOwn(varTypes, field) ? celTypeOf(varTypes[field]) : 'dyn';
    const typed = typedEnvironment(schema).check(cel);
    if (!typed.valid) throw typed.error ?? new Error('does not type-check');
    type = typed.type;
  }
  if (type !== 'bool' && type !== 'dyn') throw new Error(`condition must be a boolean, not ${type}`);
  return { program, use };
}

// Half of a surrogate pair: the parser quotes the UTF-16 unit it stopped at, which splits a
// character outside the BMP (an emoji) and would put a lone surrogate into the JSON answer.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** First line of a library error (the rest is a source excerpt), in the user's terms; valid Unicode. */
function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return (text.split('\n')[0] || 'invalid expression')
    .replace(/safeMatches/g, 'matches')
    .replace(LONE_SURROGATE, '\uFFFD');
}

/** Whether the condition parses and type-checks; varTypes are form field types by name. */
export function compileCondition(src: string, varTypes?: Record<string, string>): CompileResult {
  try {
    prepare(src, varTypes);
    return { ok: true };
  } catch (e) {
    return { ok: false, error: errorText(e) };
  }
}

// ---- evaluate ----

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return 'an int';
  if (typeof value === 'number') return 'a double';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
}

function preparedFor(src: string): Prepared {
  let entry = prepared.get(src);
  if (!entry) {
    entry = prepare(src);
    if (prepared.size >= 500) prepared.delete(prepared.keys().next().value!);
    prepared.set(src, entry);
  }
  return entry;
}

/** The msg fields a condition reads (`wholeMsg`: msg used as a whole); null when it does not compile. */
export function conditionVariables(src: string): { fields: string[]; wholeMsg: boolean } | null {
  try {
    const { use } = preparedFor(src);
    return { fields: [...use.fields], wholeMsg: use.wholeMsg };
  } catch {
    return null;
  }
}

/** Evaluates a condition; throws ExpressionError on any parse, type or runtime error or a non-boolean result. */
export function evaluateCondition(src: string, ctx: ConditionContext): boolean {
  let value: unknown;
  try {
    const entry = preparedFor(src);
    value = entry.program(celContext(ctx, entry.use));
  } catch (e) {
    throw new ExpressionError(`condition "${clip(src)}" failed: ${errorText(e)}`, String(src));
  }
  if (typeof value !== 'boolean') {
    throw new ExpressionError(`condition "${clip(src)}" returned ${describe(value)}, not a boolean`, src);
  }
  return value;
}

const clip = (src: unknown) => {
  const text = String(src);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};
