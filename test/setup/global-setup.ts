// Starts the whole stack once per test run with the same provisioning code as `npm start`
// (scripts/stack.ts). Test files talk to it over real HTTP.
import type { TestProject } from 'vitest/node';
import { startStack, type Stack } from '../../scripts/stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
    temporalAddress: string;
    jwtSecret: string;
    taskQueue: string;
  }
}

let stack: Stack | undefined;

export async function setup(project: TestProject) {
  stack = await startStack({
    name: 'test',
    logLevel: process.env.TEST_LOG_LEVEL ?? 'warn',
    env: {
      LOGIN_RATE_LIMIT: '10',
      BODY_LIMIT_BYTES: String(1024 * 1024),
      // httpCall tests reach a local server by this name; 127.0.0.1 stays refused.
      HTTP_CALL_ALLOW_PRIVATE_HOSTS: 'localhost',
      // Low, so multi-step tests cross continue-as-new boundaries.
      WORKFLOW_HISTORY_LIMIT: '60',
      // Notification channels (docs/channels.md): quick retries and polls, so failures reach the
      // delivery log within a test's time.
      NOTIFY_RETRY_BASE_MS: '200',
      NOTIFY_RETRY_MAX_MS: '1000',
      NOTIFY_MAX_ATTEMPTS: '3',
      NOTIFY_POLL_MS: '300',
      // Attachments (docs/attachments.md): the sweeper removes deleted files within a test's time.
      ATTACHMENT_SWEEP_INTERVAL_MS: '300',
    },
  });
  project.provide('baseUrl', stack.baseUrl);
  project.provide('databaseUrl', stack.databaseUrl);
  project.provide('temporalAddress', stack.temporalAddress);
  project.provide('jwtSecret', stack.jwtSecret);
  project.provide('taskQueue', stack.taskQueue);
}

export async function teardown() {
  await stack?.stop();
}
