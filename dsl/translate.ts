// Translates GFlow's expr-language conditions into CEL with a small tokenizer, so that string
// literals are never rewritten: and/or/not → &&/||/!, `a contains b` (and startsWith,
// endsWith, matches, `not in`, `not contains`...) → method calls, len(x) → size(x), nil → null.
// Everything else (comparison, arithmetic, in, ternary, lists, quotes) is already CEL.

export const MAX_NESTING = 32;

export class TranslateError extends Error {
  override name = 'TranslateError';
}

type Kind = 'string' | 'number' | 'ident' | 'punct' | 'infix' | 'negate';

interface Token {
  kind: Kind;
  text: string;
  /** Whitespace before the token, kept so the output reads like the input. */
  ws: string;
}

const TWO_CHAR_PUNCT = new Set(['&&', '||', '==', '!=', '<=', '>=']);
const INFIX_METHODS = new Set(['contains', 'startsWith', 'endsWith', 'matches']);
const OPENING = new Set(['(', '[', '{']);
const CLOSING = new Set([')', ']', '}']);
// Operators binding as loosely as comparisons (or looser): an infix operand stops at them.
const STOPS = new Set(['&&', '||', '?', ':', ',', '==', '!=', '<', '<=', '>', '>=']);

const identStart = (c: string) => /[A-Za-z_]/.test(c);
const identPart = (c: string) => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';

export function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let depth = 0;
  while (i < src.length) {
    const wsStart = i;
    while (i < src.length && /\s/.test(src[i])) i++;
    if (i >= src.length) break;
    const ws = src.slice(wsStart, i);
    const start = i;
    const c = src[i];
    let kind: Kind;
    const prefix = /^(?:[rR][bB]?|[bB][rR]?)(?=['"])/.exec(src.slice(i, i + 3));
    if (c === '"' || c === "'" || prefix) {
      i = readString(src, i + (prefix ? prefix[0].length : 0), prefix ? /r/i.test(prefix[0]) : false);
      kind = 'string';
    } else if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      const m = /^(?:0[xX][0-9a-fA-F]+|\d*\.?\d+(?:[eE][+-]?\d+)?|\d+\.(?!\w))[uU]?/.exec(src.slice(i));
      i += m ? m[0].length : 1;
      kind = 'number';
    } else if (identStart(c)) {
      while (i < src.length && identPart(src[i])) i++;
      kind = 'ident';
    } else {
      i += TWO_CHAR_PUNCT.has(src.slice(i, i + 2)) ? 2 : 1;
      kind = 'punct';
    }
    const text = src.slice(start, i);
    if (OPENING.has(text) && ++depth > MAX_NESTING)
      throw new TranslateError(`expression nests deeper than ${MAX_NESTING} levels`);
    if (CLOSING.has(text)) depth--;
    tokens.push({ kind, text, ws });
  }
  return tokens;
}

/** Returns the index after the closing quote of the string starting at `i`. */
function readString(src: string, i: number, raw: boolean): number {
  const quote = src[i];
  const triple = src.startsWith(quote.repeat(3), i);
  const close = triple ? quote.repeat(3) : quote;
  let j = i + close.length;
  while (j < src.length) {
    if (src[j] === '\\' && !raw) j += 2;
    else if (src.startsWith(close, j)) return j + close.length;
    else j++;
  }
  throw new TranslateError('unterminated string literal');
}

const endsOperand = (t: Token | undefined) =>
  t !== undefined &&
  (t.kind === 'string' || t.kind === 'number' || (t.kind === 'ident' && t.text !== 'in') || CLOSING.has(t.text));

export interface TranslateOptions {
  /** Route `matches` to the linear-time matcher registered as safeMatches. */
  forEngine?: boolean;
}

/** GFlow expr-language condition → CEL source. */
export function translateExpression(src: string, options: TranslateOptions = {}): string {
  const tokens = rewriteInfix(rewriteWords(tokenize(src)));
  if (options.forEngine) {
    tokens.forEach((t, i) => {
      if (t.kind === 'ident' && t.text === 'matches' && tokens[i - 1]?.text === '.' && tokens[i + 1]?.text === '(') {
        t.text = 'safeMatches';
      }
    });
  }
  return tokens
    .map((t) => t.ws + t.text)
    .join('')
    .trim();
}

/** Word operators and renamed functions; infix keywords are only marked here. */
function rewriteWords(tokens: Token[]): Token[] {
  const out: Token[] = [];
  tokens.forEach((t, i) => {
    const prev = out.at(-1);
    const next = tokens[i + 1];
    if (t.kind !== 'ident' || prev?.text === '.') return out.push(t);
    const word = t.text;
    if (word === 'and' || word === 'or') out.push({ kind: 'punct', text: word === 'and' ? '&&' : '||', ws: t.ws });
    else if (word === 'nil') out.push({ ...t, text: 'null' });
    else if (word === 'len' && next?.text === '(') out.push({ ...t, text: 'size' });
    else if (word === 'not') {
      const binary =
        endsOperand(prev) && next?.kind === 'ident' && (next.text === 'in' || INFIX_METHODS.has(next.text));
      out.push(binary ? { ...t, kind: 'negate' } : { kind: 'punct', text: '!', ws: t.ws });
      if (!binary && next) next.ws = '';
    } else if (INFIX_METHODS.has(word) && (endsOperand(prev) || prev?.kind === 'negate'))
      out.push({ ...t, kind: 'infix' });
    else if (word === 'in' && prev?.kind === 'negate') out.push({ ...t, kind: 'infix' });
    else out.push(t);
  });
  return out;
}

/** `a op b` → `a.op(b)`, `a not in b` → `!(a in b)`, left to right (same precedence). */
function rewriteInfix(tokens: Token[]): Token[] {
  let toks = tokens;
  for (let k = toks.findIndex((t) => t.kind === 'infix'); k >= 0; k = toks.findIndex((t) => t.kind === 'infix')) {
    const name = toks[k].text;
    const negated = toks[k - 1]?.kind === 'negate';
    const opStart = negated ? k - 1 : k;
    const leftStart = operandStart(toks, opStart);
    const rightEnd = operandEnd(toks, k + 1);
    const left = toks.slice(leftStart, opStart);
    const right = toks.slice(k + 1, rightEnd);
    const shown = negated ? `not ${name}` : name;
    if (left.length === 0) throw new TranslateError(`"${shown}" needs a left operand`);
    if (right.length === 0) throw new TranslateError(`"${shown}" needs a right operand`);

    const ws = left[0].ws;
    const p = (text: string, space = ''): Token => ({ kind: 'punct', text, ws: space });
    left[0] = { ...left[0], ws: '' };
    let replacement: Token[];
    if (name === 'in') {
      replacement = [p('!', ws), p('('), ...left, { kind: 'ident', text: 'in', ws: ' ' }, ...right, p(')')];
    } else {
      right[0] = { ...right[0], ws: '' };
      const receiver = needsParens(left) ? [p('('), ...left, p(')')] : left;
      const call = [p('.'), { kind: 'ident' as const, text: name, ws: '' }, p('('), ...right, p(')')];
      replacement = [...(negated ? [p('!')] : []), ...receiver, ...call];
      replacement[0] = { ...replacement[0], ws };
    }
    toks = [...toks.slice(0, leftStart), ...replacement, ...toks.slice(rightEnd)];
  }
  return toks;
}

function isStop(t: Token): boolean {
  return (
    (t.kind === 'punct' && STOPS.has(t.text)) ||
    t.kind === 'infix' ||
    t.kind === 'negate' ||
    (t.kind === 'ident' && t.text === 'in')
  );
}

/** Index where the left operand of the operator at `end` starts. */
function operandStart(toks: Token[], end: number): number {
  let depth = 0;
  let j = end - 1;
  for (; j >= 0; j--) {
    const t = toks[j];
    if (CLOSING.has(t.text)) depth++;
    else if (OPENING.has(t.text)) {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && (isStop(t) || t.text === '!')) break;
  }
  return j + 1;
}

/** Index just after the right operand starting at `start`. */
function operandEnd(toks: Token[], start: number): number {
  let depth = 0;
  let j = start;
  for (; j < toks.length; j++) {
    const t = toks[j];
    if (OPENING.has(t.text)) depth++;
    else if (CLOSING.has(t.text)) {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0 && isStop(t)) break;
  }
  return j;
}

/** A receiver needs parentheses unless it is a plain chain like msg.a.b[0] or a literal string. */
function needsParens(left: Token[]): boolean {
  let depth = 0;
  for (const t of left) {
    if (OPENING.has(t.text)) depth++;
    else if (CLOSING.has(t.text)) depth--;
    else if (depth === 0 && (t.kind === 'number' || (t.kind === 'punct' && t.text !== '.'))) return true;
  }
  return false;
}
