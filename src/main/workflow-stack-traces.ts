import v8 from 'node:v8';

/**
 * Bounds the stacks of the workflow code of the Workers created after this call (their V8 context,
 * on the main thread or on workflow threads, reads the flag when it is created). With
 * WORKFLOW_STACK_TRACES on, the SDK's promise hook captures and source-maps a stack for every
 * promise a workflow creates (to answer the Web UI's stack-trace query), and its cost grows with
 * each frame; errors thrown in workflow code are bounded either way. The workflow sandbox
 * freezes `Error`, so the bound is V8's flag, which every new isolate and context reads when it
 * is created. The calling thread's own context keeps its limit (activities' errors keep their whole stacks).
 */
export function limitWorkflowStackTraces(frames: number) {
  v8.setFlagsFromString(`--stack-trace-limit=${frames}`);
}
