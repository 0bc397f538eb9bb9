import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../../src/main/workflow-bundle.js';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Module-level state our workflow modules may keep, now that every worker thread shares one copy
 * of them (src/main/workflow-bundle.ts preloadModules): each is pure by its key (or keyed by a
 * run's own object) and bounded, so sharing it cannot carry one instance's state into another's.
 */
const SHARED_STATE: Record<string, string> = {
  'dsl/cel-environment.ts built': 'the CEL environments, built once on first use; never changed after',
  'dsl/cel-environment.ts typedEnvironments': 'environments by field-type schema; at most 50',
  'dsl/expressions.ts prepared': 'compiled conditions by their text; at most 500',
  'dsl/graph.ts indexes': "a WeakMap keyed by a run's own process document",
  'dsl/regions.ts regions': "a WeakMap keyed by a run's own process document",
  'dsl/matches.ts cache': 'compiled patterns by their text; at most 200',
};

/** `let`/`var` at module level, and `const x = new Map()`-like caches (no constructor argument). */
function moduleState(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest);
  const found: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const mutable = (statement.declarationList.flags & (ts.NodeFlags.Let | ts.NodeFlags.Const)) !== ts.NodeFlags.Const;
    for (const d of statement.declarationList.declarations) {
      const init = d.initializer;
      const cache =
        init !== undefined &&
        ts.isNewExpression(init) &&
        /^(Map|Set|WeakMap|WeakSet)$/.test(init.expression.getText(source)) &&
        !init.arguments?.length;
      if (mutable || cache) found.push(`${file} ${d.name.getText(source)}`);
    }
  }
  return found;
}

describe('workflow bundle', () => {
  let code = '';
  beforeAll(async () => {
    ({ code } = await bundleWorkflowCode({
      ...workflowBundleOptions,
      logger: { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} } as any,
    }));
  }, 120_000);

  it('bundles workflows/ without Node modules, the ORM or Hono', () => {
    // The bundler refuses Node built-ins outright; the ORM and Hono would be bundled, so look for them.
    expect(code.length).toBeGreaterThan(1000);
    for (const forbidden of [
      'node_modules/@mikro-orm',
      'node_modules/hono',
      'node_modules/pg/',
      'node_modules/pino',
      'node_modules/@hono',
    ]) {
      expect(code, forbidden).not.toContain(forbidden);
    }
    expect(code).toContain('node_modules/re2js'); // CEL `matches` runs inside the sandbox
  });

  it('evaluates the CEL library and every workflow module once per context of workflow code, not once per instance', () => {
    const preload = code.slice(code.indexOf('function preloadModules()'), code.indexOf('function importWorkflows()'));
    expect(preload).toContain('@marcbachmann/cel-js');
    expect(preload).toContain('dsl/matches.ts');
    expect(preload).toContain('workflows/index.ts');
  });

  it('our shared workflow modules keep no state at module level but the listed pure, bounded caches', () => {
    const ours = [...code.matchAll(/^\/\*\*\*\/ "\.\/((?:workflows|dsl)\/[^"]+\.ts)"/gm)].map((m) => m[1]!);
    expect(ours.length).toBeGreaterThan(30);
    const state = ours.flatMap(moduleState).sort();
    expect(state).toEqual(Object.keys(SHARED_STATE).sort());
  });
});
