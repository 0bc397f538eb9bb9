import { runDispatcher } from './src/main/dispatcher.js';

await runDispatcher().catch((err) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
