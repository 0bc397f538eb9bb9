// Variables → values for the CEL evaluator. Only the msg fields a condition reads are
// converted, so a large unrelated variable never makes a condition fail, and what is read is
// bounded in size (the work of a condition grows with it).
import type { VariableUse } from './expression-guards.js';

const MAX_VALUES = 10_000;
const MAX_LIST_LENGTH = 5_000;
const MAX_CHARS = 100_000;
const MAX_DEPTH = 64;

interface Budget {
  values: number;
  chars: number;
}

export interface Variables {
  msg: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** The evaluation context: msg restricted to the fields read, everything as plain CEL values. */
export function celContext(ctx: Variables, use: VariableUse): Record<string, unknown> {
  const budget: Budget = { values: MAX_VALUES, chars: MAX_CHARS };
  const source = isPlainObject(ctx?.msg) ? ctx.msg : {};
  const msg = use.wholeMsg
    ? toCelValue(source, 'msg', budget, 0)
    : new Map(
        [...use.fields]
          .filter((f) => Object.hasOwn(source, f))
          .map((f) => [f, toCelValue(source[f], `msg.${f}`, budget, 1)]),
      );
  const metadata = toCelValue(isPlainObject(ctx?.metadata) ? ctx.metadata : {}, 'metadata', budget, 0);
  return { msg, metadata };
}

/** Plain objects only: their prototype is some realm's Object.prototype, or none. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Checks a value against the bounds and copies plain objects into Maps: the library
 * classifies objects by `.constructor`, which an own "constructor" or "__proto__" key from
 * JSON would shadow; in a Map every key is plain data.
 */
function toCelValue(value: unknown, path: string, budget: Budget, depth: number): unknown {
  if (--budget.values < 0) throw new Error(`the variables read are too large (more than ${MAX_VALUES} values)`);
  if (depth > MAX_DEPTH) throw new Error(`${path} nests deeper than ${MAX_DEPTH} levels`);
  switch (typeof value) {
    case 'undefined':
    case 'number':
    case 'boolean':
    case 'bigint':
      return value;
    case 'string':
      if ((budget.chars -= value.length) < 0)
        throw new Error(`the variables read hold more than ${MAX_CHARS} characters`);
      return value;
  }
  if (value === null || value instanceof Date) return value;
  if (Array.isArray(value)) {
    if (value.length > MAX_LIST_LENGTH) throw new Error(`${path} has more than ${MAX_LIST_LENGTH} elements`);
    return value.map((v, i) => toCelValue(v, `${path}[${i}]`, budget, depth + 1));
  }
  if (!isPlainObject(value)) throw new Error(`${path} holds an unsupported value (${typeof value})`);
  return new Map(Object.keys(value).map((k) => [k, toCelValue(value[k], `${path}.${k}`, budget, depth + 1)]));
}
