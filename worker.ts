import { runWorker } from './src/main/worker.js';

await runWorker().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
