// scripts/tsx-main-thread.mjs: TypeScript from source in the main thread, and worker threads (the
// SDK's workflow threads) started without tsx, so without Node's source-map support. With plain
// `--import tsx` as the control: there the thread has it. In child processes, as the stack starts
// the worker.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'tsx-main-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A thread from a file, as the SDK starts its workflow threads (an eval'd thread runs no --import).
const threadFile = path.join(dir, 'thread.cjs');
writeFileSync(
  threadFile,
  `require('node:worker_threads').parentPort.postMessage({ sourceMaps: process.sourceMapsEnabled });`,
);

const mainFile = path.join(dir, 'main.ts');
writeFileSync(
  mainFile,
  `
import { Worker } from 'node:worker_threads';
import { limitWorkflowStackTraces } from ${JSON.stringify(path.join(root, 'src/main/workflow-stack-traces.js'))};
const thread = new Worker(${JSON.stringify(threadFile)});
thread.once('message', (m) => {
  console.log(JSON.stringify({ typescript: typeof limitWorkflowStackTraces, main: process.sourceMapsEnabled, thread: m.sourceMaps }));
  void thread.terminate();
});
`,
);

const run = (preload: string) =>
  JSON.parse(
    execFileSync(process.execPath, ['--import', preload, mainFile], {
      cwd: root,
      encoding: 'utf8',
    }),
  );

it('the main thread loads TypeScript; a thread it starts has no source-map support', () => {
  expect(run('./scripts/tsx-main-thread.mjs')).toEqual({ typescript: 'function', main: true, thread: false });
});

it('with --import tsx the thread inherits tsx and its source-map support (the control)', () => {
  expect(run('tsx')).toEqual({ typescript: 'function', main: true, thread: true });
});
