// WORKFLOW_STACK_TRACE_LIMIT reaches the workflow sandbox: a thread started after
// limitWorkflowStackTraces, and a vm context in it (what the SDK runs workflows in), get the limit
// and capture no more frames; the calling thread keeps its own. In a child process, since V8's
// flags are the process's.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

const threadCode = `
const vm = require('node:vm');
const { parentPort } = require('node:worker_threads');
const sandbox = vm.createContext({});
const frames = vm.runInContext('function f(n) { return n ? f(n - 1) : new Error().stack.match(/ at /g).length; } f(20)', sandbox);
parentPort.postMessage({ thread: Error.stackTraceLimit, sandbox: vm.runInContext('Error.stackTraceLimit', sandbox), frames });
`;

const mainCode = `
import { Worker } from 'node:worker_threads';
import { limitWorkflowStackTraces } from './src/main/workflow-stack-traces.ts';
const before = Error.stackTraceLimit;
limitWorkflowStackTraces(4);
const thread = new Worker(${JSON.stringify(threadCode)}, { eval: true, execArgv: [] });
thread.once('message', (m) => {
  console.log(JSON.stringify({ before, main: Error.stackTraceLimit, ...m }));
  void thread.terminate();
});
`;

it('a thread started after limitWorkflowStackTraces(4) captures 4 frames in its sandbox; the caller keeps 10', () => {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', mainCode], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(JSON.parse(out)).toEqual({ before: 10, main: 10, thread: 4, sandbox: 4, frames: 4 });
});
