// `node --import ./scripts/tsx-main-thread.mjs file.ts`: TypeScript from source in the main thread
// only. `--import tsx` is inherited by every worker thread, and tsx turns on Node's source-map
// support in each; in the Temporal SDK's workflow threads that costs a source-map check for every
// function its promise hook compiles, two per promise a workflow creates (docs/performance.md,
// eighth session). A thread that needs TypeScript asks for `--import tsx` itself
// (src/main/workflow-source.ts).
import { isMainThread } from 'node:worker_threads';

if (isMainThread) await import('tsx');
