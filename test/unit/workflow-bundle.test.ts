import { describe, expect, it } from 'vitest';
import { bundleWorkflowCode } from '@temporalio/worker';
import { workflowBundleOptions } from '../../src/main/workflow-bundle.js';

describe('workflow bundle', () => {
  it('bundles workflows/ without Node modules, the ORM or Hono', async () => {
    // The bundler refuses Node built-ins outright; the ORM and Hono would be bundled, so look for them.
    const { code } = await bundleWorkflowCode({
      ...workflowBundleOptions,
      logger: { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} } as any,
    });
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
    // The CEL library is evaluated once per worker thread, not once per instance.
    const preload = code.slice(code.indexOf('function preloadModules()'), code.indexOf('function importWorkflows()'));
    expect(preload).toContain('@marcbachmann/cel-js');
    expect(preload).toContain('dsl/matches.ts');
  }, 120_000);
});
