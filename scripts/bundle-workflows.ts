// Prebuilds the workflow bundles the production worker loads (WORKFLOW_BUNDLE_PATH): the plain one,
// and one with Temporal's OpenTelemetry workflow interceptors for workers that trace
// (OTEL_EXPORTER_OTLP_ENDPOINT set; src/main/worker.ts picks it).
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { otelWorkflowInterceptors } from '../src/observability/worker-telemetry.js';
import { workflowBundleOptions } from '../src/main/workflow-bundle.js';

const root = path.resolve(import.meta.dirname, '..');
await mkdir(path.join(root, 'dist'), { recursive: true });
for (const [name, workflowInterceptorModules] of [
  ['workflow-bundle.js', []],
  ['workflow-bundle-traced.js', [otelWorkflowInterceptors]],
] as const) {
  const { code } = await bundleWorkflowCode({
    ...workflowBundleOptions,
    workflowInterceptorModules: [...workflowInterceptorModules],
  });
  const out = path.join(root, 'dist', name);
  await writeFile(out, code);
  console.log(`workflow bundle written to ${path.relative(root, out)} (${(code.length / 1024).toFixed(0)} KiB)`);
}
