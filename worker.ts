import { createActivities } from './activities/index.js';
import { runWorker } from './src/main/worker.js';

await runWorker(createActivities).catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
