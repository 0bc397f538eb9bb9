// Static rules that bound a condition's run time where the library's parse limits do not:
// comprehensions (all/exists/exists_one/map/filter) iterate a variable or literal list only,
// do not nest and read only their loop variable; and values that grow when added (strings,
// lists, unknown types) may be added only a few times. Together with the size limits on
// variables this keeps every evaluation near-linear in the data it reads.
import type { ASTNode } from '@marcbachmann/cel-js';
import { compilePattern } from './matches.js';

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
export const MAX_GROWING_ADDITIONS = 16;

export function children(node: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const collect = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null && 'op' in value) out.push(value as ASTNode);
  };
  collect(node.args);
  return out;
}

const isRoot = (node: ASTNode) => node.op === 'id' && (node.args === 'msg' || node.args === 'metadata');

/** msg.a.b, metadata.k or msg['a'] (a literal key). */
function isVariablePath(node: ASTNode): boolean {
  if (isRoot(node)) return true;
  if (node.op === '.') return isVariablePath(node.args[0]);
  if (node.op === '[]') return node.args[1].op === 'value' && isVariablePath(node.args[0]);
  return false;
}

/** Additions whose result is not a number (strings, lists, dyn...) can grow values. */
function isGrowingAddition(node: ASTNode): boolean {
  if (node.op !== '+') return false;
  const type = (node as { checkedType?: { name?: string } }).checkedType?.name;
  return type !== 'int' && type !== 'uint' && type !== 'double';
}

/** Throws when the (type-checked) AST breaks a rule. */
export function checkBounds(root: ASTNode): void {
  let growing = 0;
  const visit = (node: ASTNode, loop: string | null) => {
    if (isGrowingAddition(node) && ++growing > MAX_GROWING_ADDITIONS) {
      throw new Error(
        `more than ${MAX_GROWING_ADDITIONS} additions of strings, lists or untyped values; wrap numbers in double(...)`,
      );
    }
    if (loop && isRoot(node)) {
      throw new Error(
        `inside ${loop}(...) only the loop variable and literals can be used, not ${node.args as string}`,
      );
    }
    if (node.op === 'rcall') {
      const [name, receiver, args] = node.args;
      if (name === 'bind') throw new Error('cel.bind is not supported');
      if (COMPREHENSIONS.has(name)) {
        if (loop) throw new Error(`"${name}" inside another comprehension is not allowed`);
        if (!isVariablePath(receiver) && receiver.op !== 'list') {
          throw new Error(`${name}(...) must be applied to a variable such as msg.items or to a list literal`);
        }
        visit(receiver, null);
        for (const arg of args) visit(arg, name);
        return;
      }
      // Literal patterns are checked now so that deploy reports them.
      if (name === 'safeMatches' && args[0]?.op === 'value' && typeof args[0].args === 'string')
        compilePattern(args[0].args);
    }
    for (const child of children(node)) visit(child, loop);
  };
  visit(root, null);
}

export interface VariableUse {
  /** Top-level msg fields read as msg.x or msg['x']. */
  fields: Set<string>;
  /** msg used as a whole (size(msg), 'k' in msg, msg[expr]...): every field is needed. */
  wholeMsg: boolean;
}

/** The literal key when `parent` reads a field of `node` (msg.x, msg.?x, msg['x']), else null. */
function fieldKey(parent: ASTNode | null, node: ASTNode): string | null {
  if (parent?.op === '.' || parent?.op === '.?') return parent.args[1];
  if (parent?.op === '[]' && parent.args[0] === node) {
    const key = parent.args[1];
    return key.op === 'value' && typeof key.args === 'string' ? key.args : null;
  }
  return null;
}

/** Which variables a condition reads, so evaluation converts and bounds only those. */
export function variableUse(root: ASTNode): VariableUse {
  const fields = new Set<string>();
  let wholeMsg = false;
  const visit = (node: ASTNode, parent: ASTNode | null) => {
    if (node.op === 'id' && node.args === 'msg') {
      const key = fieldKey(parent, node);
      if (key === null) wholeMsg = true;
      else fields.add(key);
    }
    for (const child of children(node)) visit(child, node);
  };
  visit(root, null);
  return { fields, wholeMsg };
}
