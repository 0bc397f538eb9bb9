// What every workflow bundle is built from: the worker bundling from source, the prebuilt production
// bundles (scripts/bundle-workflows.ts) and the tests' bundles.
import path from 'node:path';
import type { BundleOptions, WorkerOptions } from '@temporalio/worker';

export const workflowsPath = path.resolve(import.meta.dirname, '../../workflows/index.ts');

/**
 * Libraries evaluated once per worker thread and shared by every workflow in it, instead of once
 * per workflow instance (the SDK gives each instance its own module cache). The CEL library's
 * module scope registers its whole standard library: it was most of the module evaluation in
 * every instance's first workflow task (docs/performance.md, third session). re2js was most of
 * what remained (seventh session); it declares itself free of side effects, so webpack drops a
 * require of it whose value is unused, and it is preloaded through dsl/matches.ts, which uses it
 * (and whose only state is a bounded cache of compiled patterns, pure by pattern text). Only
 * stateless modules belong here: the SDK deep-freezes their exports, and per-instance state kept
 * in them would leak between instances.
 */
export const preloadModules = ['@marcbachmann/cel-js', path.resolve(import.meta.dirname, '../../dsl/matches.ts')];

export const workflowBundleOptions: Pick<BundleOptions, 'workflowsPath' | 'preloadModules'> = {
  workflowsPath,
  preloadModules,
};

/** The same, as a worker (or a replay) that bundles from source takes them. */
export const workflowSourceOptions: Pick<WorkerOptions, 'workflowsPath' | 'bundlerOptions'> = {
  workflowsPath,
  bundlerOptions: { preloadModules },
};
