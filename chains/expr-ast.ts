// The checked form of an expression: our own small AST (plain JSON), the environment it reads
// and the error a type mismatch raises.

export type ExprEnv = Record<string, unknown>;

export type ExprNode =
  | { type: 'Literal'; value: string | number | boolean | null }
  | { type: 'Identifier'; name: string }
  | { type: 'Member'; object: ExprNode; property: ExprNode; computed: boolean }
  | { type: 'Array'; elements: ExprNode[] }
  | { type: 'Unary'; operator: string; argument: ExprNode }
  | { type: 'Binary'; operator: string; left: ExprNode; right: ExprNode }
  | { type: 'Conditional'; test: ExprNode; consequent: ExprNode; alternate: ExprNode }
  | { type: 'Call'; name: string; args: ExprNode[] };

/** A checked expression: plain JSON, so it may cross into a workflow or be cached. */
export interface CompiledExpr {
  source: string;
  ast: ExprNode;
}

export class ExprError extends Error {
  override name = 'ExprError';
}
