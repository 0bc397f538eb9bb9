// Conditions on @marcbachmann/cel-js: GFlow expr syntax is translated to CEL, parsed with
// structural limits, checked for nested comprehensions, and evaluated over msg/metadata only.
import { Environment } from '@marcbachmann/cel-js';
import type { ASTNode } from '@marcbachmann/cel-js';
import { compileRegex, regexMatches } from './regex.js';
import { translateExpression } from './translate.js';

export const MAX_EXPRESSION_LENGTH = 2000;
// Bounds on the variables an evaluation sees: comprehension work grows with list sizes.
const MAX_CONTEXT_VALUES = 50_000;
const MAX_LIST_LENGTH = 5_000;
const MAX_CONTEXT_DEPTH = 64;

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

type Program = ((context: Record<string, unknown>) => unknown) & { ast: ASTNode };

// ---- environments (built once per module; deterministic, so fine inside a workflow) ----

function coreEnvironment(): Environment {
  const env = new Environment({
    homogeneousAggregateLiterals: false,
    limits: { maxAstNodes: 1000, maxDepth: 32, maxListElements: 500, maxMapEntries: 200, maxCallArguments: 8 },
  });
  // JSON numbers arrive as doubles while literals like 3 are ints; mix them like JSON would.
  const arithmetic: Record<string, (a: number, b: number) => number> = {
    '+': (a, b) => a + b,
    '-': (a, b) => a - b,
    '*': (a, b) => a * b,
    '/': (a, b) => a / b,
    '%': (a, b) => a % b,
  };
  for (const [op, fn] of Object.entries(arithmetic)) {
    env.registerOperator(`int ${op} double: double`, (a: bigint, b: number) => fn(Number(a), b));
    env.registerOperator(`double ${op} int: double`, (a: number, b: bigint) => fn(a, Number(b)));
  }
  env.registerOperator('double % double: double', (a: number, b: number) => a % b);
  env.registerOperator('int == double', (a: bigint, b: number) => Number(a) === b);
  // `matches` goes to a linear-time matcher instead of JavaScript's backtracking RegExp.
  env.registerFunction('string.safeMatches(string): bool', (text: string, pattern: string) =>
    regexMatches(text, pattern),
  );
  return env;
}

const core = coreEnvironment();
const runtime = core.clone().registerVariable('msg', 'map').registerVariable('metadata', 'map');
const checking = core.clone();
// Typed form fields may still be absent: allow comparing them with null while checking.
for (const type of ['double', 'int', 'string', 'bool', 'list', 'map']) {
  checking.registerOperator(`${type} == null`, (a: unknown) => a === null);
}
const typedEnvironments = new Map<string, Environment>();

const CEL_TYPES = new Set(['double', 'int', 'uint', 'string', 'bool', 'bytes', 'list', 'map', 'dyn', 'timestamp', 'duration']);
const FORM_TYPES: Record<string, string> = {
  number: 'double',
  integer: 'double',
  int: 'double', // JSON numbers are doubles at run time
  float: 'double',
  money: 'double',
  amount: 'double',
  text: 'string',
  textarea: 'string',
  select: 'string',
  radio: 'string',
  date: 'string',
  datetime: 'string',
  email: 'string',
  boolean: 'bool',
  switch: 'bool',
  checkbox: 'list',
  multiselect: 'list',
  array: 'list',
  object: 'map',
};

/** Form field type (number, string, boolean...) or CEL type → the CEL type used for checking. */
export function celTypeOf(fieldType: string | undefined): string {
  if (!fieldType) return 'dyn';
  if (Object.hasOwn(FORM_TYPES, fieldType)) return FORM_TYPES[fieldType];
  return CEL_TYPES.has(fieldType) ? fieldType : 'dyn';
}

function typedEnvironment(schema: Record<string, string>): Environment {
  const key = JSON.stringify(Object.entries(schema).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  let env = typedEnvironments.get(key);
  if (!env) {
    env = checking.clone().registerVariable({ name: 'msg', schema }).registerVariable('metadata', 'map');
    if (typedEnvironments.size >= 50) typedEnvironments.delete(typedEnvironments.keys().next().value!);
    typedEnvironments.set(key, env);
  }
  return env;
}

// ---- compile ----

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter', 'bind']);

function children(node: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null && 'op' in value) out.push(value as ASTNode);
  };
  collect(node.args);
  return out;
}

/** Refuses what the library's limits do not bound: nested comprehensions, bad literal patterns. */
function checkStructure(node: ASTNode, comprehensionDepth = 0): void {
  if (node.op === 'rcall') {
    const [name, receiver, args] = node.args;
    if (COMPREHENSIONS.has(name)) {
      if (comprehensionDepth > 0) throw new Error(`"${name}" inside another comprehension is not allowed`);
      checkStructure(receiver, comprehensionDepth);
      for (const arg of args) checkStructure(arg, comprehensionDepth + 1);
      return;
    }
    if (name === 'safeMatches' && args[0]?.op === 'value' && typeof args[0].args === 'string') {
      compileRegex(args[0].args);
    }
  }
  for (const child of children(node)) checkStructure(child, comprehensionDepth);
}

/** Fields read as msg.x or msg['x']: those the form does not declare are checked as dyn. */
function referencedFields(node: ASTNode, into = new Set<string>()): Set<string> {
  if ((node.op === '.' || node.op === '.?') && node.args[0].op === 'id' && node.args[0].args === 'msg') {
    into.add(node.args[1]);
  }
  if (node.op === '[]' && node.args[0].op === 'id' && node.args[0].args === 'msg') {
    const key = node.args[1];
    if (key.op === 'value' && typeof key.args === 'string') into.add(key.args);
  }
  for (const child of children(node)) referencedFields(child, into);
  return into;
}

const programs = new Map<string, Program>();

function prepare(src: string, varTypes?: Record<string, string>): Program {
  if (typeof src !== 'string' || src.trim() === '') throw new Error('expression is empty');
  if (src.length > MAX_EXPRESSION_LENGTH) throw new Error(`expression is longer than ${MAX_EXPRESSION_LENGTH} characters`);
  const cel = translateExpression(src, { forEngine: true });
  const program = runtime.parse(cel) as Program;
  checkStructure(program.ast);

  let env = runtime;
  if (varTypes && Object.keys(varTypes).length > 0) {
    const schema: Record<string, string> = {};
    for (const field of referencedFields(program.ast)) {
      schema[field] = Object.hasOwn(varTypes, field) ? celTypeOf(varTypes[field]) : 'dyn';
    }
    env = typedEnvironment(schema);
  }
  const checked = env.check(cel);
  if (!checked.valid) throw checked.error ?? new Error('does not type-check');
  if (checked.type !== 'bool' && checked.type !== 'dyn') throw new Error(`condition must be a boolean, not ${checked.type}`);
  return program;
}

/** First line of a library error (the rest is a source excerpt), in the user's terms. */
function errorText(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return (text.split('\n')[0] || 'invalid expression').replace(/safeMatches/g, 'matches');
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

/**
 * Checks the variables against the bounds and copies plain objects into Maps: the library
 * classifies objects by `.constructor`, which an own "constructor" or "__proto__" key from
 * JSON would shadow; in a Map every key is plain data.
 */
function toCelValue(value: unknown, path: string, budget: { left: number }, depth: number): unknown {
  if (--budget.left < 0) throw new Error(`variables are too large (more than ${MAX_CONTEXT_VALUES} values)`);
  if (depth > MAX_CONTEXT_DEPTH) throw new Error(`${path} nests deeper than ${MAX_CONTEXT_DEPTH} levels`);
  if (value === null || value === undefined) return value;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint') return value;
  if (Array.isArray(value)) {
    if (value.length > MAX_LIST_LENGTH) throw new Error(`${path} has more than ${MAX_LIST_LENGTH} elements`);
    return value.map((v, i) => toCelValue(v, `${path}[${i}]`, budget, depth + 1));
  }
  if (value instanceof Date) return value;
  const proto: unknown = type === 'object' ? Object.getPrototypeOf(value) : undefined;
  // Plain objects only (their prototype is some realm's Object.prototype, or none).
  if (type !== 'object' || (proto !== null && Object.getPrototypeOf(proto) !== null)) {
    throw new Error(`${path} holds an unsupported value (${type})`);
  }
  const map = new Map<string, unknown>();
  for (const key of Object.keys(value as object)) {
    map.set(key, toCelValue((value as Record<string, unknown>)[key], `${path}.${key}`, budget, depth + 1));
  }
  return map;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return 'an int';
  if (typeof value === 'number') return 'a double';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'a map' : `a ${typeof value}`;
}

/** Evaluates a condition; throws ExpressionError on any parse, type or runtime error or a non-boolean result. */
export function evaluateCondition(src: string, ctx: ConditionContext): boolean {
  let value: unknown;
  try {
    let program = programs.get(src);
    if (!program) {
      program = prepare(src);
      if (programs.size >= 500) programs.delete(programs.keys().next().value!);
      programs.set(src, program);
    }
    const budget = { left: MAX_CONTEXT_VALUES };
    const msg = toCelValue(ctx?.msg ?? {}, 'msg', budget, 0);
    const metadata = toCelValue(ctx?.metadata ?? {}, 'metadata', budget, 0);
    value = program({ msg, metadata });
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
