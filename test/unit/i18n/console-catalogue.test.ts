// The console's languages are complete (docs/console.md "Languages"): every key of the English
// catalogue exists in every other and nothing more, and no word a person reads in the console is
// written in a component instead of the catalogue.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { en } from '../../../ui/src/i18n/en.js';
import { zhCN } from '../../../ui/src/i18n/zh-CN.js';
import { fromBrowser, matchLocale } from '../../../ui/src/i18n/locale.js';
import { en as designerEn } from '../../../ui/src/features/designer/i18n/en.js';
import { zhCN as designerZhCN } from '../../../ui/src/features/designer/i18n/zh-CN.js';
import { en as notifyAdminEn } from '../../../ui/src/features/notification-admin/i18n/en.js';
import { zhCN as notifyAdminZhCN } from '../../../ui/src/features/notification-admin/i18n/zh-CN.js';
import { en as settingsEn } from '../../../ui/src/features/settings/i18n/en.js';
import { zhCN as settingsZhCN } from '../../../ui/src/features/settings/i18n/zh-CN.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** The console's catalogues, and those of each feature loaded on demand (its words come with its chunk). */
const CATALOGUES: [string, object, object][] = [
  ['console', en, zhCN],
  ['designer', designerEn, designerZhCN],
  ['notification-admin', notifyAdminEn, notifyAdminZhCN],
  ['settings', settingsEn, settingsZhCN],
];

/** Every param any history or ending code takes, with values that hold no English words. */
const HISTORY_SAMPLE = {
  nodeId: 'n1',
  nodeName: '经理审批',
  setting: 'all',
  problem: 'x1',
  reason: 'x2',
  target: 'n2',
  strategy: 'toPrev',
  message: 'x3',
  branches: ['b1', 'b2'],
  seconds: 5,
  functionName: 'f1',
  status: 500,
  targetId: 'p1',
  actor: 'u1',
  fromVersion: 1,
  toVersion: 2,
  from: 'u2',
  to: 'u3',
  nodes: ['n1', 'n2'],
  joinId: 'j1',
  comment: 'x4',
};

type Shape = string | { [k: string]: Shape };
function shape(value: unknown): Shape {
  if (typeof value === 'function') return `fn/${value.length}`;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
  return typeof value;
}

function leaves(value: unknown, at = ''): [string, unknown][] {
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => leaves(v, at ? `${at}.${k}` : k));
  return [[at, value]];
}

describe('console catalogues', () => {
  it('zh-CN has exactly the keys of en, with the same kind of value (a function takes the same arguments)', () => {
    for (const [name, enWords, zhWords] of CATALOGUES) expect(shape(zhWords), name).toEqual(shape(enWords));
  });

  it("a feature's sections are its own: none takes the name of the console's or another feature's", () => {
    const sections = CATALOGUES.flatMap(([, enWords]) => Object.keys(enWords));
    expect(new Set(sections).size).toBe(sections.length);
  });

  it('no zh-CN string is left empty, and the sentences are translated (no English word of three letters or more)', () => {
    // Product names and technical words that stay as written.
    const keep = /\b(Temporal|Web|UI|HTTP|JSON|DSL|URL|GFlow|ID|key|msg|approvers|new_process)\b/gi;
    for (const [key, value] of CATALOGUES.flatMap(([, , zhWords]) => leaves(zhWords))) {
      // The engine's history and ending sentences take their code's params (dsl/history.ts, dsl/ending.ts); the others positional values.
      const args = key.startsWith('history.') || key.startsWith('ending.') ? [HISTORY_SAMPLE] : ['1', 2, 3];
      const sample =
        typeof value === 'function' ? String((value as (...a: unknown[]) => unknown)(...args)) : String(value);
      expect(sample.trim(), key).not.toBe('');
      const english = sample.replace(/\$\{[^}]*\}/g, '').replace(keep, '');
      expect(english, key).not.toMatch(/[A-Za-z]{3,}/);
    }
  });

  it('maps the browser languages to ours (zh, zh-CN, zh-Hans → zh-CN; else en)', () => {
    expect(matchLocale('zh')).toBe('zh-CN');
    expect(matchLocale('zh-Hans-CN')).toBe('zh-CN');
    expect(matchLocale('en-US')).toBe('en');
    expect(matchLocale('fr')).toBeNull();
    expect(fromBrowser(['fr-FR', 'zh-CN', 'en'])).toBe('zh-CN');
    expect(fromBrowser(['de'])).toBeNull();
  });
});

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tsxFiles(p) : e.name.endsWith('.tsx') ? [p] : [];
  });
}

/** Notation, the same in every language: `v3` (a version), `msg.days` (a variable as written in a condition). */
const NOTATION = new Set(['v', 'msg.']);

/** Attributes a person reads (or hears from a screen reader). */
const READ_ATTRIBUTES = new Set(['title', 'aria-label', 'placeholder', 'alt', 'label', 'aria-description']);

/** Words in a component: JSX text and read attributes holding letters (punctuation and symbols are fine). */
export function literalsIn(file: string, text = readFileSync(file, 'utf8')): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const letters = /\p{L}/u;
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && letters.test(node.text)) found.push(node.text.trim());
    // A string shown as a child: {'Hello'}, {ok ? 'Yes' : 'No'}, {name ?? 'Nobody'}.
    if (ts.isJsxExpression(node) && node.expression && !ts.isJsxAttribute(node.parent)) {
      const shown = (e: ts.Expression): void => {
        if (ts.isStringLiteralLike(e) && letters.test(e.text)) found.push(`{'${e.text}'}`);
        else if (ts.isParenthesizedExpression(e)) shown(e.expression);
        else if (ts.isConditionalExpression(e)) {
          shown(e.whenTrue);
          shown(e.whenFalse);
        } else if (ts.isBinaryExpression(e)) {
          const op = e.operatorToken.kind;
          if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) shown(e.left);
          if (
            op === ts.SyntaxKind.QuestionQuestionToken ||
            op === ts.SyntaxKind.BarBarToken ||
            op === ts.SyntaxKind.AmpersandAmpersandToken
          )
            shown(e.right);
        }
      };
      shown(node.expression);
    }
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(source))) {
      const init = node.initializer;
      const literal =
        init && ts.isStringLiteral(init)
          ? init.text
          : init && ts.isJsxExpression(init) && init.expression && ts.isStringLiteralLike(init.expression)
            ? init.expression.text
            : null;
      if (literal !== null && letters.test(literal)) found.push(`${node.name.getText(source)}="${literal}"`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('console texts come from the catalogue', () => {
  it('finds words written in a component', () => {
    expect(literalsIn('x.tsx', 'const a = <p title="Hello">Save {t.x} · ←</p>;').sort()).toEqual([
      'Save',
      'title="Hello"',
    ]);
    expect(literalsIn('x.tsx', 'const a = <p aria-label={t.x}>{t.y} · → ✓</p>;')).toEqual([]);
    expect(literalsIn('x.tsx', "const a = <p>{ok ? 'Yes' : t.no}{x ?? '—'}</p>;")).toEqual(["{'Yes'}"]);
  });

  it('no .tsx file under ui/src has JSX text or a read attribute with letters', () => {
    const offenders = tsxFiles(path.join(root, 'ui/src')).flatMap((f) =>
      literalsIn(f)
        .filter((l) => !NOTATION.has(l))
        .map((l) => `${path.relative(root, f)}: ${l}`),
    );
    expect(offenders).toEqual([]);
  });
});
