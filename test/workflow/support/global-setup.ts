// One Temporal dev server (through @temporalio/testing) and one workflow bundle for the whole
// `workflow` project. Test files connect to the server and run their own Worker with in-memory
// activity fakes on a task queue of their own. No PostgreSQL, no HTTP server.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode } from '@temporalio/worker';
import { findTemporalCli } from '../../../src/runtime/temporal-cli.js';
import { createLogger } from '../../../src/observability/logger.js';
import * as sa from '../../../workflows/search-attributes.js';
import { workflowBundleOptions } from '../../../src/main/workflow-bundle.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
  }
}

const root = path.resolve(import.meta.dirname, '../../..');
let env: TestWorkflowEnvironment | undefined;

const quiet = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} } as any;

async function sourcesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|js|json)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/**
 * The workflow bundle, built once and cached under .data/ by a hash of everything it can
 * include (workflows/, dsl/, src/, the lockfile): bundling takes ~10 s on a busy 2-core machine.
 */
async function workflowBundle(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [
    ...(await sourcesUnder(path.join(root, 'workflows'))),
    ...(await sourcesUnder(path.join(root, 'dsl'))),
    ...(await sourcesUnder(path.join(root, 'chains'))),
    ...(await sourcesUnder(path.join(root, 'src'))),
    path.join(root, 'package-lock.json'),
  ]) {
    hash
      .update(path.relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  const dir = path.join(root, '.data', 'workflow-tests');
  const file = path.join(dir, `bundle-${hash.digest('hex').slice(0, 16)}.js`);
  if (existsSync(file)) return file;
  const { code } = await bundleWorkflowCode({ ...workflowBundleOptions, logger: quiet });
  await mkdir(dir, { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  await writeFile(partial, code);
  await rename(partial, file);
  for (const old of await readdir(dir))
    if (old.startsWith('bundle-') && path.join(dir, old) !== file && !old.endsWith('.tmp'))
      await rm(path.join(dir, old), { force: true });
  return file;
}

export async function setup(project: TestProject) {
  // The CLI the runtime installs into .tools/ (or TEMPORAL_CLI / PATH): nothing is downloaded here.
  const cli = await findTemporalCli(createLogger('warn', 'workflow-tests'));
  const [started, bundlePath] = await Promise.all([
    TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: cli },
        searchAttributes: [
          sa.ProcessKey,
          sa.BusinessKey,
          sa.InstanceStatus,
          sa.Initiator,
          sa.TenantId,
          sa.ProcessVersion,
        ],
        extraArgs: ['--log-level', 'error'],
      },
    }),
    workflowBundle(),
  ]);
  env = started;
  project.provide('temporalAddress', env.address);
  project.provide('workflowBundlePath', bundlePath);
}

export async function teardown() {
  await env?.teardown();
}
