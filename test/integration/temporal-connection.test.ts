// src/temporal/client.ts: the server's Temporal client connects through the SDK core on first use.
// While Temporal cannot be reached, a call fails as an unreachable server does (the client's
// ServiceError with gRPC UNAVAILABLE: the HTTP layer's 503) and /readyz's check says false in time;
// once Temporal is reachable, the next call connects — no restart of the server.
import net from 'node:net';
import { afterAll, expect, inject, it } from 'vitest';
import { ServiceError } from '@temporalio/client';
import type { Config } from '../../src/config.js';
import { createTemporalClient, temporalReachable } from '../../src/temporal/client.js';
import { freeLoopbackPort } from '../../src/observability/worker-telemetry.js';

const port = await freeLoopbackPort();
const client = createTemporalClient({
  TEMPORAL_ADDRESS: `127.0.0.1:${port}`,
  TEMPORAL_NAMESPACE: 'default',
} as Config);
let forwarder: net.Server | undefined;
const sockets = new Set<net.Socket>();

afterAll(async () => {
  await client.connection.close();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => (forwarder ? forwarder.close(resolve) : resolve(undefined)));
});

/** Forwards `port` to the test stack's Temporal from now on. */
async function forwardToTemporal() {
  const [host, target] = inject('temporalAddress').split(':');
  forwarder = net.createServer((inbound) => {
    const outbound = net.connect(Number(target), host);
    for (const s of [inbound, outbound]) {
      sockets.add(s);
      s.on('error', () => undefined).on('close', () => sockets.delete(s));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((resolve) => forwarder!.listen(port, '127.0.0.1', resolve));
}

it('fails a call as unreachable while nothing answers, then connects once Temporal does', async () => {
  const handle = client.workflow.getHandle('no-such-workflow');
  for (let i = 0; i < 2; i++) {
    const err = await handle.describe().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).cause).toMatchObject({ code: 14 });
  }
  const started = Date.now();
  expect(await temporalReachable(client, 1000)).toBe(false);
  expect(Date.now() - started).toBeLessThan(5000);

  await forwardToTemporal();
  expect(await temporalReachable(client, 10_000)).toBe(true);
  // A workflow that does not exist is Temporal's own answer now, not an unreachable server.
  const err = await handle.describe().catch((e: unknown) => e);
  expect((err as Error).name).toBe('WorkflowNotFoundError');
});
