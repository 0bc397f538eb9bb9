// A throwaway stack for `npm run fuzz` (scripts/fuzz.ts), in its own process so that the
// server's and worker's log lines (stdout/stderr, inherited from this process) can be captured
// by the parent into a file. Writes the stack's addresses as JSON to the file named by
// FUZZ_STACK_INFO once it is ready, then waits; SIGTERM / SIGINT stops the stack.
import { renameSync, writeFileSync } from 'node:fs';
import { startStack } from './stack.js';

const stack = await startStack({
  name: 'fuzz',
  logLevel: process.env.FUZZ_LOG_LEVEL ?? 'info',
});
const infoFile = process.env.FUZZ_STACK_INFO;
if (infoFile) {
  writeFileSync(`${infoFile}.tmp`, JSON.stringify({ baseUrl: stack.baseUrl, databaseUrl: stack.databaseUrl }));
  renameSync(`${infoFile}.tmp`, infoFile);
} else {
  console.log(`fuzz stack ready at ${stack.baseUrl}`);
}

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  try {
    await stack.stop();
  } finally {
    process.exit(0);
  }
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Keeps the event loop alive until a signal arrives.
setInterval(() => {}, 1 << 30);
