// The lint rule for code that runs inside the workflow sandbox: starting at workflows/index.ts,
// every module reached imports only relative files and the packages allowed below.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const allowed = new Set([
  '@temporalio/workflow',
  '@temporalio/common',
  // Not zod: the workflow imports the DSL's pure modules directly, not dsl/index.ts with its
  // schemas, which every new workflow would build again (docs/performance.md).
  '@marcbachmann/cel-js',
  're2js', // CEL `matches` (dsl/matches.ts): pure JavaScript, no imports, deterministic
  'jsep', // chain expressions (chains/expr.ts): a self-contained parser, deterministic
]);

function importsOf(file: string): Array<{ spec: string; typeOnly: boolean }> {
  const src = readFileSync(file, 'utf8');
  const out: Array<{ spec: string; typeOnly: boolean }> = [];
  for (const m of src.matchAll(/^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]/gm))
    out.push({ spec: m[3], typeOnly: Boolean(m[2]) });
  for (const m of src.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push({ spec: m[1], typeOnly: false });
  return out;
}

function reachable(entry: string) {
  const seen = new Map<string, Array<{ spec: string; typeOnly: boolean }>>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    const imports = importsOf(file);
    seen.set(file, imports);
    for (const i of imports)
      if (i.spec.startsWith('.') && !i.typeOnly)
        visit(path.resolve(path.dirname(file), i.spec.replace(/\.js$/, '.ts')));
  };
  visit(entry);
  return seen;
}

describe('workflow sandbox imports', () => {
  it('reach only relative modules and allowed packages (no Node, ORM, Hono, pg, pino)', () => {
    const modules = reachable(path.join(root, 'workflows', 'index.ts'));
    expect(modules.size).toBeGreaterThan(10);
    const bad: string[] = [];
    for (const [file, imports] of modules) {
      for (const i of imports) {
        if (i.typeOnly || i.spec.startsWith('.')) continue;
        if (!allowed.has(i.spec)) bad.push(`${path.relative(root, file)} imports ${i.spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('follows the imports into the pure DSL modules, not the DSL index with its schemas', () => {
    const files = [...reachable(path.join(root, 'workflows', 'index.ts')).keys()].map((f) => path.relative(root, f));
    expect(files).toEqual(
      expect.arrayContaining(['dsl/expressions.ts', 'dsl/graph.ts', 'workflows/engine/interpreter.ts']),
    );
    expect(files).not.toContain('dsl/index.ts');
    expect(files).not.toContain('dsl/schemas.ts');
  });
});
