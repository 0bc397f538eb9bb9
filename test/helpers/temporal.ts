import { afterAll, beforeAll, inject } from 'vitest';
import { Client, Connection } from '@temporalio/client';

/** A client of the test stack's Temporal server for one test file: connected before its tests, closed after them. */
export function temporalClient(): Client {
  const connection = Connection.lazy({ address: inject('temporalAddress') });
  beforeAll(() => connection.ensureConnected());
  afterAll(() => connection.close());
  return new Client({ connection, namespace: 'default' });
}
