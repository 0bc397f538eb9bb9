// RuleGo's expressions (expr-lang, github.com/expr-lang/expr) for what chains use: parsed with jsep
// and checked into our own small AST (expr-ast.ts), evaluated by expr-eval.ts. What is not
// accepted is refused here, so at save, never at run time.
import jsep from 'jsep';
import { ExprError, type CompiledExpr, type ExprNode } from './expr-ast.js';
import { PatternError, compilePattern } from './matches.js';

export * from './expr-ast.js';
export { evalExpr, exprEquals, tryEvalExpr } from './expr-eval.js';

export const MAX_EXPR_LENGTH = 4_000;
const MAX_DEPTH = 64;

// jsep's operator tables are global to the module: chains/ is its only user in this repository.
// expr-lang's precedence: or < and < comparisons/in/matches/contains… < + - < * / % < ** ^ < ??.
const WORD_OPS = ['in', 'contains', 'startsWith', 'endsWith', 'matches'];
const NEGATED_OPS = WORD_OPS.map((op) => `not ${op}`);
const COMPARISONS = ['==', '!=', '<', '<=', '>', '>='];
const ARITHMETIC = ['+', '-', '*', '/', '%', '**', '^'];
const BINARY = new Set(['||', 'or', '&&', 'and', '??', ...COMPARISONS, ...ARITHMETIC, ...WORD_OPS, ...NEGATED_OPS]);
const UNARY = new Set(['!', 'not', '-', '+']);

for (const op of ['|', '^', '&', '===', '!==', '<<', '>>', '>>>']) jsep.removeBinaryOp(op);
jsep.removeUnaryOp('~');
jsep.addUnaryOp('not');
jsep.addBinaryOp('or', 1);
jsep.addBinaryOp('and', 2);
for (const op of [...WORD_OPS, ...NEGATED_OPS, '<', '>', '<=', '>=']) jsep.addBinaryOp(op, 6);
jsep.addBinaryOp('^', 11, true);
jsep.addBinaryOp('??', 12);
jsep.addLiteral('nil', null);

/** Built-in functions and their arity [min, max]. */
// prettier-ignore
const FUNCTIONS: Record<string, [number, number]> = {
  len: [1, 1], upper: [1, 1], lower: [1, 1], trim: [1, 2], string: [1, 1], int: [1, 1], float: [1, 1],
  abs: [1, 1], ceil: [1, 1], floor: [1, 1], round: [1, 1],
};
export const EXPR_FUNCTIONS = Object.keys(FUNCTIONS);

type JsepNode = jsep.Expression;

function convert(n: JsepNode, depth: number): ExprNode {
  if (depth > MAX_DEPTH) throw new ExprError('expression nested too deeply');
  const sub = (x: unknown) => convert(x as JsepNode, depth + 1);
  switch (n.type) {
    case 'Literal': {
      const v = n.value;
      if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        throw new ExprError(`unsupported literal ${String(n.raw)}`);
      return { type: 'Literal', value: v };
    }
    case 'Identifier':
      return { type: 'Identifier', name: n.name as string };
    case 'MemberExpression': {
      const computed = Boolean(n.computed);
      const prop = n.property as JsepNode;
      // `a.b`: the property is a name, not a variable.
      const property: ExprNode = computed
        ? sub(prop)
        : { type: 'Literal', value: prop.type === 'Identifier' ? (prop.name as string) : String(prop.value) };
      return { type: 'Member', object: sub(n.object), property, computed };
    }
    case 'ArrayExpression':
      return {
        type: 'Array',
        elements: (n.elements as (JsepNode | null)[]).map((e) => {
          if (!e) throw new ExprError('empty array element');
          return sub(e);
        }),
      };
    case 'UnaryExpression': {
      const op = n.operator as string;
      if (!UNARY.has(op)) throw new ExprError(`operator ${op} is not supported`);
      return { type: 'Unary', operator: op, argument: sub(n.argument) };
    }
    case 'BinaryExpression': {
      const op = n.operator as string;
      if (!BINARY.has(op)) throw new ExprError(`operator ${op} is not supported`);
      const right = sub(n.right);
      if (op.endsWith('matches') && right.type === 'Literal') {
        if (typeof right.value !== 'string') throw new ExprError('matches needs a string pattern');
        try {
          compilePattern(right.value);
        } catch (e) {
          if (e instanceof PatternError) throw new ExprError(e.message);
          throw e;
        }
      }
      return { type: 'Binary', operator: op, left: sub(n.left), right };
    }
    case 'ConditionalExpression':
      return { type: 'Conditional', test: sub(n.test), consequent: sub(n.consequent), alternate: sub(n.alternate) };
    case 'CallExpression': {
      const callee = n.callee as JsepNode;
      const name = callee.type === 'Identifier' ? (callee.name as string) : null;
      const arity = name !== null && Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
      if (!name || !arity)
        throw new ExprError(
          `function ${name ?? '(computed)'} is not supported (available: ${EXPR_FUNCTIONS.join(', ')})`,
        );
      const args = (n.arguments as JsepNode[]).map(sub);
      if (args.length < arity[0] || args.length > arity[1])
        throw new ExprError(
          `${name}() takes ${arity[0] === arity[1] ? arity[0] : `${arity[0]}-${arity[1]}`} argument(s)`,
        );
      return { type: 'Call', name, args };
    }
    case 'ThisExpression':
      throw new ExprError('`this` is not supported');
    case 'Compound':
      throw new ExprError('one expression expected (found several)');
    default:
      throw new ExprError(`${n.type} is not supported`);
  }
}

/** Parses and checks an expression; the error names what is wrong (and where, from jsep). */
export function parseExpr(src: string): { ok: true; expr: CompiledExpr } | { ok: false; error: string } {
  if (typeof src !== 'string' || src.trim() === '') return { ok: false, error: 'expression is empty' };
  if (src.length > MAX_EXPR_LENGTH) return { ok: false, error: `expression longer than ${MAX_EXPR_LENGTH} characters` };
  try {
    return { ok: true, expr: { source: src, ast: convert(jsep(src), 0) } };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
