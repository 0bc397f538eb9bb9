import { defineConfig } from 'vitest/config';

// Three projects: pure unit tests; integration tests that share one provisioned stack
// (PostgreSQL, Temporal dev server, worker, server) started by the global setup; and fast
// workflow tests on @temporalio/testing with in-memory activity fakes (no HTTP, no PostgreSQL).
export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: ['test/setup/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'workflow',
          include: ['test/workflow/**/*.test.ts'],
          globalSetup: ['test/workflow/support/global-setup.ts'],
          // Files share their worker process's module cache (Temporal SDK, DSL): each file
          // still runs its own Worker on its own task queue.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
