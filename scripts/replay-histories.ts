// Replays every history under test/histories (or the folder given: `npm run replay -- <dir>`, e.g.
// histories exported from production, docs/operations.md) against the current workflow code and
// prints one JSON line per history; exits non-zero on any nondeterminism. (`npm run replay`)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Runtime, Worker, DefaultLogger } from '@temporalio/worker';
import { workflowSourceOptions } from '../src/main/workflow-bundle.js';

const root = path.resolve(import.meta.dirname, '..');
const dir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, 'test', 'histories');
Runtime.install({ logger: new DefaultLogger('WARN') });
const histories = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ workflowId: f, history: JSON.parse(readFileSync(path.join(dir, f), 'utf8')) }));
let failed = 0;
for await (const r of Worker.runReplayHistories(workflowSourceOptions, histories)) {
  if (r.error) failed++;
  console.log(JSON.stringify({ history: r.workflowId, ok: !r.error, error: r.error ? String(r.error) : null }));
}
process.exit(failed ? 1 : 0);
