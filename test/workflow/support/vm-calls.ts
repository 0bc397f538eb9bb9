// What the SDK passes as the timeout of each call into a workflow's V8 context (it passes
// `displayErrors: true` with each). Seen only for contexts in this thread: workers in debug mode.
import vm from 'node:vm';
import { afterAll, vi } from 'vitest';

/** Records each call's timeout into the returned array (until the file's tests end). */
export function recordVmTimeouts(): Array<number | undefined> {
  const timeouts: Array<number | undefined> = [];
  const runInContext = vm.Script.prototype.runInContext;
  const spy = vi.spyOn(vm.Script.prototype, 'runInContext').mockImplementation(function (
    this: vm.Script,
    ctx,
    options,
  ) {
    if (options?.displayErrors === true) timeouts.push(options.timeout);
    return runInContext.call(this, ctx, options);
  });
  afterAll(() => spy.mockRestore());
  return timeouts;
}
