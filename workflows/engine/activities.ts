// Activity proxies the workflow calls. Activities are imported as types only.
import { proxyActivities, proxyLocalActivities, type RetryPolicy } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';

/** Fast PostgreSQL work next to the workflow: projection, directory look-ups, service functions. */
export const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '200ms', maximumInterval: '10s', backoffCoefficient: 2 },
});

/**
 * Read-model writes must eventually land: retried without limit.
 *
 * A regular activity, not a local one: a local activity runs inside the workflow task, before the
 * server has recorded that task. When that task is then lost (Updates racing on one instance make
 * the server hand out a new task and refuse the old completion), its PostgreSQL writes stay while
 * the state that produced them never happened — a claim the workflow never recorded showed up in
 * the read model and in the winner's answer. A regular activity is scheduled by the completed task,
 * so only durable state is ever projected.
 */
export const projection = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { initialInterval: '100ms', maximumInterval: '5s', backoffCoefficient: 2 },
});

/** The projection of runs recorded before the change above (replay only; see DURABLE_PROJECTION). */
export const legacyProjection = proxyLocalActivities<Activities>({
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

/** Webhook service functions: the entry's timeout per attempt (plus the worker's slack) and retry policy. */
export function webhookActivities(timeoutMs: number, retry: RetryPolicy) {
  return proxyActivities<Activities>({ startToCloseTimeout: timeoutMs + 5000, retry });
}
