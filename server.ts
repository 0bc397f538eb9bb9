import { runServer } from './src/main/server.js';

const server = await runServer().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void server.stop().then(() => process.exit(0));
  });
}
