// Evaluating a checked expression (expr.ts parses): a small walker over our AST. Pure and
// deterministic: the chain-run workflow evaluates exprFilter/exprTransform/switch in its own code.
//
// Evaluation rules (where expr-lang would raise a run-time error we say which we do):
// * a missing field, an index out of range or a member of nil is nil: a path never throws;
// * nil in an ordering (<, <=, >, >=), in contains/startsWith/endsWith/matches, or as an operand
//   of &&, ||, !, ?: counts as false (expr-lang errors there; a filter on a missing field goes False);
// * other type mismatches (string < number, "a" + 1, non-bool && …), division or modulo by zero,
//   a bad regular expression: evalExpr throws ExprError, which the run turns into the node's Failure
//   (what RuleGo does with expr-lang's error);
// * `==`/`!=` never throw: numbers compare by value, the rest structurally, mixed types are unequal.
import { ExprError, type CompiledExpr, type ExprEnv, type ExprNode } from './expr-ast.js';
import { PatternError, patternMatches } from './matches.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeName = (v: unknown) =>
  v === null || v === undefined ? 'nil' : Array.isArray(v) ? 'array' : isObject(v) ? 'map' : typeof v;

function member(obj: unknown, key: unknown): unknown {
  if (Array.isArray(obj) || typeof obj === 'string') {
    if (typeof key !== 'number' || !Number.isInteger(key)) return null;
    const i = key < 0 ? obj.length + key : key;
    return i >= 0 && i < obj.length ? obj[i] : null;
  }
  if (isObject(obj) && (typeof key === 'string' || typeof key === 'number')) {
    const k = String(key);
    return Object.hasOwn(obj, k) ? (obj[k] ?? null) : null;
  }
  return null;
}

/** Structural equality; numbers by value. */
export function exprEquals(a: unknown, b: unknown): boolean {
  a ??= null;
  b ??= null;
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => exprEquals(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && exprEquals(a[k], b[k]));
  }
  return false;
}

/** A boolean operand: nil is false, anything else but a boolean is a type error. */
function bool(v: unknown, op: string): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  throw new ExprError(`invalid operation: ${op} on ${typeName(v)} (a boolean is needed)`);
}

function num(v: unknown, op: string): number {
  if (typeof v === 'number') return v;
  throw new ExprError(`invalid operation: ${op} on ${typeName(v)} (a number is needed)`);
}

function order(op: string, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  if (!((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string')))
    throw new ExprError(`invalid operation: ${typeName(a)} ${op} ${typeName(b)}`);
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    default:
      return a >= b;
  }
}

function stringOp(op: string, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  if (typeof a !== 'string' || typeof b !== 'string')
    throw new ExprError(`invalid operation: ${typeName(a)} ${op} ${typeName(b)} (strings are needed)`);
  switch (op) {
    case 'contains':
      return a.includes(b);
    case 'startsWith':
      return a.startsWith(b);
    case 'endsWith':
      return a.endsWith(b);
    default:
      try {
        return patternMatches(a, b);
      } catch (e) {
        if (e instanceof PatternError) throw new ExprError(e.message);
        throw e;
      }
  }
}

function membership(a: unknown, b: unknown): boolean {
  if (Array.isArray(b)) return b.some((x) => exprEquals(a, x));
  if (isObject(b)) return (typeof a === 'string' || typeof a === 'number') && Object.hasOwn(b, String(a));
  if (b === null || b === undefined) return false;
  throw new ExprError(`invalid operation: in on ${typeName(b)} (an array or a map is needed)`);
}

function arithmetic(op: string, a: unknown, b: unknown): unknown {
  if (op === '+') {
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  }
  if (typeof a !== 'number' || typeof b !== 'number')
    throw new ExprError(`invalid operation: ${typeName(a)} ${op} ${typeName(b)}`);
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw new ExprError('division by zero');
      return a / b;
    case '%':
      if (b === 0) throw new ExprError('modulo by zero');
      return a % b;
    default:
      return a ** b;
  }
}

function binary(n: Extract<ExprNode, { type: 'Binary' }>, env: ExprEnv): unknown {
  const op = n.operator;
  // Short-circuit operators evaluate their right side only when needed.
  if (op === '&&' || op === 'and') return bool(evaluate(n.left, env), op) && bool(evaluate(n.right, env), op);
  if (op === '||' || op === 'or') return bool(evaluate(n.left, env), op) || bool(evaluate(n.right, env), op);
  if (op === '??') return evaluate(n.left, env) ?? evaluate(n.right, env);
  const a = evaluate(n.left, env);
  const b = evaluate(n.right, env);
  if (op.startsWith('not ')) return !binaryValue(op.slice(4), a, b);
  return binaryValue(op, a, b);
}

function binaryValue(op: string, a: unknown, b: unknown): unknown {
  switch (op) {
    case '==':
      return exprEquals(a, b);
    case '!=':
      return !exprEquals(a, b);
    case '<':
    case '<=':
    case '>':
    case '>=':
      return order(op, a, b);
    case 'in':
      return membership(a, b);
    case 'contains':
    case 'startsWith':
    case 'endsWith':
    case 'matches':
      return stringOp(op, a, b);
    case '^':
      return arithmetic('**', a, b);
    default:
      return arithmetic(op, a, b);
  }
}

function toStr(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function call(name: string, args: unknown[]): unknown {
  const [x, y] = args;
  switch (name) {
    case 'len':
      if (x === null || x === undefined) return 0;
      if (typeof x === 'string') return [...x].length;
      if (Array.isArray(x)) return x.length;
      if (isObject(x)) return Object.keys(x).length;
      throw new ExprError(`invalid argument for len (type ${typeName(x)})`);
    case 'upper':
    case 'lower':
    case 'trim': {
      if (typeof x !== 'string') throw new ExprError(`invalid argument for ${name} (type ${typeName(x)})`);
      if (name === 'upper') return x.toUpperCase();
      if (name === 'lower') return x.toLowerCase();
      if (y === undefined) return x.trim();
      if (typeof y !== 'string') throw new ExprError('trim: the characters to cut must be a string');
      const cut = new Set(y);
      let s = 0;
      let e = x.length;
      while (s < e && cut.has(x[s])) s++;
      while (e > s && cut.has(x[e - 1])) e--;
      return x.slice(s, e);
    }
    case 'string':
      return toStr(x);
    case 'int':
    case 'float': {
      const v = typeof x === 'string' ? Number(x.trim()) : typeof x === 'boolean' ? NaN : x;
      if (typeof v !== 'number' || !Number.isFinite(v) || (typeof x === 'string' && x.trim() === ''))
        throw new ExprError(`invalid argument for ${name}: ${toStr(x)}`);
      return name === 'int' ? Math.trunc(v) : v;
    }
    default: {
      const v = num(x, name);
      if (name === 'abs') return Math.abs(v);
      if (name === 'ceil') return Math.ceil(v);
      if (name === 'floor') return Math.floor(v);
      return Math.sign(v) * Math.round(Math.abs(v)); // Go's math.Round: half away from zero
    }
  }
}

function evaluate(n: ExprNode, env: ExprEnv): unknown {
  switch (n.type) {
    case 'Literal':
      return n.value;
    case 'Identifier':
      return Object.hasOwn(env, n.name) ? (env[n.name] ?? null) : null;
    case 'Member':
      return member(evaluate(n.object, env), evaluate(n.property, env));
    case 'Array':
      return n.elements.map((e) => evaluate(e, env));
    case 'Unary': {
      const v = evaluate(n.argument, env);
      if (n.operator === '!' || n.operator === 'not') return !bool(v, n.operator);
      return n.operator === '-' ? -num(v, '-') : num(v, '+');
    }
    case 'Binary':
      return binary(n, env);
    case 'Conditional':
      return bool(evaluate(n.test, env), '?:') ? evaluate(n.consequent, env) : evaluate(n.alternate, env);
    case 'Call':
      return call(
        n.name,
        n.args.map((a) => evaluate(a, env)),
      );
  }
}

/** Evaluates a checked expression. Throws ExprError on a type error (see the rules at the top). */
export function evalExpr(expr: CompiledExpr, env: ExprEnv): unknown {
  return evaluate(expr.ast, env);
}

/** evalExpr without the throw: what a node turns into its Failure relation. */
export function tryEvalExpr(
  expr: CompiledExpr,
  env: ExprEnv,
): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: evalExpr(expr, env) };
  } catch (e) {
    if (e instanceof ExprError) return { ok: false, error: e.message };
    throw e;
  }
}
