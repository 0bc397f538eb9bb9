// A small linear-time regular-expression matcher (Thompson NFA) for CEL's `matches`.
// JavaScript's backtracking RegExp can take exponential time on patterns like (a+)+$, which
// a condition must never do; this runs in O(text × pattern) like RE2, which CEL specifies.
// Supported: literals, ., classes [...] with ranges, \d \w \s (and negations), \b \B, ^ $,
// groups (?: ) (?<name> ), alternation, * + ? {n} {n,} {n,m} (lazy forms match the same).

export const MAX_PATTERN_LENGTH = 500;
export const MAX_TEXT_LENGTH = 10_000;
const MAX_STATES = 2_000;
const MAX_REPEAT = 100;

export class RegexError extends Error {
  override name = 'RegexError';
}

type CharTest = (c: number) => boolean;
type Assertion = 'bol' | 'eol' | 'wordBoundary' | 'notWordBoundary';
type Node =
  | { k: 'char'; test: CharTest }
  | { k: 'assert'; a: Assertion }
  | { k: 'seq'; items: Node[] }
  | { k: 'alt'; options: Node[] }
  | { k: 'repeat'; item: Node; min: number; max: number };

type State =
  | { k: 'char'; test: CharTest; out: number }
  | { k: 'split'; a: number; b: number }
  | { k: 'assert'; a: Assertion; out: number }
  | { k: 'match' };

interface Program {
  states: State[];
  start: number;
}

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const spaceChars = new Set([9, 10, 11, 12, 13, 32, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
const isSpace: CharTest = (c) => spaceChars.has(c) || (c >= 0x2000 && c <= 0x200a);
const not =
  (t: CharTest): CharTest =>
  (c) =>
    !t(c);
const classEscapes: Record<string, CharTest> = {
  d: isDigit,
  D: not(isDigit),
  w: isWord,
  W: not(isWord),
  s: isSpace,
  S: not(isSpace),
};
const controlEscapes: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, '0': 0 };

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) this.fail(`unexpected "${this.src[this.i]}"`);
    return node;
  }

  private fail(message: string): never {
    throw new RegexError(`invalid pattern at ${this.i}: ${message}`);
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { k: 'alt', options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      items.push(this.quantified(this.atom()));
    }
    return { k: 'seq', items };
  }

  private quantified(item: Node): Node {
    const ch = this.src[this.i];
    let min: number;
    let max: number;
    if (ch === '*' || ch === '+' || ch === '?') {
      this.i++;
      [min, max] = ch === '*' ? [0, Infinity] : ch === '+' ? [1, Infinity] : [0, 1];
    } else if (ch === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return item; // a lone `{` is a literal, as in JavaScript
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (max < min) this.fail('repetition {n,m} with m < n');
      if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) this.fail(`repetition above ${MAX_REPEAT}`);
    } else {
      return item;
    }
    if (item.k === 'assert') this.fail('nothing to repeat');
    if (this.src[this.i] === '?') this.i++; // lazy: same set of matches
    const after = this.src[this.i];
    if (after === '*' || after === '+' || after === '?') this.fail('nothing to repeat');
    return { k: 'repeat', item, min, max };
  }

  private atom(): Node {
    const ch = this.src[this.i++];
    switch (ch) {
      case '(':
        return this.group();
      case '[':
        return { k: 'char', test: this.charClass() };
      case '.':
        return { k: 'char', test: (c) => c !== 10 && c !== 13 && c !== 0x2028 && c !== 0x2029 };
      case '^':
        return { k: 'assert', a: 'bol' };
      case '$':
        return { k: 'assert', a: 'eol' };
      case '\\':
        return this.escape();
      case '*':
      case '+':
      case '?':
        return this.fail('nothing to repeat');
      default: {
        const code = ch.charCodeAt(0);
        return { k: 'char', test: (c) => c === code };
      }
    }
  }

  private group(): Node {
    if (this.src[this.i] === '?') {
      const m = /^\?(:|P?<[A-Za-z_]\w*>)/.exec(this.src.slice(this.i));
      if (!m) this.fail('lookaround and inline flags are not supported');
      this.i += m[0].length;
    }
    const inner = this.alternation();
    if (this.src[this.i] !== ')') this.fail('missing )');
    this.i++;
    return inner;
  }

  private escape(): Node {
    const ch = this.src[this.i];
    if (ch === 'b' || ch === 'B') {
      this.i++;
      return { k: 'assert', a: ch === 'b' ? 'wordBoundary' : 'notWordBoundary' };
    }
    const test = this.escapeInClass();
    return { k: 'char', test };
  }

  /** An escape after the backslash, as a character test. */
  private escapeInClass(): CharTest {
    const ch = this.src[this.i++];
    if (ch === undefined) this.fail('pattern ends with \\');
    if (Object.hasOwn(classEscapes, ch)) return classEscapes[ch];
    const code = this.escapedCode(ch);
    return (c) => c === code;
  }

  private escapedCode(ch: string): number {
    if (Object.hasOwn(controlEscapes, ch)) return controlEscapes[ch];
    if (ch === 'x' || ch === 'u') {
      const len = ch === 'x' ? 2 : 4;
      const hex = this.src.slice(this.i, this.i + len);
      if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) this.fail(`bad \\${ch} escape`);
      this.i += len;
      return parseInt(hex, 16);
    }
    if (/[1-9]/.test(ch)) this.fail('backreferences are not supported');
    if (/[A-Za-z0-9]/.test(ch)) this.fail(`unsupported escape \\${ch}`);
    return ch.charCodeAt(0);
  }

  private charClass(): CharTest {
    const negate = this.src[this.i] === '^';
    if (negate) this.i++;
    const tests: CharTest[] = [];
    while (this.src[this.i] !== ']') {
      if (this.i >= this.src.length) this.fail('missing ]');
      const lo = this.classAtom();
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        const hi = this.classAtom();
        if (typeof lo !== 'number' || typeof hi !== 'number') this.fail('bad range in class');
        if (hi < lo) this.fail('range out of order in class');
        tests.push((c) => c >= lo && c <= hi);
      } else {
        tests.push(typeof lo === 'number' ? (c) => c === lo : lo);
      }
    }
    this.i++;
    return negate ? (c) => !tests.some((t) => t(c)) : (c) => tests.some((t) => t(c));
  }

  /** A class member: a code point, or a test for \d, \w, \s and their negations. */
  private classAtom(): number | CharTest {
    const ch = this.src[this.i++];
    if (ch !== '\\') return ch.charCodeAt(0);
    const next = this.src[this.i];
    if (next !== undefined && Object.hasOwn(classEscapes, next)) {
      this.i++;
      return classEscapes[next];
    }
    if (next === 'b') {
      this.i++;
      return 8;
    }
    this.i++;
    if (next === undefined) this.fail('pattern ends with \\');
    return this.escapedCode(next);
  }
}

function compile(root: Node): Program {
  const states: State[] = [{ k: 'match' }];
  const add = (s: State): number => {
    if (states.length >= MAX_STATES) throw new RegexError('pattern is too large');
    states.push(s);
    return states.length - 1;
  };
  // Compiles `node` so that it continues at state `next`; returns its first state.
  const build = (node: Node, next: number): number => {
    switch (node.k) {
      case 'char':
        return add({ k: 'char', test: node.test, out: next });
      case 'assert':
        return add({ k: 'assert', a: node.a, out: next });
      case 'seq':
        return node.items.reduceRight((acc, item) => build(item, acc), next);
      case 'alt':
        return node.options
          .slice(0, -1)
          .reduceRight((acc, option) => add({ k: 'split', a: build(option, next), b: acc }), build(node.options.at(-1)!, next));
      case 'repeat': {
        let tail = next;
        if (node.max === Infinity) {
          const loop = add({ k: 'split', a: -1, b: next });
          (states[loop] as { a: number }).a = build(node.item, loop);
          tail = loop;
        } else {
          for (let n = node.min; n < node.max; n++) tail = add({ k: 'split', a: build(node.item, tail), b: next });
        }
        for (let n = 0; n < node.min; n++) tail = build(node.item, tail);
        return tail;
      }
    }
  };
  return { states, start: build(root, 0) };
}

function run({ states, start }: Program, text: string): boolean {
  const n = text.length;
  const mark = new Int32Array(states.length).fill(-1);
  let matched = false;
  // Adds a state and everything reachable from it without consuming input at position `pos`.
  const addState = (list: number[], first: number, pos: number) => {
    const stack = [first];
    while (stack.length > 0) {
      const idx = stack.pop()!;
      if (mark[idx] === pos) continue;
      mark[idx] = pos;
      const s = states[idx];
      if (s.k === 'match') matched = true;
      else if (s.k === 'char') list.push(idx);
      else if (s.k === 'split') stack.push(s.b, s.a);
      else if (holds(s.a, text, pos)) stack.push(s.out);
    }
  };
  let current: number[] = [];
  addState(current, start, 0);
  for (let pos = 0; pos < n && !matched; pos++) {
    const c = text.charCodeAt(pos);
    const next: number[] = [];
    for (const idx of current) {
      const s = states[idx] as Extract<State, { k: 'char' }>;
      if (s.test(c)) addState(next, s.out, pos + 1);
    }
    addState(next, start, pos + 1); // unanchored search: a match may start anywhere
    current = next;
  }
  return matched;
}

function holds(a: Assertion, text: string, pos: number): boolean {
  switch (a) {
    case 'bol':
      return pos === 0;
    case 'eol':
      return pos === text.length;
    default: {
      const before = pos > 0 && isWord(text.charCodeAt(pos - 1));
      const after = pos < text.length && isWord(text.charCodeAt(pos));
      return (before !== after) === (a === 'wordBoundary');
    }
  }
}

const cache = new Map<string, Program>();

export function compileRegex(pattern: string): Program {
  let program = cache.get(pattern);
  if (!program) {
    if (pattern.length > MAX_PATTERN_LENGTH) throw new RegexError(`pattern longer than ${MAX_PATTERN_LENGTH} characters`);
    program = compile(new Parser(pattern).parse());
    if (cache.size >= 200) cache.delete(cache.keys().next().value!);
    cache.set(pattern, program);
  }
  return program;
}

/** Whether `pattern` matches anywhere in `text` (RE2/CEL `matches` semantics). */
export function regexMatches(text: string, pattern: string): boolean {
  if (text.length > MAX_TEXT_LENGTH) throw new RegexError(`matches: text longer than ${MAX_TEXT_LENGTH} characters`);
  return run(compileRegex(pattern), text);
}
