// What every workflow bundle is built from: the worker bundling from source, the prebuilt production
// bundles (scripts/bundle-workflows.ts) and the tests' bundles.
import path from 'node:path';
import type { BundleOptions, WorkerOptions } from '@temporalio/worker';

export const workflowsPath = path.resolve(import.meta.dirname, '../../workflows/index.ts');

/**
 * Modules evaluated once per V8 context of workflow code (the worker's main thread, or each
 * workflow thread) and shared by every workflow in it. The SDK gives each
 * instance its own module cache otherwise, and evaluated every module of the bundle again on each
 * instance's first workflow task: the CEL library's standard library (docs/performance.md, third
 * session), re2js (seventh), and then our own ~45 modules with the SDK's `index.js` — about 9 % of
 * the workflow thread's samples (tenth session). re2js declares itself free of side effects, so
 * webpack drops a require of it whose value is unused; it comes in through dsl/matches.ts. The
 * workflows module brings in everything else of ours.
 *
 * Shared means: module scope runs before any workflow exists, the SDK deep-freezes every shared
 * module's exports, and module-level variables live as long as the context. So a workflow module
 * keeps no per-instance state at module level — only caches that are pure by their key and
 * bounded, or WeakMaps keyed by a run's own objects (test/unit/workflow-bundle.test.ts holds
 * the list; docs/engine.md, "Module state").
 */
export const preloadModules = [
  '@marcbachmann/cel-js',
  path.resolve(import.meta.dirname, '../../dsl/matches.ts'),
  workflowsPath,
];

export const workflowBundleOptions: Pick<BundleOptions, 'workflowsPath' | 'preloadModules'> = {
  workflowsPath,
  preloadModules,
};

/** The same, as a worker (or a replay) that bundles from source takes them. */
export const workflowSourceOptions: Pick<WorkerOptions, 'workflowsPath' | 'bundlerOptions'> = {
  workflowsPath,
  bundlerOptions: { preloadModules },
};
