// One Temporal dev server (through @temporalio/testing) and one workflow bundle for the whole
// `workflow` project. Test files connect to the server and run their own Worker with in-memory
// activity fakes on a task queue of their own. No PostgreSQL, no HTTP server.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { findTemporalCli } from '../../../src/runtime/temporal-cli.js';
import { createLogger } from '../../../src/logger.js';
import * as sa from '../../../workflows/search-attributes.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
  }
}

const root = path.resolve(import.meta.dirname, '../../..');
let env: TestWorkflowEnvironment | undefined;
let dir: string | undefined;

const quiet = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} } as any;

export async function setup(project: TestProject) {
  // The CLI the runtime installs into .tools/ (or TEMPORAL_CLI / PATH): nothing is downloaded here.
  const cli = await findTemporalCli(createLogger('warn', 'workflow-tests'));
  const [started, bundle] = await Promise.all([
    TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: cli },
        searchAttributes: [sa.ProcessKey, sa.BusinessKey, sa.InstanceStatus, sa.Initiator, sa.TenantId],
        extraArgs: ['--log-level', 'error'],
      },
    }),
    bundleWorkflowCode({ workflowsPath: path.join(root, 'workflows', 'index.ts'), logger: quiet }),
  ]);
  env = started;
  dir = await mkdtemp(path.join(os.tmpdir(), 'workflow-tests-'));
  const bundlePath = path.join(dir, 'workflows.js');
  await writeFile(bundlePath, bundle.code);
  project.provide('temporalAddress', env.address);
  project.provide('workflowBundlePath', bundlePath);
}

export async function teardown() {
  await env?.teardown();
  if (dir) await rm(dir, { recursive: true, force: true });
}
