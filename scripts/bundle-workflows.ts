// Prebuilds the workflow bundle the production worker loads (WORKFLOW_BUNDLE_PATH).
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

const root = path.resolve(import.meta.dirname, '..');
const { code } = await bundleWorkflowCode({ workflowsPath: path.join(root, 'workflows', 'index.ts') });
await mkdir(path.join(root, 'dist'), { recursive: true });
const out = path.join(root, 'dist', 'workflow-bundle.js');
await writeFile(out, code);
console.log(`workflow bundle written to ${path.relative(root, out)} (${(code.length / 1024).toFixed(0)} KiB)`);
