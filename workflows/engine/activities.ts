// Activity proxies the workflow calls. Activities are imported as types only.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';

/** Fast PostgreSQL work next to the workflow: projection, directory look-ups, service functions. */
export const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '200ms', maximumInterval: '10s', backoffCoefficient: 2 },
});

/** Read-model writes must eventually land: retried without limit. */
export const projection = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '100ms', maximumInterval: '5s', backoffCoefficient: 2 },
});

/** Outbound HTTP: a real activity with its own timeout, not retried by default (the node decides). */
export function httpActivities(timeoutMs: number) {
  return proxyActivities<Activities>({
    startToCloseTimeout: Math.max(1000, timeoutMs + 2000),
    retry: { maximumAttempts: 1 },
  });
}
