import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The console imports the DSL package as @dsl (the designer's model) and the chain package as @chains.
const dslAlias = {
  '@dsl': path.resolve(import.meta.dirname, 'dsl'),
  '@chains': path.resolve(import.meta.dirname, 'chains'),
};

// Four projects: pure unit tests; integration tests that share one provisioned stack
// (PostgreSQL, Temporal dev server, worker, server) started by the global setup; fast
// workflow tests on @temporalio/testing with in-memory activity fakes (no HTTP, no PostgreSQL);
// browser tests of the web console; and the production topology (`npm run test:production`: a
// real Temporal server built from Go, two servers and two workers from dist/, docker-compose.yml's
// configuration), its own stack.
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias: dslAlias },
        test: {
          name: 'unit',
          // Only test/ is scanned: .data/ holds stack folders that appear and vanish while tests run.
          dir: 'test',
          include: ['unit/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          // Only test/ is scanned: .data/ holds stack folders that appear and vanish while tests run.
          dir: 'test',
          include: ['integration/**/*.test.ts'],
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The web console in a real browser (Debian chromium via playwright-core) against its
        // own stack: the same global setup as the integration tests, plus chromium and the UI build.
        resolve: { alias: dslAlias },
        test: {
          name: 'browser',
          // Only test/ is scanned: .data/ holds stack folders that appear and vanish while tests run.
          dir: 'test',
          include: ['browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts', 'test/setup/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'workflow',
          // Only test/ is scanned: .data/ holds stack folders that appear and vanish while tests run.
          dir: 'test',
          include: ['workflow/**/*.test.ts'],
          globalSetup: ['test/workflow/support/global-setup.ts'],
          // Files share their worker process's module cache (Temporal SDK, DSL): each file
          // still runs its own Worker on its own task queue.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'production',
          // Only test/ is scanned: .data/ holds stack folders that appear and vanish while tests run.
          dir: 'test',
          include: ['production/**/*.test.ts'],
          // After the other projects: it builds dist/ (as runtime.test.ts does) and wants the cores.
          sequence: { groupOrder: 1 },
          // The first run builds the Temporal server from the Go module proxy (minutes).
          testTimeout: 300_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
