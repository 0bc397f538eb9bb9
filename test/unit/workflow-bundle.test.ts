import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleWorkflowCode } from '@temporalio/worker';

const root = path.resolve(import.meta.dirname, '../..');

describe('workflow bundle', () => {
  it('bundles workflows/ without Node modules, the ORM or Hono', async () => {
    // The bundler refuses Node built-ins outright; the ORM and Hono would be bundled, so look for them.
    const { code } = await bundleWorkflowCode({
      workflowsPath: path.join(root, 'workflows', 'index.ts'),
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
  }, 120_000);
});
