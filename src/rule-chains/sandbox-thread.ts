// The body of a script thread (sandbox.ts, runSandboxed): runs one script at a time in QuickJS and
// answers its outcome. Off the worker's main thread, so a script never holds up workflow tasks,
// and a thread whose script outlives its limit (native work QuickJS cannot interrupt) is terminated.
import { parentPort } from 'node:worker_threads';
import { runScript, type ScriptArgs, type ScriptKind } from './sandbox.js';

interface Job {
  kind: ScriptKind;
  body: string;
  args: ScriptArgs;
  timeoutMs: number;
}

parentPort?.on('message', (job: Job) => {
  void runScript(job.kind, job.body, job.args, job.timeoutMs).then(
    (outcome) => parentPort?.postMessage(outcome),
    (err: unknown) =>
      parentPort?.postMessage({
        ok: false,
        error: `script failed: ${err instanceof Error ? err.message : String(err)}`,
        logs: [],
        ms: 0,
      }),
  );
});
parentPort?.postMessage({ ready: true });
